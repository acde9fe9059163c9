"""``domino watch``: a game redrawn live from the WebSocket's ``game_changed`` messages.

The socket only says *that* a game changed (docs/api.md#live-updates); the view itself comes
from ``GET /games/{id}``, so what is drawn is always the caller's real view. The socket is
opened before the first view is read, so no change between the two is missed. By itself the
watch only shows (moves are made with ``domino play`` from another terminal); given ``on_turn``
(``domino watch --play``) it asks for a move whenever the caller is on turn. A caller with no
seat watches as a spectator: the socket asks for the game's changes (``{"action": "watch"}``,
public games only) and the public view is drawn.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

from domino_cli.api import Api, ApiError, NetworkError, game_path

#: API Gateway closes a socket idle for 10 minutes; the contract asks for a ping every 9
PING_EVERY_SECONDS = 300.0
OPEN_TIMEOUT_SECONDS = 10.0


class WatchTimedOut(Exception):
    """``--timeout`` passed before ``--count`` changes arrived."""


def watch(
    api: Api,
    websocket_url: str,
    game_id: str,
    show: Callable[[dict[str, Any]], None],
    *,
    count: int | None = None,
    timeout: float | None = None,
    on_ready: Callable[[], None] = lambda: None,
    on_turn: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
) -> int:
    """Shows the game, then again after each change of it, until ``count`` changes were shown,
    the match is over, or ``timeout`` seconds passed. Returns how many changes were shown.

    ``on_turn(view)``, called while the caller is on turn, makes a move and returns the view it
    answered (shown at once; its own ``game_changed`` is then not shown again), or returns None
    to keep watching without a move."""
    separator = "&" if "?" in websocket_url else "?"
    url = f"{websocket_url}{separator}{urlencode({'token': api.token or ''})}"
    deadline = None if timeout is None else time.monotonic() + timeout
    shown = 0
    try:
        with connect(url, open_timeout=OPEN_TIMEOUT_SECONDS) as socket:
            view = api.get(game_path(game_id))
            show(view)
            seen = int(view["version"])
            if "you" not in view:  # no seat here: a spectator's changes come when asked for
                socket.send(json.dumps({"action": "watch", "game": game_id}))
            on_ready()
            view, seen = play_while_on_turn(view, seen, show, on_turn)
            last_ping = time.monotonic()
            while view["status"] != "finished" and (count is None or shown < count):
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    if count is None:
                        return shown
                    raise WatchTimedOut(f"{shown} of {count} changes within {timeout:g} s")
                if now - last_ping >= PING_EVERY_SECONDS:
                    socket.send(json.dumps({"action": "ping"}))
                    last_ping = now
                wait = PING_EVERY_SECONDS - (now - last_ping)
                if deadline is not None:
                    wait = min(wait, deadline - now)
                try:
                    message = json.loads(socket.recv(timeout=max(wait, 0.01)))
                except TimeoutError:
                    continue
                if isinstance(message, dict) and message.get("type") == "error":
                    code = str(message.get("code") or "error")
                    raise ApiError(0, code, str(message.get("message") or ""))
                if not is_change_of(message, game_id, seen):
                    continue
                view = api.get(game_path(game_id))
                seen = max(seen, int(view["version"]))
                show(view)
                shown += 1
                view, seen = play_while_on_turn(view, seen, show, on_turn)
    except InvalidStatus as error:
        # the URL is never shown: it carries the token
        status = error.response.status_code
        hint = " (run `domino login`)" if status == 401 else ""
        raise NetworkError(f"the WebSocket refused the connection: HTTP {status}{hint}") from None
    except (OSError, WebSocketException) as error:
        raise NetworkError(f"the WebSocket failed: {type(error).__name__}") from None
    return shown


def on_turn_now(view: dict[str, Any]) -> bool:
    you = view.get("you") or {}
    return view.get("status") == "playing" and "seat" in you and view.get("turn") == you["seat"]


def play_while_on_turn(
    view: dict[str, Any],
    seen: int,
    show: Callable[[dict[str, Any]], None],
    on_turn: Callable[[dict[str, Any]], dict[str, Any] | None] | None,
) -> tuple[dict[str, Any], int]:
    """Asks for moves while the caller is on turn (a draw may leave them on turn)."""
    while on_turn is not None and on_turn_now(view):
        answered = on_turn(view)
        if answered is None:
            break
        view, seen = answered, max(seen, int(answered["version"]))
        show(view)
    return view, seen


def is_change_of(message: Any, game_id: str, seen: int) -> bool:
    """A ``game_changed`` of this game newer than the view on screen (a redelivered or older
    message would redraw the same view)."""
    return (
        isinstance(message, dict)
        and message.get("type") == "game_changed"
        and message.get("game") == game_id
        and int(message.get("version") or 0) > seen
    )
