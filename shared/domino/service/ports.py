"""What the use cases need from storage and delivery: ``GameStore``, ``InboxStore``,
``Channel``, ``AccountStore``, ``IdentityProvider``... The DynamoDB implementations live in
``domino.store``; tests also run the use cases on in-memory ones (tests/unit/memory_store.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from domino.store.records import GameRecord

if TYPE_CHECKING:
    from domino.store.accounts import NoticeSettings, Profile
    from domino.store.connections import Ledger
    from domino.store.devices import Device, Owner
    from domino.store.inbox import Note
    from domino.store.quiet import Held
    from domino.store.ratings import PlayerItems, Ranked, Rating, RatingChange, StatsChange
    from domino.store.reach import Reach
    from domino.store.replies import StoredReply
    from domino.store.safety import Block, Report
    from domino.store.tickets import Ticket
    from domino.store.vacations import Vacation
    from domino.store.watchers import Watcher


class GameStore(Protocol):
    """Versioned games, their memberships, archived hands and the player-scoped listings.

    ``save`` writes only if the stored version is still ``expected``, else raises
    ``VersionConflict`` holding the record that won; a membership that exists already on
    ``join`` raises ``AlreadyMember``; a busy database raises ``Unavailable``.
    """

    def load(self, game_id: str) -> GameRecord | None: ...

    def load_many(self, game_ids: list[str]) -> list[GameRecord]:
        """The games of ``game_ids`` there are, eventually consistent (listings)."""
        ...

    def create(self, record: GameRecord, *, token_issued: int | None = None) -> None:
        """``token_issued``: only while the creator's account was not deleted since
        (``AccountGone``)."""
        ...

    def save(
        self,
        record: GameRecord,
        expected: int,
        *,
        join: str | None = None,
        unjoin: str | None = None,
        token_issued: int | None = None,
        invited: bool = False,
    ) -> None:
        """``invited``: ``join`` takes a seat reserved for them, whose membership the
        invitation wrote (it is written again, not refused as already there)."""
        ...

    def create_rematch(
        self, record: GameRecord, finished: GameRecord, expected: int, *, token_issued: int | None
    ) -> None:
        """Create ``record``, the rematch of ``finished``, and save ``finished`` (naming it in
        ``rematch``) at once, only while ``finished`` is still at ``expected`` and names no
        rematch (``VersionConflict`` holding it otherwise)."""
        ...

    def archive_moves(
        self, game_id: str, hand_number: int, moves: list[dict[str, Any]]
    ) -> None: ...

    def archived_moves(self, game_id: str) -> list[dict[str, Any]]: ...

    def delete_satellites(
        self, game_id: str, players: list[str], finished_at: int | None = None
    ) -> int: ...

    def file_finished(self, game_id: str, players: list[str], finished_at: int) -> None:
        """File the players' memberships of a game that finished at ``finished_at`` among
        their finished games (idempotent)."""
        ...

    def open_games(self, limit: int, cursor: str | None) -> tuple[list[GameRecord], str | None]: ...

    def due_keys(self, now: int, limit: int) -> list[tuple[str, str]]:
        """The keys (pk, sk) the sweeper must look at by ``now``, most overdue first: games
        (``GAME#<id>``), a player's held pushes (``PLAYER#<id>``, ``HELD``) and vacations
        (``VACATION``)."""
        ...

    def mark_reminded(self, record: GameRecord, at: int) -> bool:
        """Note that ``record``'s player on turn was reminded at ``at``, if the game is still at
        ``record.version`` (False: it has moved on; no reminder is due for that turn)."""
        ...

    def set_premoves(self, record: GameRecord) -> None:
        """Write ``record.premoves`` while the game is still as loaded (its version and last
        writer) and playing, keeping its version; else ``VersionConflict`` (the game now, None:
        gone)."""
        ...

    def mark_nudged(self, record: GameRecord, seat: int, at: int) -> GameRecord | None:
        """Note that ``seat`` nudged ``record``'s player on turn at ``at``, if the game is still
        at ``record.version`` and nobody nudged that version yet: None when written, else the
        game as it is now (moved on, or nudged already)."""
        ...

    def games_on_turn(self, player: str) -> list[str]:
        """Ids of the games awaiting ``player``'s move (eventually consistent)."""
        ...

    def player_games(
        self,
        player: str,
        *,
        status: str | None,
        turn_mine: bool,
        limit: int,
        cursor: str | None,
        updated_after: str | None = None,
    ) -> tuple[list[GameRecord], str | None]: ...


class RatingReader(Protocol):
    """A player's rating in a pool (a newcomer's when none is stored)."""

    def get(self, player: str, pool: str) -> Rating: ...


class TicketStore(Protocol):
    """Quick match's tickets (``domino.store.tickets``): ``open`` raises ``AlreadySearching``
    for a player holding a searching ticket; ``end`` and ``match`` raise ``TicketsTaken`` when a
    ticket no longer searches (``match`` then writes nothing)."""

    def open(self, ticket: Ticket) -> None: ...

    def searching_ticket(self, player: str) -> str | None:
        """The id of the player's searching ticket (None: they hold none)."""
        ...

    def load(self, ticket_id: str) -> Ticket | None: ...

    def queue(self, queue: str) -> list[Ticket]:
        """The queue's searching tickets, oldest first."""
        ...

    def end(self, ticket: Ticket, status: str, at: int) -> None: ...

    def match(self, tickets: list[Ticket], record: GameRecord, at: int) -> None: ...

    def take_queue(self, queue: str, holder: str, now: int) -> int | None:
        """Hold the queue as its one matcher: the asks seen, or None (another holds it and
        will look again)."""
        ...

    def renew_queue(self, queue: str, holder: str, now: int) -> int | None: ...

    def hand_back(self, queue: str, holder: str, seen: int, now: int) -> int | None:
        """Let go of the queue (None) unless asked again since ``seen`` (the new asks)."""
        ...

    def let_go(self, queue: str, holder: str) -> None: ...


class OpponentStore(Protocol):
    """Who met whom in finished matches (``domino.store.opponents.DynamoOpponents``)."""

    def record_match(self, game_id: str, people: list[tuple[str, str]], finished_at: int) -> int:
        """Count the finished game ``game_id`` once for each pair of its ``people`` (player,
        name at the table), however often it is delivered; returns how many players' rows it
        wrote (0: counted before)."""
        ...

    def page(
        self, player: str, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The people ``player`` met, most recently first (``player``, ``name``,
        ``matches``, ``last_played``), and the next page's cursor."""
        ...


class TimerQueue(Protocol):
    """Messages delivered after a delay of at most ``MAX_DELAY_SECONDS`` (an SQS delay queue);
    delivery is at least once."""

    def send(self, body: str, delay_seconds: int) -> None: ...


class ReplyStore(Protocol):
    """The answers of keyed game commands, kept 24 hours (``domino.store.replies``)."""

    def get(self, record_id: str) -> StoredReply | None: ...

    def put(self, record_id: str, payload: str, version: int, view: dict[str, Any]) -> None: ...


class InboxStore(Protocol):
    """Each player's notifications (``domino.store.inbox.DynamoInbox``): ``add`` writes a note
    once and answers False when it was there already."""

    def add(self, note: Note) -> bool: ...

    def get(self, player: str, note_id: str) -> Note | None: ...

    def page(
        self, player: str, limit: int, cursor: str | None
    ) -> tuple[list[Note], str | None]: ...

    def read_until(self, player: str) -> str | None: ...

    def unread(self, player: str, read_until: str | None) -> int: ...

    def mark_read(self, player: str, until: str) -> None: ...

    def mark_pushed(self, note: Note) -> None: ...


class Channel(Protocol):
    """A way a notification reaches a player beyond the inbox (mobile push, WebSocket)."""

    #: whether the outbox marks a note this channel sent: True where a repeat would reach the
    #: player a second time (a push shows again); False where the client knows a repeat for
    #: what it is (a socket message carries its version and the notification's id)
    marks_sent: bool

    def send(self, note: Note) -> bool:
        """Send ``note``; False when the player had nowhere to receive it (no device, no
        socket): nothing was sent, so nothing can be sent twice."""
        ...

    def reaches(self, note: Note) -> bool:
        """Whether ``send`` would send ``note`` somewhere (the player has a device, a socket),
        read from what the change has read already."""
        ...


class LiveChanges(Protocol):
    """Live updates of a change that notified a player of nothing."""

    def changed(self, player: str, game: str, version: int) -> None: ...

    def begin(self, old: GameRecord | None, new: GameRecord) -> None:
        """A change of a game: what its sockets are sent is built from these images."""
        ...

    def watched(self) -> int:
        """The change begun, posted to the game's watchers; how many."""
        ...


class WatcherStore(Protocol):
    """The sockets watching games (``domino.store.watchers.DynamoWatchers``)."""

    def watch(
        self,
        game_id: str,
        player: str,
        connection_id: str,
        at: int,
        most_watchers: int,
        most_watched: int,
    ) -> bool: ...

    def unwatch(self, game_id: str, player: str, connection_id: str) -> bool: ...

    def of_game(self, game_id: str) -> list[Watcher]: ...

    def watched_by(self, player: str, connection_id: str) -> list[str]: ...


class DeviceStore(Protocol):
    """Each player's devices (``domino.store.devices.DynamoDevices``)."""

    def put(self, device: Device) -> None: ...

    def get(self, player: str, device_id: str) -> Device | None: ...

    def delete(self, player: str, device_id: str) -> None: ...

    def of_player(self, player: str) -> list[Device]: ...

    def owner(self, platform: str, token: str) -> Owner | None:
        """Whose device a push token is registered for (one player's at a time)."""
        ...

    def claim(self, device: Device, previous: Owner | None, replaced: Device | None) -> None:
        """Make ``device`` its token's owner, taking it from ``previous`` (whose device goes);
        ``replaced``: the device as it was, with another token. ``ClaimLost`` on a race."""
        ...

    def release(self, device: Device) -> bool:
        """Forget ``device``; True when it still owned its token (its endpoint may go)."""
        ...


class PushGateway(Protocol):
    """Mobile push (``domino.notify.sns.SnsPush``): endpoints for tokens, and sending."""

    def offered(self, platform: str) -> bool: ...

    def register(self, platform: str, token: str, player: str, endpoint: str | None) -> str: ...

    def delete(self, endpoint: str) -> None: ...

    def exists(self, endpoint: str) -> bool:
        """Whether the endpoint is still there (disabled or not)."""
        ...

    def publish(
        self, endpoint: str, message: Mapping[str, Any], collapse: str | None = None
    ) -> bool:
        """False when the endpoint no longer reaches a device. ``collapse``: a later push with
        the same id replaces this one on the device (and a repeated one shows once)."""
        ...


class ConnectionStore(Protocol):
    """Each player's open WebSocket connections (``domino.store.connections``)."""

    def add(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        expires: int | None = None,
    ) -> None: ...

    def remove(self, player: str, connection_id: str, opened_before: int | None = None) -> None: ...

    def of_player(self, player: str, now: int) -> list[tuple[str, str | None]]: ...

    def expired(self, player: str, now: int) -> list[str]:
        """The player's connections whose token has expired (to close, not to post to)."""
        ...

    def opened(self, player: str, now: int) -> list[tuple[str, int]]:
        """The player's open connections and when each opened (epoch milliseconds)."""
        ...


class SocketAdmissions(ConnectionStore, Protocol):
    """The connections with their admission ledger (``DynamoConnections``): admissions of one
    player's sockets are serial, so the cap holds. ``admit`` raises ``AdmissionLost`` when
    another admission wrote first, ``AccountGone`` when the account was deleted."""

    def ledger(self, player: str, now: int) -> Ledger: ...

    def admit(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        *,
        expires: int | None,
        token_issued: int | None,
        ledger: Ledger,
        evict: list[str],
    ) -> None: ...


class HeldStore(Protocol):
    """The pushes a player's quiet hours hold (``domino.store.quiet.DynamoHeld``)."""

    def hold(self, player: str, game: str, until: int) -> bool:
        """Keep ``game`` among the player's held ones until ``until``; whether ``until`` is
        new to the item (a timer must be set for it)."""
        ...

    def release(self, player: str, now: int) -> Held | None:
        """Take the player's held item if its window ended by ``now`` (one caller gets it);
        None when there is none, or it is still being held."""
        ...


class LiveGameStore(Protocol):
    """Public games in play, newest first (``domino.store.live.DynamoLiveGames``)."""

    def add(self, game_id: str, started_at: int) -> None: ...

    def remove(self, game_id: str, started_at: int) -> None: ...

    def newest(self, limit: int, cursor: str | None) -> tuple[list[str], str | None]: ...


class AnalysisStore(Protocol):
    """Finished matches' analyses (``domino.store.analyses.DynamoAnalyses``)."""

    def get(self, game_id: str) -> dict[str, Any] | None: ...

    def put_once(self, game_id: str, body: dict[str, Any], expires: int) -> bool: ...


class VacationStore(Protocol):
    """A player's vacations (``domino.store.vacations.DynamoVacations``)."""

    def get(self, player: str) -> Vacation: ...

    def put(self, vacation: Vacation) -> Vacation:
        """Write it if the item is still at ``vacation.v`` (else ``VersionConflict``)."""
        ...


class ReachStore(Protocol):
    """A player's devices and open sockets read together (``domino.store.reach``)."""

    def of_player(self, player: str, now: int) -> Reach: ...


class SocketGateway(Protocol):
    """Posting to connections (``domino.notify.websocket``): False when one is gone."""

    def post(self, connection_id: str, data: bytes) -> bool: ...

    def close(self, connection_id: str) -> None:
        """Close the connection (nothing to do if it is gone)."""
        ...

    def is_open(self, connection_id: str) -> bool:
        """Whether the connection is established (False: gone, or its $connect still runs)."""
        ...


class AccountStore(Protocol):
    """Each player's profile and what deleting the account removes
    (``domino.store.accounts.DynamoAccounts``). ``set_name`` raises ``ProfileDeleted`` when the
    account was deleted after ``issued_at`` or is banned, ``rename`` when it was deleted."""

    def profile(self, player: str) -> Profile | None: ...

    def set_name(self, player: str, name: str, at: int, issued_at: int | None) -> None: ...

    def ban(self, player: str, at: int, reason: str) -> None: ...

    def unban(self, player: str) -> bool:
        """False: the player was not banned."""
        ...

    def rename(self, player: str, name: str, at: int) -> None: ...

    def notice_settings(self, player: str) -> NoticeSettings:
        """The notification types the player does not want pushed, and their language."""
        ...

    def set_muted(self, player: str, types: tuple[str, ...], at: int) -> None: ...

    def set_locale(self, player: str, locale: str | None, at: int) -> None: ...

    def set_auto_forced(self, player: str, on: bool, at: int) -> None: ...

    def set_quiet_hours(self, player: str, quiet: str | None, at: int) -> None: ...

    def mark_deleted(self, player: str, at: int) -> None: ...

    def game_ids(self, player: str) -> list[str]:
        """Every game the player has a membership item for."""
        ...

    def erase(self, player: str) -> int:
        """Delete everything of the player's but the profile's tombstone; returns how many."""
        ...


class IdentityProvider(Protocol):
    """The stack's own user pool (``domino.idp.cognito.CognitoUsers``): tokens it issued carry
    ``issuer``, and its users can be deleted (a user already gone is no error)."""

    @property
    def issuer(self) -> str: ...

    def delete_user(self, username: str) -> None: ...


class SafetyStore(Protocol):
    """Blocks, reports and players' existence (``domino.store.safety.DynamoSafety``)."""

    def block(self, blocker: str, player: str, name: str, at: int, limit: int) -> bool: ...

    def unblock(self, blocker: str, player: str) -> bool: ...

    def blocks(
        self, blocker: str, limit: int, cursor: str | None
    ) -> tuple[list[Block], str | None]: ...

    def blocks_among(self, pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which (blocker, blocked) pairs are blocks, in one read."""
        ...

    def known(self, player: str) -> bool: ...

    def report(self, report: Report) -> bool: ...

    def reports_of_day(self, day: str) -> list[Report]:
        """Every report made on ``day`` (``YYYY-MM-DD``), oldest first."""
        ...

    def take_emote_slot(self, player: str, game_id: str, at_ms: int, interval_ms: int) -> int:
        """0: the player may send an emote in the game now; else milliseconds to wait."""
        ...


class RatingStore(Protocol):
    """Ratings per (player, pool), stats, the leaderboard index and histogram
    (store/ratings.py). ``tally`` writes a finished game's changes once (False: counted
    before), raising ``TallyConflict`` when a rating moved since it was read and
    ``PlayerGone`` when a player's account was deleted."""

    def get(self, player: str, pool: str) -> Rating: ...

    def read(self, player: str, pool: str) -> tuple[Rating | None, int | None, str | None]: ...

    def put(self, rating: Rating, at: int) -> None: ...

    def tallied(self, game_id: str) -> bool: ...

    def standing(self, players: Sequence[str], since: int) -> tuple[set[str], dict[str, str]]: ...

    def rename(self, player: str, name: str) -> int: ...

    def tally(
        self,
        game_id: str,
        pool: str,
        at: int,
        ratings: Sequence[RatingChange],
        stats: Sequence[StatsChange],
        alive_since: int,
    ) -> bool: ...

    def player_items(self, player: str) -> PlayerItems: ...

    def top(
        self, pool: str, limit: int, after: dict[str, Any] | None
    ) -> tuple[list[Ranked], dict[str, Any] | None]: ...

    def count_rated(self, pool: str, low: int, high: int | None, cap: int) -> int: ...

    def histogram(self, pool: str) -> dict[int, int]: ...

    def forget(self, player: str) -> int: ...
