"""What the store raises: one domain error a client sees (``Unavailable``) and the signals the
service's write path handles itself (``VersionConflict``, ``AlreadyMember``, ``AccountGone``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from botocore.exceptions import ClientError

from domino.engine.errors import DominoError

if TYPE_CHECKING:
    from domino.store.records import GameRecord

#: DynamoDB's answers that mean "busy, come back shortly" (after the SDK's own retries)
THROTTLE_CODES = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
    }
)


class Unavailable(DominoError):
    """DynamoDB throttled or was briefly unavailable after the SDK's retries: come back in
    ``retry_after`` seconds (the API answers 503 with Retry-After)."""

    code = "unavailable"
    retry_after: ClassVar[int] = 1

    def __init__(self, message: str = "The service is busy; try again in a moment.") -> None:
        super().__init__(message, retry_after=self.retry_after)


class StoreError(Exception):
    """Base class of the store's signals to the service (never shown to a client as such)."""


class VersionConflict(StoreError):
    """The conditional write lost a race; ``current`` is the item that won (or None if gone)."""

    def __init__(self, current: GameRecord | None) -> None:
        super().__init__("version conflict")
        self.current = current


class AlreadyMember(StoreError):
    """The player's membership item exists already (a concurrent join of the same player)."""


class AccountGone(StoreError):
    """The player's account was deleted after the token that asked was issued: the write that
    would have seated them (a create, a join, a socket) was not made."""


def throttled(err: BaseException | None) -> bool:
    """Whether DynamoDB throttled (or was briefly unavailable) behind ``err`` or its causes:
    for errors raised by other DynamoDB users (Powertools' idempotency layer)."""
    while err is not None:
        if isinstance(err, Unavailable):
            return True
        if isinstance(err, ClientError) and err.response["Error"]["Code"] in THROTTLE_CODES:
            return True
        err = err.__cause__ or err.__context__
    return False


def cancellation_codes(err: ClientError) -> list[str]:
    """The reasons a ``TransactWriteItems`` was cancelled, one per action in its order
    (``"None"`` for an action that was not the cause); any other error is raised again."""
    if err.response["Error"]["Code"] != "TransactionCanceledException":
        raise err
    return [str(r.get("Code") or "None") for r in err.response.get("CancellationReasons") or []]
