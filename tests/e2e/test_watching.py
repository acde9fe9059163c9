"""Watching a public game over the local runtime's WebSocket: the watcher gets the public view at
once and every change after it (never a hand, drawn tiles hidden), the view counts watchers,
private games and one's own are refused, unwatching or closing the socket stops it, and a socket
watches a bounded number of games."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.test_live import WITHIN, changes_of, players, receive, sockets, ws_url

pytestmark = pytest.mark.e2e
__all__ = ["sockets"]  # the fixture, imported for this module's tests


def ask(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; the first answer that is not a game change."""
    ws.send(json.dumps(message))
    answers = receive(ws, lambda ms: any(m["type"] != "game_changed" for m in ms))
    return next(m for m in answers if m["type"] != "game_changed")


def new_game(rt: Runtime, host: str, guest: str, **options: Any) -> str:
    body = {"preset": "dos-jugadores", "players": 2, "seed": 11, **options}
    status, _, game = rt.request("POST", "/games", body, token=host)
    assert status == 201, game
    status, _, joined = rt.request("POST", f"/games/{game['id']}/join", {}, token=guest)
    assert status == 200, joined
    return str(game["id"])


def move(rt: Runtime, game: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The player on turn makes their first legal move; the view after it."""
    view = rt.request("GET", f"/games/{game}", token=tokens[0])[2]
    token = tokens[view["turn"]]
    you = rt.request("GET", f"/games/{game}", token=token)[2]["you"]
    if you["legal"]:
        status, _, out = rt.request("POST", f"/games/{game}/play", you["legal"][0], token=token)
    else:
        action = "draw" if you["can_draw"] else "pass"
        status, _, out = rt.request("POST", f"/games/{game}/{action}", {}, token=token)
    assert status == 200, out
    return dict(out)


def arrival(ws: Any, game: str, version: int) -> list[dict[str, Any]]:
    """The changes ``ws`` gets of ``game`` at ``version``, once it has one."""
    arrived = changes_of(game, version)
    return [m for m in receive(ws, lambda ms: any(arrived(m) for m in ms)) if arrived(m)]


def test_a_watcher_sees_every_change_of_a_public_game_and_no_hand(
    runtime: Runtime, sockets: Any
) -> None:
    (_, alice), (_, bob), (_, carla) = players(runtime, "Alice", "Bob", "Carla")
    game = new_game(runtime, alice, bob)
    seats = {runtime.request("GET", f"/games/{game}", token=t)[2]["you"]["seat"]: t for t in (
        alice, bob)}  # fmt: skip
    watcher = sockets(ws_url(runtime, carla))
    watching = ask(watcher, {"action": "watch", "game": game})
    assert watching["type"] == "watching" and watching["game"] == game
    assert "you" not in watching["view"] and watching["view"]["watchers"] == 1
    assert ask(watcher, {"action": "watch", "game": game})["type"] == "watching"  # again: one
    assert runtime.request("GET", f"/games/{game}", token=alice)[2]["watchers"] == 1
    for _ in range(6):  # plays and draws: a drawn tile is never shown to the watcher
        out = move(runtime, game, seats)
        (change,) = arrival(watcher, game, out["version"])
        public = runtime.request("GET", f"/games/{game}", token=carla)[2]
        assert change["view"] == public and "you" not in change["view"]
        assert change["notification"] is None
        assert all("tile" not in m for m in change["moves"] if m["action"] == "draw")
    # a watcher acts as nobody: the game refuses its moves
    status, _, refused = runtime.request("POST", f"/games/{game}/draw", {}, token=carla)
    assert status == 403 and refused["error"]["code"] == "not_a_player"
    assert ask(watcher, {"action": "unwatch", "game": game}) == {"type": "unwatched", "game": game}
    assert runtime.request("GET", f"/games/{game}", token=alice)[2]["watchers"] == 0
    out = move(runtime, game, seats)
    watcher.send(json.dumps({"action": "ping"}))
    after = receive(watcher, lambda ms: any(m["type"] == "pong" for m in ms))
    assert not any(changes_of(game, out["version"])(m) for m in after)  # no longer sent


def test_what_cannot_be_watched_is_refused_with_a_code(runtime: Runtime, sockets: Any) -> None:
    (_, dora), (_, eli), (_, fer) = players(runtime, "Dora", "Eli", "Fer")
    private = new_game(runtime, dora, eli, private=True)
    public = new_game(runtime, dora, eli)
    ws = sockets(ws_url(runtime, fer))
    assert ask(ws, {"action": "watch", "game": private})["code"] == "not_watchable"
    assert ask(ws, {"action": "watch", "game": "NoSuchGame00000000000x"})["code"] == (
        "game_not_found"
    )
    assert ask(ws, {"action": "watch", "game": 12})["code"] == "invalid_request"
    own = sockets(ws_url(runtime, dora))
    assert ask(own, {"action": "watch", "game": public})["code"] == "playing"
    games = [public] + [new_game(runtime, dora, eli) for _ in range(9)]
    for game in games:
        assert ask(ws, {"action": "watch", "game": game})["type"] == "watching"
    one_more = new_game(runtime, dora, eli)
    assert ask(ws, {"action": "watch", "game": one_more})["code"] == "too_many_watched"
    ws.close()  # $disconnect: every game it watched loses it
    deadline = time.monotonic() + WITHIN
    while any(runtime.request("GET", f"/games/{g}", token=dora)[2]["watchers"] for g in games):
        assert time.monotonic() < deadline, "the closed socket still counts as a watcher"
        time.sleep(0.1)
