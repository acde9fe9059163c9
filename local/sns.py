"""SNS for the local runtime and the tests: moto's server, in this process, with the three push
platform applications the deployed stack is given as parameters.

The handlers push through the real boto3 SNS code path (``AWS_ENDPOINT_URL_SNS`` points at the
server); ``pushes()`` reads what moto kept, which is what would have reached a phone
(``GET /dev/pushes``).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

import boto3

from local import ddb

#: platform -> (SNS's platform name, the handlers' variable naming its application)
PLATFORMS = {
    "apns": ("APNS", "PUSH_APNS_ARN"),
    "apns_sandbox": ("APNS_SANDBOX", "PUSH_APNS_SANDBOX_ARN"),
    "fcm": ("GCM", "PUSH_FCM_ARN"),
}
REGION = "us-east-1"


class _SnsOneAtATime:
    """A WSGI app that lets one SNS request at a time into ``app``. moto's backends are plain
    dicts that its handlers iterate and change unguarded: two CreatePlatformEndpoint calls at
    once could fail one with "dictionary changed size during iteration" (a 500 no SNS gives).
    The server keeps a thread per connection, and the SQS queues it also serves
    (local/queues.py) stay as they were: their receives long-poll for seconds and must not hold
    up a push. A request's service is the one its signature's scope names."""

    def __init__(self, app: Callable[..., Iterable[bytes]], lock: threading.Lock) -> None:
        self.app = app
        self.lock = lock

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if "/sns/aws4_request" not in environ.get("HTTP_AUTHORIZATION", ""):
            return self.app(environ, start_response)
        with self.lock:
            return list(self.app(environ, start_response))  # the body made inside the lock


class LocalSns:
    """moto's server on a free port of 127.0.0.1 with one platform application per platform."""

    def __init__(self, port: int | None = None) -> None:
        # dev tooling only: moto's own server app and request handler, SNS one request at a time
        from moto.moto_server.werkzeug_app import (
            DomainDispatcherApplication,
            MotoRequestHandler,
            create_backend_app,
        )
        from werkzeug.serving import make_server

        # its request log ("POST / 200" per SNS call) is noise in the runtime's own
        logging.getLogger("werkzeug").setLevel(logging.WARNING)

        self.port = port or ddb.free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.lock = threading.Lock()  # held by every SNS request and by the reads below
        app = _SnsOneAtATime(DomainDispatcherApplication(create_backend_app), self.lock)
        self.server = make_server(
            "127.0.0.1", self.port, app, threaded=True, request_handler=MotoRequestHandler
        )
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        client = boto3.client(
            "sns",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        self.applications = {}
        for platform, (name, _) in PLATFORMS.items():
            created = client.create_platform_application(
                Name=f"domino-local-{platform}",
                Platform=name,
                Attributes={"PlatformCredential": "local", "PlatformPrincipal": "local"},
            )
            self.applications[platform] = created["PlatformApplicationArn"]

    def environment(self) -> dict[str, str]:
        """What the handlers need to push here."""
        env = {"AWS_ENDPOINT_URL_SNS": self.endpoint}
        for platform, (_, variable) in PLATFORMS.items():
            env[variable] = self.applications[platform]
        return env

    def pushes(self) -> list[dict[str, Any]]:
        """Every message published to a platform endpoint, oldest first: the platform, the
        device token, the player (the endpoint's CustomUserData) and the payload the platform
        would have been given (the message's key for it, parsed)."""
        from moto.sns.models import sns_backends

        platform_of = {arn: p for p, arn in self.applications.items()}
        found = []
        with self.lock:
            backends = [account.get(REGION) for account in sns_backends.values()]
            endpoints = [
                (arn, endpoint, list(endpoint.messages.values()))
                for backend in backends
                if backend is not None
                for arn, endpoint in backend.platform_endpoints.items()
            ]
        for arn, endpoint, messages in endpoints:
            platform = platform_of.get(endpoint.application.arn)
            if platform is None:
                continue
            key = PLATFORMS[platform][0]
            for message in messages:
                whole = json.loads(message)
                found.append(
                    {
                        "endpoint": arn,
                        "platform": platform,
                        "token": endpoint.token,
                        "player": endpoint.custom_user_data,
                        "payload": json.loads(whole[key]) if key in whole else None,
                        "default": whole.get("default"),
                    }
                )
        return found

    def disable(self, token: str) -> None:
        """What SNS does when APNs or FCM says a token is no longer valid."""
        from moto.sns.models import sns_backends

        with self.lock:
            for account in sns_backends.values():
                backend = account.get(REGION)
                for endpoint in backend.platform_endpoints.values() if backend else []:
                    if endpoint.token == token:
                        endpoint.attributes["Enabled"] = False

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join()
        self.server.server_close()  # the port, free at once
