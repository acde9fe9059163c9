"""The WebSocket API (routes $connect, $disconnect, ping): a player's live connections.

$connect (after the authorizer verified the token) records the connection for the player,
$disconnect forgets it, ``{"action": "ping"}`` is answered ``{"type": "pong"}`` (clients send it
at least every 9 minutes: API Gateway closes idle connections after 10). The notifier posts
``game_changed`` to the connections.
"""

from typing import Any

from domino.api.entry import entry_point
from domino.api.websocket import handle
from domino.api.wiring import live


def on_event(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    return handle(event, live())


handler = entry_point(on_event)
