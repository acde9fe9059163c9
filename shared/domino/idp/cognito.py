"""The stack's Cognito user pool, as account deletion needs it: its issuer (the ``iss`` of the
tokens it signs) and ``AdminDeleteUser``.

The pool's id comes from ``COGNITO_USER_POOL_ID``, which template.yaml sets only when the stack
creates its own pool (``UseCognito``); the function's role may delete users of that pool only.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from domino.store.clients import SERVICE_CONFIG, aws_client
from domino.store.errors import Unavailable

#: what Cognito answers when it is busy (after the SDK's own retries)
BUSY_CODES = frozenset(
    {"TooManyRequestsException", "InternalErrorException", "LimitExceededException"}
)


class CognitoUsers:
    def __init__(self, pool_id: str) -> None:
        self.pool_id = pool_id
        #: a pool id is ``<region>_<id>``: its tokens' issuer names the pool's region
        self.region = pool_id.split("_", 1)[0]
        self._client: Any = None

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.pool_id}"

    @property
    def client(self) -> Any:
        if self._client is None:  # built on first use: only a deletion calls Cognito
            self._client = aws_client("cognito-idp", region_name=self.region, config=SERVICE_CONFIG)
        return self._client

    def delete_user(self, username: str) -> None:
        """Delete the pool's user ``username`` (its ``cognito:username``, or ``sub`` for a user
        signed up in the pool itself); a user already gone is what deleting wanted."""
        try:
            self.client.admin_delete_user(UserPoolId=self.pool_id, Username=username)
        except ClientError as err:
            code = err.response["Error"]["Code"]
            if code == "UserNotFoundException":
                return
            if code in BUSY_CODES:
                raise Unavailable() from err
            raise
