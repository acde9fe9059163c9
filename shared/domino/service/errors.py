"""The service's domain errors: one type per case, each with its contract code (docs/api.md,
"Errors"). The engine's rule errors and the store's ``Unavailable`` share the same base,
``DominoError``; the HTTP edge maps every one of them to a status in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from domino.engine.errors import DominoError, GameNotInProgress, InvalidInput
from domino.store.errors import Unavailable

if TYPE_CHECKING:
    from domino.service.values import GameSeen

__all__ = [
    "AccountBanned",
    "AccountDeleted",
    "AlreadyJoined",
    "AlreadyMatched",
    "AlreadyNudged",
    "AlreadySearching",
    "Blocked",
    "Conflict",
    "DevOnly",
    "DominoError",
    "GameFull",
    "GameNotFound",
    "GameNotInProgress",
    "IdempotencyKeyReused",
    "InvalidInput",
    "InvalidInvite",
    "MatchNotOver",
    "NotAPlayer",
    "NotFound",
    "NotInvited",
    "PlayerNotFound",
    "RequestInProgress",
    "SeatTaken",
    "Throttled",
    "TurnTimedOut",
    "Unavailable",
    "VersionMismatch",
]


class GameNotFound(DominoError):
    code = "game_not_found"

    def __init__(self, message: str = "No such game.") -> None:
        super().__init__(message)


class PlayerNotFound(DominoError):
    """No such player (``GET /players/{id}``, reports): never seen here (``Safety.known``), or
    their account was deleted."""

    code = "not_found"

    def __init__(self, message: str = "No such player.") -> None:
        super().__init__(message)


class NotAPlayer(DominoError):
    """The caller has no seat they play (never had one, or left and a bot plays it)."""

    code = "not_a_player"


class NotInvited(DominoError):
    """Declining a seat that was not reserved for the caller (or that they joined already)."""

    code = "not_invited"

    def __init__(self, message: str = "You have no invitation to this game.") -> None:
        super().__init__(message)


class MatchNotOver(DominoError):
    """A rematch asked of a match that is still being played."""

    code = "match_not_over"

    def __init__(self, message: str = "The match is not over yet.") -> None:
        super().__init__(message)


class InvalidInvite(InvalidInput):
    """An ``invite`` list the game cannot take (400 naming ``invite``): the creator, a player
    twice, or more people than the game has seats for."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message, **params)
        self.fields = ["invite"]
        self.params["fields"] = ["invite"]


class AlreadyJoined(DominoError):
    code = "already_joined"

    def __init__(self, message: str = "You already have a seat in this game.") -> None:
        super().__init__(message)


class TurnTimedOut(DominoError):
    """A move on a turn past its deadline under ``on_timeout: forfeit``."""

    code = "turn_timed_out"


class GameFull(DominoError):
    """Every seat is taken, or the game has been dealt."""

    code = "game_full"


class SeatTaken(DominoError):
    code = "seat_taken"


class AccountDeleted(DominoError):
    """The caller's account was deleted after their token was issued: the token is no longer
    anyone's (401, as for any token the API does not take; signing in again gives a new one)."""

    code = "unauthorized"

    def __init__(self, message: str = "This account has been deleted; sign in again.") -> None:
        super().__init__(message)


class AccountBanned(DominoError):
    """The operator banned the caller's account (``domino-admin ban``): every token of it is
    401, as for any token the API does not take."""

    code = "unauthorized"

    def __init__(self, message: str = "This account has been suspended.") -> None:
        super().__init__(message)


class DevOnly(DominoError):
    """A dev-mode input (``deal``, ``seed``) outside dev mode."""

    code = "dev_only"


class VersionMismatch(DominoError):
    """``If-Match`` named a version the game has left: ``current`` is the game as the caller
    may see it now."""

    code = "version_mismatch"

    def __init__(self, current: GameSeen, expected: int) -> None:
        super().__init__(
            "The game is at version {version}, not {expected}.",
            version=current.version,
            expected=expected,
        )
        self.current = current
        self.expected = expected


class Conflict(DominoError):
    """A change lost every race it retried (``current``: the game as the caller may see it),
    or a duplicate request is still running (``retry_after``)."""

    code = "conflict"
    retry_after: ClassVar[int | None] = None

    def __init__(self, message: str, current: GameSeen | None = None, **params: object) -> None:
        super().__init__(message, **params)
        self.current = current


class IdempotencyKeyReused(DominoError):
    """The caller's Idempotency-Key answered another request (method, path or body) before."""

    code = "idempotency_key_reused"

    def __init__(
        self, message: str = "This Idempotency-Key was used with another request."
    ) -> None:
        super().__init__(message)


class RequestInProgress(Conflict):
    """A request with the same Idempotency-Key is still running: its answer is not kept yet."""

    retry_after: ClassVar[int | None] = 1

    def __init__(self) -> None:
        super().__init__("A request with this Idempotency-Key is in progress.", retry_after=1)


class NotFound(DominoError):
    """Something other than a game that does not exist, or is not the caller's to see."""

    code = "not_found"


class AlreadySearching(DominoError):
    """The caller holds a searching ticket: the answer carries it as ``ticket``."""

    code = "already_searching"

    def __init__(self, ticket: dict[str, Any] | None) -> None:
        super().__init__("You are already searching for a match.")
        self.beside = {"ticket": ticket}


class AlreadyMatched(DominoError):
    """The ticket was matched: the answer carries its game's id as ``game``."""

    code = "already_matched"

    def __init__(self, game: str | None) -> None:
        super().__init__("This ticket has been matched into a game.")
        self.beside = {"game": game}


class Blocked(DominoError):
    """One of two people blocks the other (``domino.service.safety.Safety.blocked_between``):
    no match, invitation or rematch between them. The message says no more (blocking is
    silent: it never says who blocked whom)."""

    code = "blocked"

    def __init__(self, message: str = "You cannot do this with this player.") -> None:
        super().__init__(message)


class AlreadyNudged(DominoError):
    """The player on turn has been nudged about this turn already (once per turn)."""

    code = "already_nudged"

    def __init__(self, message: str = "This turn's player has been nudged already.") -> None:
        super().__init__(message)


class VacationExhausted(DominoError):
    """The vacation asked for goes beyond the 30 days a player may be away in any 365."""

    code = "vacation_exhausted"

    def __init__(self, days_left: int) -> None:
        super().__init__(
            "That vacation is longer than the {days_left} days you have left.", days_left=days_left
        )


class Throttled(DominoError):
    """Too soon: ``retry_after`` seconds until it is allowed (sent as ``Retry-After``)."""

    code = "throttled"

    def __init__(self, message: str, retry_after: int, **params: object) -> None:
        super().__init__(message, retry_after=max(1, retry_after), **params)
        self.retry_after = max(1, retry_after)
