"""Gestures at the table (docs/api.md, "Emotes" and "Safety among strangers"): emotes and nudges.

**Emotes** (``POST /games/{id}/emotes``): a seated person of a game being played sends one of the
fixed ``EMOTES``; it is posted at once to the open sockets of every seated player (the sender's
too) as ``{"type": "emote", "game", "seat", "emote"}``, never stored, pushed or put in the inbox,
and never to a player who blocks the sender (``Safety.blockers_of``). At most one per
``EMOTE_INTERVAL_MS`` per player and game: a conditional put of a small TTL item
(store/safety.py) is the limiter, so two containers cannot both let one through.

**Nudges** (``POST /games/{id}/nudge``): a seated person who is not on turn reminds the player on
turn once they have had it for ``NUDGE_AFTER_SECONDS`` (12 hours), or 80 % of the turn's time in a
game with a turn timeout, whichever comes first. The nudge is a mark on the game item (``nudged``
= the version, as the sweeper's ``reminded``), a conditional update that leaves the version
alone; the stream's notifier turns it into one ``nudge`` notification (inbox, push, socket)
exactly once per turn. Again for the same turn is 409 ``already_nudged``; too early is 429
``throttled`` with ``Retry-After`` (docs/decisions.md, "Nudges"); the player on turn nudging is
400. "Had the turn since" is the game's last change (a draw keeps the turn and starts it anew).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from domino.engine.errors import GameNotInProgress, InvalidInput
from domino.service.clock import Clock, system_clock
from domino.service.errors import AlreadyNudged, NotAPlayer, Throttled, Unavailable
from domino.service.loaded import Game, load_game
from domino.service.notices import seated
from domino.service.ports import ConnectionStore, GameStore, SocketGateway
from domino.service.safety import Safety
from domino.service.values import Caller, SendEmote
from domino.store.records import GameRecord

#: one emote per player and game this often (docs/api.md: at most one per 3 s)
EMOTE_INTERVAL_MS = 3000
#: a nudge is allowed once the player on turn has had it this long...
NUDGE_AFTER_SECONDS = 12 * 3600
#: ...or this share of the turn's time, in a game with a turn timeout
NUDGE_SHARE = 0.8
#: reads of a game that moved on under a nudge before giving up (503)
NUDGE_ATTEMPTS = 4


def turn_started(record: GameRecord) -> int:
    """When the player on turn got it: the last change of the game."""
    hours = record.config.get("turn_timeout_hours")
    if record.deadline is not None and hours:
        return int(record.deadline - hours * 3600)
    return record.updated_at


def nudge_time(record: GameRecord) -> int:
    """When the player on turn may be nudged."""
    wait = float(NUDGE_AFTER_SECONDS)
    hours = record.config.get("turn_timeout_hours")
    if hours:
        wait = min(wait, NUDGE_SHARE * hours * 3600)
    return turn_started(record) + math.ceil(wait)


def _seat_of(game: Game, caller: Caller) -> int:
    seat = game.record.seat_of(caller.player)
    if seat is None:
        raise NotAPlayer("You have no seat in this game.")
    return seat


class Gestures:
    def __init__(
        self,
        store: GameStore,
        safety: Safety,
        connections: ConnectionStore,
        sockets: SocketGateway | None,
        clock: Clock = system_clock,
    ) -> None:
        self.store = store
        self.safety = safety
        self.connections = connections
        self.sockets = sockets  # None: no WebSocket API (an emote reaches nobody)
        self.clock = clock

    def emote(self, caller: Caller, game_id: str, parse: Callable[[], SendEmote]) -> dict[str, Any]:
        """Send an emote to the table; returns the message sent. Checks in the contract's
        order: 404, 400 (``parse``), 403, 422, then 429."""
        game = load_game(self.store, game_id)
        command = parse()
        seat = _seat_of(game, caller)
        record = game.record
        if record.status != "playing":
            raise GameNotInProgress("The game is not in progress.")
        now = self.clock()
        wait_ms = self.safety.store.take_emote_slot(
            caller.player, record.id, int(now * 1000), EMOTE_INTERVAL_MS
        )
        if wait_ms:
            raise Throttled(
                "One emote every {seconds} seconds.",
                retry_after=math.ceil(wait_ms / 1000),
                seconds=EMOTE_INTERVAL_MS // 1000,
            )
        message = {"type": "emote", "game": record.id, "seat": seat, "emote": command.emote}
        players = seated(record)
        blockers = self.safety.blockers_of(caller.player, players)
        data = json.dumps(message).encode()
        if self.sockets is not None:
            for player in players:
                if player in blockers:
                    continue  # never reaches a player who blocks the sender
                for connection_id, _locale in self.connections.of_player(player, int(now)):
                    self.sockets.post(connection_id, data)  # a socket gone: the notifier sweeps
        return message

    def nudge(self, caller: Caller, game_id: str, check_body: Callable[[], None]) -> None:
        """Nudge the player on turn (the module says when, and what answers otherwise)."""
        game = load_game(self.store, game_id)
        check_body()
        for _attempt in range(NUDGE_ATTEMPTS):
            seat = _seat_of(game, caller)
            record = game.record
            if record.status != "playing":
                raise GameNotInProgress("The game is not in progress.")
            if game.turn == seat:
                raise InvalidInput("You cannot nudge yourself: it is your turn.")
            if record.nudged == record.version:
                raise AlreadyNudged()
            now = int(self.clock())
            allowed = nudge_time(record)
            if record.turn_player is None or now < allowed:
                # a bot on turn moves at once: there is nobody to nudge yet
                wait = max(1, allowed - now)
                raise Throttled(
                    "Too early to nudge: try again in {seconds} seconds.",
                    retry_after=wait,
                    seconds=wait,
                )
            current = self.store.mark_nudged(record, seat, now)
            if current is None:
                return
            if current.version == record.version and current.nudged == record.version:
                raise AlreadyNudged()  # another seat's nudge came first
            game = load_game(self.store, game_id)  # the game moved on: a new turn to judge
        raise Unavailable()
