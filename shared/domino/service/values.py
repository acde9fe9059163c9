"""What the use cases take and give: the caller, parsed commands, and what a caller may see.

The HTTP edge builds these from requests (bodies, headers, claims); nothing here knows HTTP.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

BotLevel = Literal["random", "greedy", "strategist", "expert"]
OnTimeout = Literal["auto", "forfeit"]
MoveKind = Literal["play", "draw", "pass", "cede"]
#: what ``POST /games/{id}/emotes`` sends (docs/api.md, "Emotes": no free text)
EMOTES = ("hello", "good_game", "well_played", "thanks", "oops", "thinking")
#: why a player is reported (``POST /players/{id}/reports``)
REASONS = ("name", "cheating", "abuse", "other")


class Caller(NamedTuple):
    """Who is asking: the player id (a token's ``sub``), the display name, and the token's
    ``locale`` claim if it has one (the language of texts when no device says otherwise).

    The rest say where the token came from, for account deletion: its ``issuer`` (``iss``),
    when it was issued (``iat``, epoch seconds: a token issued before its account was deleted
    cannot bring the account back) and the identity provider's user name (Cognito's
    ``cognito:username``; a federated user's differs from ``sub``)."""

    player: str
    name: str
    locale: str | None = None
    issuer: str | None = None
    issued_at: int | None = None
    username: str | None = None


class NewGame(NamedTuple):
    """Create a game: the creator takes seat 0, ``bots`` computer players take the last seats."""

    preset: str
    players: int
    rules: dict[str, Any] | None = None
    bots: int = 0
    bot_level: BotLevel = "expert"
    name: str | None = None  # the creator's name at the table (default: the caller's)
    turn_timeout_hours: float | None = None
    on_timeout: OnTimeout = "auto"
    private: bool = False
    deal: dict[str, Any] | None = None  # dev mode: the first deal
    seed: int | None = None  # dev mode: repeatable shuffles
    invite: list[str] | None = None  # players whose seats are reserved for them


class NewTicket(NamedTuple):
    """``POST /match/tickets``: a seat with strangers."""

    preset: str
    players: int
    ranked: bool = True
    wait_s: int | None = 60  # None: people only
    turn_timeout_hours: float | None = None
    on_timeout: OnTimeout = "auto"


class TakeSeat(NamedTuple):
    """Join a waiting game: a given seat or the first open one, with a name at the table."""

    seat: int | None = None
    name: str | None = None


class MakeMove(NamedTuple):
    """Play ``tile`` (its text, read against the game's set) on ``end``, draw, pass, or cede
    the lead."""

    kind: MoveKind
    tile: str | None = None
    end: str | None = None


DRAW_TILE = MakeMove("draw")
PASS_TURN = MakeMove("pass")
CEDE_LEAD = MakeMove("cede")


class LeaveSeat(NamedTuple):
    """Leave a game: before the deal the seat is freed, during play a bot takes it."""


LEAVE = LeaveSeat()


class RegisterDevice(NamedTuple):
    """A device's push token on its platform, and the language its notifications are in."""

    platform: str
    token: str
    locale: str | None = None


class ChangeName(NamedTuple):
    """``PATCH /me``: the caller's display name from now on (seats they take afterwards show
    it), and the notification types not pushed to their devices; None leaves either as it is."""

    name: str | None = None
    mute: tuple[str, ...] | None = None
    #: the language chosen for the inbox, sockets and pushes; "" forgets it (``null`` sent)
    locale: str | None = None
    #: whether a turn with only one thing to do is played for them at once
    auto_forced: bool | None = None
    #: their quiet hours, encoded (``domino.service.quiet.QuietHours``); "" ends them
    quiet_hours: str | None = None


class SendEmote(NamedTuple):
    """``POST /games/{id}/emotes``: one of the fixed emotes (no free text)."""

    emote: str


class ReportPlayer(NamedTuple):
    """``POST /players/{id}/reports``: why, and optionally the game and a note for the operator."""

    reason: str
    game: str | None = None
    note: str | None = None


class MarkRead(NamedTuple):
    """The notification ``until`` and every older one are read."""

    until: str


class GameSeen(NamedTuple):
    """A game as one caller may see it: its id, version and the caller's view (docs/openapi.yaml);
    ``replayed``: the answer an earlier request with the same Idempotency-Key got."""

    game_id: str
    version: int
    view: dict[str, Any]
    replayed: bool = False

    @property
    def viewer(self) -> int | None:
        """The caller's seat in this view (None: the public view, for a caller with no seat)."""
        you = self.view.get("you")
        return you.get("seat") if isinstance(you, dict) else None


class Keyed(NamedTuple):
    """A request's Idempotency-Key as the service sees it: ``record``, the id of the record of
    its answer (the key hashed, scoped to the caller), and ``payload``, a hash of the request
    (method, path, JSON). The game item remembers both by their first characters."""

    record: str
    payload: str

    @property
    def short(self) -> str:
        return self.record[-16:]

    @property
    def short_payload(self) -> str:
        return self.payload[:12]


class Page(NamedTuple):
    """One page of a list and the cursor of the next (None on the last)."""

    items: list[dict[str, Any]]
    next: str | None
