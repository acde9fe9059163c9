"""Live updates over WebSocket: a player's open connections, and ``game_changed`` sent to them.

docs/api.md: every accepted change of a game is sent to each of its seated players' sockets as
``{"type": "game_changed", "game", "version", "notification"}``, ``notification`` being what the
change notified that player of (as the inbox lists it, in the connection's language) or null.
A message with a notification is sent through the notifier's outbox, once; one without is sent
on each delivery of the change (the stream's retries may repeat it: it only says "reload").
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from domino.engine import decode
from domino.engine.errors import InvalidInput
from domino.limits import MAX_SOCKETS
from domino.service.clock import Clock, system_clock
from domino.service.errors import AccountDeleted
from domino.service.inbox import note_view
from domino.service.loaded import GAME_ID, Game
from domino.service.ports import (
    ConnectionStore,
    GameStore,
    SocketAdmissions,
    SocketGateway,
    WatcherStore,
)
from domino.service.texts import language_of
from domino.service.values import Caller
from domino.service.views import move_list
from domino.store.connections import AdmissionLost, token_expired
from domino.store.errors import AccountGone, Unavailable
from domino.store.inbox import Note
from domino.store.records import GameRecord
from domino.store.watchers import Watcher

if TYPE_CHECKING:
    from domino.service.watching import Watching

PONG = json.dumps({"type": "pong"})
#: a message's JSON without the spaces after "," and ":", as the HTTP answers are: a view is
#: about a tenth smaller, and a live phone gets one with every change
COMPACT = (",", ":")
#: API Gateway's largest WebSocket message is 128 KB; docs/api.md sends a view up to 32 KB
MAX_MESSAGE_BYTES = 32 * 1024
#: games one resume may ask about
MAX_RESUMED = 100
PlayerLocale = Callable[[str, str | None], str | None]
#: a connection younger than this that refuses a post is still opening, not gone
OPENING_SECONDS = 10
#: admissions of one player's sockets racing each other: how often one reads and tries again,
#: and the most it pauses before a try (times the tries so far)
ADMIT_ATTEMPTS = 40
ADMIT_PAUSE_SECONDS = 0.01
#: posts to a game's watchers at once (up to MAX_WATCHERS of them a change)
_WATCHER_POSTS = ThreadPoolExecutor(16, thread_name_prefix="watchers")


class LiveUpdates:
    """The WebSocket function's side: connections open and close."""

    def __init__(
        self,
        connections: SocketAdmissions,
        clock: Clock = system_clock,
        sockets: SocketGateway | None = None,
        games: GameStore | None = None,
        watching: Watching | None = None,
    ) -> None:
        self.connections = connections
        self.clock = clock
        self.sockets = sockets  # to close a player's oldest connections past MAX_SOCKETS
        self.games = games  # what ``resume`` reads
        self.watching = watching  # ``watch`` and ``unwatch`` (None: not offered)

    def resume(self, caller: Caller, connection_id: str, known: object) -> int:
        """``{"action": "resume", "games": {id: version}}`` after a reconnect: one
        ``game_changed`` for each game that has moved on since the version the client has,
        with the caller's view and the moves made since that version (``missed``). How many
        were sent; ``InvalidInput`` for a malformed ask."""
        if (
            not isinstance(known, dict)
            or len(known) > MAX_RESUMED
            or not all(
                isinstance(g, str) and GAME_ID.fullmatch(g) and type(v) is int and v >= 0
                for g, v in known.items()
            )
        ):
            raise InvalidInput(
                "games is an object of at most {max} game ids and the versions held.",
                max=MAX_RESUMED,
            )
        if self.games is None or self.sockets is None:
            return 0
        sent = 0
        for game_id, version in known.items():
            record = self.games.load(game_id)
            if record is None or record.version <= version:
                continue
            game = Game(record)
            view = game.seen_by(caller.player).view
            moves = missed(game, caller.player, version)
            self.sockets.post(
                connection_id, game_changed(game_id, record.version, None, view, moves)
            )
            sent += 1
        return sent

    def connect(self, caller: Caller, connection_id: str, expires: int | None = None) -> bool:
        """Admit the connection (False: refused, the player's MAX_SOCKETS sockets all still
        opening); past MAX_SOCKETS the player's oldest established ones are closed (every
        change is posted to each open one, so their number bounds what a change costs).

        Admissions of one player are serial (``SocketAdmissions.admit``): the connection's item
        is written with the ledger and the evictions, or not at all, and a connection whose
        $connect still runs (the management API does not know it yet) is never evicted. A token
        issued before the account's deletion is refused (``AccountDeleted``)."""
        for attempt in range(ADMIT_ATTEMPTS):
            at = self.clock()
            ledger = self.connections.ledger(caller.player, int(at))
            others = [e for e in ledger.entries if e[0] != connection_id]
            excess = len(others) + 1 - MAX_SOCKETS
            evict = [c for c, _ in itertools.islice(self._evictable(others, at), max(0, excess))]
            if len(evict) < excess:
                return False  # the cap is full of sockets still opening: this one waits
            try:
                self.connections.admit(
                    caller.player,
                    connection_id,
                    at,
                    caller.locale,
                    expires=expires,
                    token_issued=caller.issued_at or 0,
                    ledger=ledger,
                    evict=evict,
                )
            except AdmissionLost:
                time.sleep(random.uniform(0, ADMIT_PAUSE_SECONDS * (attempt + 1)))
                continue
            except AccountGone:
                raise AccountDeleted() from None
            for gone in evict:
                if self.sockets is not None:
                    self.sockets.close(gone)
            return True
        raise Unavailable()

    def _evictable(self, entries: list[tuple[str, int]], at: float) -> Iterator[tuple[str, int]]:
        """The connections that may be closed for a new one, oldest first: established ones,
        and those gone without a $disconnect; not one whose $connect still runs."""
        for connection_id, opened_ms in entries:
            if self.sockets is None or self.sockets.is_open(connection_id):
                yield connection_id, opened_ms
            elif at * 1000 - opened_ms > OPENING_SECONDS * 1000:
                yield connection_id, opened_ms  # not there, and too old to be opening

    def ping(self, caller: Caller, connection_id: str, expires: int | None = None) -> str | None:
        """``pong``; None when the connection's token has expired: it is closed instead."""
        if expires is not None and token_expired(expires):
            self.connections.remove(caller.player, connection_id)
            if self.sockets is not None:
                self.sockets.close(connection_id)
            return None
        return PONG

    def disconnect(self, caller: Caller, connection_id: str) -> None:
        if self.watching is not None:  # before its item goes: it lists what it watched
            self.watching.forget(caller.player, connection_id)
        self.connections.remove(caller.player, connection_id)

    def close_all(self, player: str) -> None:
        """Close every open socket of the player (their account is being deleted)."""
        if self.sockets is None:
            return
        now = int(self.clock())
        found = {c for c, _ in self.connections.ledger(player, now).entries}  # consistent
        found |= {c for c, _ in self.connections.of_player(player, now)}
        found |= set(self.connections.expired(player, now))
        for connection_id in sorted(found):
            self.sockets.close(connection_id)  # one still opening never opens


class LiveChannel:
    """The notifier's channel to open sockets."""

    #: a repeat (a redelivered change) is the same message: the same version and notification
    #: id, which the client has seen; leaving it unmarked saves the outbox write a notification
    marks_sent = False

    def __init__(
        self,
        connections: ConnectionStore,
        sockets: SocketGateway,
        clock: Clock = system_clock,
        locale: PlayerLocale | None = None,
        watchers: WatcherStore | None = None,
    ) -> None:
        self.connections = connections
        self.sockets = sockets
        self.clock = clock
        self.watchers = watchers  # the sockets watching games (None: nobody watches)
        #: (player, a token's locale) -> the player's locale (service/reach.py player_locale)
        self.locale: PlayerLocale = locale or (lambda _player, token_locale: token_locale)
        self.change: ChangeViews | None = None

    def begin(self, old: GameRecord | None, new: GameRecord) -> None:
        """A change of a game: its sockets get views of ``new`` and the moves since ``old``."""
        self.change = ChangeViews(old, new)

    def reaches(self, note: Note) -> bool:
        return True  # asked only of channels that mark (pushes): a socket's repeat is harmless

    def watched(self) -> int:
        """Post the change begun to the game's watchers: the public view and moves, built once,
        to each; a watcher whose socket is gone is dropped. Nothing is read for a game the item
        says nobody watches (the common case); else one Query of its watch items."""
        change = self.change
        if change is None or self.watchers is None or change.new.watchers <= 0:
            return 0
        new, old = change.new, change.old
        if new.config.get("private") or (old is not None and new.version <= old.version):
            return 0
        watchers = self.watchers.of_game(new.id)
        if not watchers:
            return 0
        encoded = game_changed(new.id, new.version, None, *change.public())
        store = self.watchers

        def post(watcher: Watcher) -> None:
            if not self.sockets.post(watcher.connection_id, encoded):
                store.unwatch(new.id, watcher.player, watcher.connection_id)

        # the posts wait on API Gateway, not on this process: many at once
        list(_WATCHER_POSTS.map(post, watchers))
        return len(watchers)

    def send(self, note: Note) -> bool:
        """A change that notified ``note.player``: the notification rides along."""
        return self._post(note.player, note.game, note.version, note)

    def changed(self, player: str, game: str, version: int) -> None:
        """A change that notified ``player`` of nothing."""
        self._post(player, game, version, None)

    def _post(self, player: str, game: str, version: int, note: Note | None) -> bool:
        """True when the player had a connection to post to. A connection whose token has
        expired is posted nothing and closed (HTTP refuses that token already)."""
        for ended in self.connections.expired(player, int(self.clock())):
            self.connections.remove(player, ended)
            self.sockets.close(ended)
        connections = self.connections.of_player(player, int(self.clock()))
        notification: dict[str, Any] | None = None
        if note is not None and connections:
            # one language on every socket, as in the inbox: a socket's token speaks only when
            # the player chose none and has no device that does
            token_locale = next((locale for _, locale in connections if locale), None)
            notification = note_view(note, False, language_of(self.locale(player, token_locale)))
        encoded = self._message(player, game, version, notification) if connections else b""
        for connection_id, _ in connections:
            if not self.sockets.post(connection_id, encoded):
                # gone without a $disconnect; but a connection still opening is refused too
                # (its $connect has not answered yet): that one stays
                now = int(self.clock())
                self.connections.remove(player, connection_id, now - OPENING_SECONDS)
        return bool(connections)

    def _message(
        self, player: str, game: str, version: int, notification: dict[str, Any] | None
    ) -> bytes:
        """``game_changed`` with the player's view of the change and the moves since the
        previous version (docs/api.md "What a phone is sent"); ``view`` and ``moves`` null
        past MAX_MESSAGE_BYTES (the client reads the game) or when no image is at hand."""
        change = self.change
        if change is not None and change.new.id == game and change.new.version == version:
            return game_changed(game, version, notification, *change.of(player))
        return game_changed(game, version, notification)


def missed(game: Game, player: str, version: int) -> list[dict[str, Any]] | None:
    """The move records made since ``version``, as GET /games/{id}/moves lists them to
    ``player``; None where the item no longer says (a version older than its MARKS last writes,
    or moves of a hand gone to the archive): ``GET /games/{id}/moves?after=`` the last ``n`` the
    client holds lists them."""
    first = game.record.next_n_at(version)
    if first is None or (game.match is not None and first < game.match.first_held_n):
        return None
    return moves_after(game, player, first - 1)


def moves_after(game: Game, player: str | None, after: int) -> list[dict[str, Any]]:
    """The held moves numbered above ``after`` as GET /games/{id}/moves lists them to
    ``player`` (None: to no seat)."""
    if game.match is None:
        return []
    seat = game.record.seat_of(player) if player is not None else None
    return move_list(game.match.moves(seat, after), seat)


def game_changed(
    game: str,
    version: int,
    notification: dict[str, Any] | None,
    view: dict[str, Any] | None = None,
    moves: list[dict[str, Any]] | None = None,
) -> bytes:
    """The ``game_changed`` message; ``view`` and ``moves`` left null past MAX_MESSAGE_BYTES
    (the client reads the game)."""
    message: dict[str, Any] = {
        "type": "game_changed",
        "game": game,
        "version": version,
        "notification": notification,
        "view": view,
        "moves": moves,
    }
    encoded = json.dumps(message, separators=COMPACT).encode()
    if len(encoded) > MAX_MESSAGE_BYTES:
        message["view"] = message["moves"] = None
        encoded = json.dumps(message, separators=COMPACT).encode()
    return encoded


class ChangeViews:
    """What one change's sockets are sent: the game decoded once from the new image, each
    player's view and moves built once (a player with several sockets gets the same bytes)."""

    def __init__(self, old: GameRecord | None, new: GameRecord) -> None:
        self.old = old
        self.new = new
        self._game: Game | None = None
        self._seen: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}

    def public(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The view and moves of someone with no seat (a watcher)."""
        return self.of(None)

    def of(self, player: str | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``player``'s view, as GET /games/{id} answers it, and the moves since the old image,
        as GET /games/{id}/moves would list them to that player (None: to no seat)."""
        key = player or ""
        if key not in self._seen:
            if self._game is None:
                self._game = Game(self.new)
            game = self._game
            after = 0
            if self.old is not None and self.old.state:
                after = decode(self.old.state).next_n - 1
            self._seen[key] = (game.seen_by(player).view, moves_after(game, player, after))
        return self._seen[key]
