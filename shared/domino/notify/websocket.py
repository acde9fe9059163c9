"""Posting to WebSocket connections through API Gateway's management API (the local runtime
serves the same API, so the same boto3 code path runs locally)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from domino.store.clients import SERVICE_CONFIG, aws_client
from domino.store.errors import Unavailable, throttled


class ApiGatewayConnections:
    def __init__(self, endpoint: str) -> None:
        """``endpoint``: the WebSocket API's stage URL (``https://{id}.execute-api.{region}
        .amazonaws.com/{stage}``)."""
        self.endpoint = endpoint
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws_client(
                "apigatewaymanagementapi", endpoint_url=self.endpoint, config=SERVICE_CONFIG
            )
        return self._client

    def post(self, connection_id: str, data: bytes) -> bool:
        """Send ``data`` to the connection; False when it is gone."""
        return self._reached(self.client.post_to_connection, ConnectionId=connection_id, Data=data)

    def is_open(self, connection_id: str) -> bool:
        """Whether the connection is established (GetConnection; during its $connect, API
        Gateway answers it as gone, 410)."""
        return self._reached(self.client.get_connection, ConnectionId=connection_id)

    def close(self, connection_id: str) -> None:
        """Close the connection (API Gateway runs its $disconnect); gone already is fine."""
        self._reached(self.client.delete_connection, ConnectionId=connection_id)

    @staticmethod
    def _reached(call: Any, **params: Any) -> bool:
        """Make one management API call: False when the connection is gone (410), a busy API
        as ``Unavailable``."""
        try:
            call(**params)
        except ClientError as err:
            if err.response["Error"]["Code"] == "GoneException":
                return False
            if throttled(err) or err.response["Error"]["Code"] == "LimitExceededException":
                raise Unavailable() from err
            raise
        return True
