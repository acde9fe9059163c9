"""SNS for the local runtime and the tests: moto's server, in this process, with the three push
platform applications the deployed stack is given as parameters.

The handlers push through the real boto3 SNS code path (``AWS_ENDPOINT_URL_SNS`` points at the
server); ``pushes()`` reads what moto kept, which is what would have reached a phone
(``GET /dev/pushes``).
"""

from __future__ import annotations

import json
import logging
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


class LocalSns:
    """moto's server on a free port of 127.0.0.1 with one platform application per platform."""

    def __init__(self, port: int | None = None) -> None:
        from moto.server import ThreadedMotoServer  # dev tooling only

        # its request log ("POST / 200" per SNS call) is noise in the runtime's own
        logging.getLogger("werkzeug").setLevel(logging.WARNING)

        self.port = port or ddb.free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.server.start()
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
        for account in sns_backends.values():
            backend = account.get(REGION)
            if backend is None:
                continue
            for arn, endpoint in list(backend.platform_endpoints.items()):  # served meanwhile
                platform = platform_of.get(endpoint.application.arn)
                if platform is None:
                    continue
                key = PLATFORMS[platform][0]
                for message in list(endpoint.messages.values()):
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

        for account in sns_backends.values():
            backend = account.get(REGION)
            for endpoint in backend.platform_endpoints.values() if backend else []:
                if endpoint.token == token:
                    endpoint.attributes["Enabled"] = False

    def stop(self) -> None:
        self.server.stop()
