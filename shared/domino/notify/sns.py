"""SNS mobile push: platform endpoints for device tokens, and publishing to them.

One platform application per platform (APNs, APNs sandbox, FCM), created outside CloudFormation
(it cannot create them) and named to the stack by ARN; a platform without one is not offered.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any

from botocore.exceptions import ClientError

from domino.store.clients import SERVICE_CONFIG, aws_client
from domino.store.errors import Unavailable, throttled

#: what SNS answers for an endpoint that no longer reaches a device (APNs or FCM said the token
#: is invalid, so SNS disabled it), or for a token it will not take
GONE_CODES = frozenset({"EndpointDisabled", "InvalidParameter", "NotFound"})


#: SNS's refusal of a token that already has an endpoint names that endpoint
EXISTING = re.compile(r"Endpoint (arn:[^ ]+) already exists")


class EndpointGone(Exception):
    """The endpoint no longer reaches a device: its registration should go."""


#: SNS's message attribute for APNs' apns-collapse-id header (at most 64 bytes)
APNS_COLLAPSE_ID = "AWS.SNS.MOBILE.APNS.COLLAPSE_ID"


class SnsPush:
    def __init__(self, applications: Mapping[str, str]) -> None:
        """``applications``: platform -> platform application ARN (empty: not offered)."""
        self.applications = {k: v for k, v in applications.items() if v}
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:  # built on first use: most API functions never push
            self._client = aws_client("sns", config=SERVICE_CONFIG)
        return self._client

    def offered(self, platform: str) -> bool:
        return platform in self.applications

    def _call(self, fn: Any, **kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except ClientError as err:
            code = err.response["Error"]["Code"]
            if code in GONE_CODES:
                raise EndpointGone(code) from err
            if throttled(err) or code in ("Throttling", "InternalError"):
                raise Unavailable() from err
            raise

    def register(self, platform: str, token: str, player: str, endpoint: str | None) -> str:
        """The endpoint for ``token``: ``endpoint`` updated to it (token rotation keeps the
        endpoint), or a new one; a token SNS already has an endpoint for (the app reinstalled,
        another player signed in on the phone) takes that endpoint over. Returns its ARN."""
        if endpoint and self._update(endpoint, token, player):
            return endpoint
        try:
            response = self.client.create_platform_endpoint(
                PlatformApplicationArn=self.applications[platform],
                Token=token,
                CustomUserData=player,
            )
        except ClientError as err:
            taken = EXISTING.search(str(err.response["Error"].get("Message", "")))
            if err.response["Error"]["Code"] != "InvalidParameter" or not taken:
                raise
            existing = taken.group(1)
            self._update(existing, token, player)
            return existing
        arn: str = response["EndpointArn"]
        return arn

    def _update(self, endpoint: str, token: str, player: str) -> bool:
        """Point ``endpoint`` at ``token`` for ``player``, enabled (False: it is gone)."""
        attributes = {"Token": token, "CustomUserData": player}
        try:
            current = self._call(self.client.get_endpoint_attributes, EndpointArn=endpoint)
            if current.get("Attributes", {}).get("Enabled", "true").lower() != "true":
                attributes["Enabled"] = "true"  # a new token revives a disabled endpoint
            self._call(
                self.client.set_endpoint_attributes, EndpointArn=endpoint, Attributes=attributes
            )
        except EndpointGone:
            return False
        return True

    def exists(self, endpoint: str) -> bool:
        """Whether the endpoint is still there, disabled or not (deleted: not)."""
        try:
            self._call(self.client.get_endpoint_attributes, EndpointArn=endpoint)
        except EndpointGone as gone:
            return str(gone) != "NotFound"
        return True

    def delete(self, endpoint: str) -> None:
        with contextlib.suppress(EndpointGone):  # gone already: what deleting wanted
            self._call(self.client.delete_endpoint, EndpointArn=endpoint)

    def publish(
        self, endpoint: str, message: Mapping[str, Any], collapse: str | None = None
    ) -> bool:
        """Send ``message`` (SNS's per-platform JSON: ``default``, ``APNS``, ``GCM``, ...; each
        platform's payload is sent as a string, as SNS wants it). False when the endpoint no
        longer reaches a device. ``collapse`` becomes APNs' ``apns-collapse-id`` (FCM's
        ``collapse_key`` and ``tag`` are in the payload)."""
        encoded = {k: v if isinstance(v, str) else json.dumps(v) for k, v in message.items()}
        attributes = {}
        if collapse:
            attributes[APNS_COLLAPSE_ID] = {"DataType": "String", "StringValue": collapse}
        try:
            self._call(
                self.client.publish,
                TargetArn=endpoint,
                MessageStructure="json",
                Message=json.dumps(encoded),
                MessageAttributes=attributes,
            )
        except EndpointGone:
            return False
        return True
