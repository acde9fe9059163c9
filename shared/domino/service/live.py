"""Live updates over WebSocket: a player's open connections, and ``game_changed`` sent to them.

API.md: every accepted change of a game is sent to each of its seated players' sockets as
``{"type": "game_changed", "game", "version", "notification"}``, ``notification`` being what the
change notified that player of (as the inbox lists it, in the connection's language) or null.
A message with a notification is sent through the notifier's outbox, once; one without is sent
on each delivery of the change (the stream's retries may repeat it: it only says "reload").
"""

from __future__ import annotations

import json
from typing import Any

from domino.limits import MAX_SOCKETS
from domino.service.game import Clock, system_clock
from domino.service.inbox import note_view
from domino.service.ports import ConnectionStore, SocketGateway
from domino.service.texts import language_of
from domino.service.values import Caller
from domino.store.inbox import Note

PONG = json.dumps({"type": "pong"})
#: a connection younger than this that refuses a post is still opening, not gone
OPENING_SECONDS = 10


class LiveUpdates:
    """The WebSocket function's side: connections open and close."""

    def __init__(
        self,
        connections: ConnectionStore,
        clock: Clock = system_clock,
        sockets: SocketGateway | None = None,
    ) -> None:
        self.connections = connections
        self.clock = clock
        self.sockets = sockets  # to close a player's oldest connections past MAX_SOCKETS

    def connect(self, caller: Caller, connection_id: str) -> None:
        """Record the connection; past MAX_SOCKETS, the player's oldest ones are closed (every
        change is posted to each open one, so their number bounds what a change costs)."""
        at = self.clock()
        self.connections.add(caller.player, connection_id, at, caller.locale)
        opened = sorted(self.connections.opened(caller.player, int(at)), key=lambda c: (c[1], c[0]))
        others = [c for c in opened if c[0] != connection_id]
        for oldest, _at in others[: max(0, len(opened) - MAX_SOCKETS)]:
            self.connections.remove(caller.player, oldest)
            if self.sockets is not None:
                self.sockets.close(oldest)

    def disconnect(self, caller: Caller, connection_id: str) -> None:
        self.connections.remove(caller.player, connection_id)


class LiveChannel:
    """The notifier's channel to open sockets."""

    def __init__(
        self, connections: ConnectionStore, sockets: SocketGateway, clock: Clock = system_clock
    ) -> None:
        self.connections = connections
        self.sockets = sockets
        self.clock = clock

    def send(self, note: Note) -> bool:
        """A change that notified ``note.player``: the notification rides along."""
        return self._post(note.player, note.game, note.version, note)

    def changed(self, player: str, game: str, version: int) -> None:
        """A change that notified ``player`` of nothing."""
        self._post(player, game, version, None)

    def _post(self, player: str, game: str, version: int, note: Note | None) -> bool:
        """True when the player had a connection to post to."""
        connections = self.connections.of_player(player, int(self.clock()))
        for connection_id, locale in connections:
            notification: dict[str, Any] | None = None
            if note is not None:
                notification = note_view(note, False, language_of(locale))
            message = {
                "type": "game_changed",
                "game": game,
                "version": version,
                "notification": notification,
            }
            if not self.sockets.post(connection_id, json.dumps(message).encode()):
                # gone without a $disconnect; but a connection still opening is refused too
                # (its $connect has not answered yet): that one stays
                now = int(self.clock())
                self.connections.remove(player, connection_id, now - OPENING_SECONDS)
        return bool(connections)
