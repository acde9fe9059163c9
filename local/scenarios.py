"""The games events/ files are about, made through the handlers before an event is replayed.

An event about a game (``events/play.json``: bob plays 6-6 in game ``EventPlayGame0001``) is
legal only in a game in the right state. ``prepare(harness, event_file, event)`` creates that
game under the event's own id, through the same handlers, so that the event's request is the
next legal one for its caller: ``make invoke`` does it before invoking, and tests/test_events.py
before replaying every file. Dev mode only: it deals ``DOS_DEAL``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from local.harness import Harness
from local.invoke import LambdaContext, load_handler

# hand 1 of dos-jugadores: bob holds 6-6 and leads it; alice holds no 6, and the boneyard's
# top tile is 4-6
DOS_DEAL: dict[str, list[Any]] = {
    "hands": [
        ["0-0", "0-1", "1-1", "2-3", "3-4", "4-5", "5-5"],
        ["6-6", "0-6", "1-6", "2-6", "3-6", "2-2", "3-3"],
    ],
    "boneyard": [
        "4-6",
        "5-6",
        "0-2",
        "0-3",
        "0-4",
        "0-5",
        "1-2",
        "1-3",
        "1-4",
        "1-5",
        "2-4",
        "2-5",
        "3-5",
        "4-4",
    ],
}


def send(harness: Harness, player: str, method: str, path: str, body: Any = None) -> Any:
    """The request as ``player`` (a JWT authorizer's claims); its body, asserting success."""
    claims = {"sub": player, "name": player.capitalize()}
    reply = harness.call(method, path, body, claims=claims)
    assert 200 <= reply.status < 300, (method, path, reply.status, reply.body)
    return reply.body


def waiting_game(harness: Harness, game: str, **options: Any) -> None:
    """alice created a two-player game; the second seat is open."""
    body = {"preset": "dos-jugadores", "players": 2, "deal": DOS_DEAL, **options}
    with fixed_game_id(game):
        created = send(harness, "alice", "POST", "/games", body)
    assert created["id"] == game


def dealt_game(harness: Harness, game: str, **options: Any) -> None:
    """bob took the second seat: the hand is dealt and bob is to lead 6-6."""
    waiting_game(harness, game, **options)
    send(harness, "bob", "POST", f"/games/{game}/join", {})


def led_game(harness: Harness, game: str, **options: Any) -> None:
    """bob led 6-6: alice, holding no 6, must draw (or pass, when nothing may be drawn)."""
    dealt_game(harness, game, **options)
    send(harness, "bob", "POST", f"/games/{game}/play", {"tile": "6-6"})


def invited_game(harness: Harness, game: str) -> None:
    """alice created a two-player game with its second seat reserved for bob."""
    waiting_game(harness, game, invite=["bob"])


def finished_game(harness: Harness, game: str) -> None:
    """alice and bob played a one-hand match to its end."""
    dealt_game(harness, game, rules={"match": "single"})
    for _ in range(200):
        view = send(harness, "alice", "GET", f"/games/{game}")
        if view["status"] != "playing":
            return
        player = ("alice", "bob")[view["turn"]]
        you = send(harness, player, "GET", f"/games/{game}")["you"]
        if you["legal"]:
            tile, end = you["legal"][0]["tile"], you["legal"][0]["end"]
            send(harness, player, "POST", f"/games/{game}/play", {"tile": tile, "end": end})
        else:
            action = "draw" if you["can_draw"] else "pass"
            send(harness, player, "POST", f"/games/{game}/{action}", {})
    raise AssertionError("the match does not end")


def notified(harness: Harness, _game: str) -> None:
    """alice's inbox holds what events/notify.json tells her: bob joined her game."""
    function = harness.template.resources["NotifyFunction"]["Properties"]
    handler = load_handler(harness.template.root / function["CodeUri"], function["Handler"])
    event = json.loads((harness.template.root / "events" / "notify.json").read_text())
    result = handler(event, LambdaContext(function_name="NotifyFunction"))
    assert result == {"batchItemFailures": []}, result


def account_in_use(harness: Harness, _game: str) -> None:
    """trent, whose account events/account.json deletes, waits for a player in one game and
    plays a bot in another."""
    send(harness, "trent", "POST", "/games", {"preset": "dos-jugadores", "players": 2})
    body = {"preset": "dos-jugadores", "players": 2, "bots": 1}
    send(harness, "trent", "POST", "/games", body)


def offered_the_lead(harness: Harness, game: str) -> None:
    """alice, offered the lead of a cubano game by its lot, may cede it to her partner."""
    body = {"preset": "cubano", "players": 4, "bots": 3, "deal": {"lot": 0}}
    with fixed_game_id(game):
        created = send(harness, "alice", "POST", "/games", body)
    assert created["id"] == game


def a_week_ahead() -> dict[str, Any]:
    """``PUT /me/vacation``'s body: away for a week from now (the handlers' clock)."""
    from domino.api.wiring import service
    from domino.store.records import iso

    return {"until": iso(int(service().commands.writes.clock()) + 7 * 24 * 3600)}


def on_vacation(harness: Harness, _game: str) -> None:
    """peggy, whose vacation events/vacation.delete.json ends early, is away for a week."""
    send(harness, "peggy", "PUT", "/me/vacation", a_week_ahead())


#: events whose body holds a time that must lie ahead when it is replayed: the body sent
#: instead of the file's (whose time is only an example of the shape)
TIMED_BODIES: dict[str, Callable[[], dict[str, Any]]] = {"vacation.json": a_week_ahead}


#: per events/ file, what must exist before it is replayed
def reported_player(harness: Harness, _game: str) -> None:
    """alice, whom events/safety.report.json reports, waits for a player in a game of hers."""
    waiting_game(harness, "EventReportGame01")


SETUP: dict[str, Callable[[Harness, str], None]] = {
    "join.json": waiting_game,  # bob joins
    "get.json": dealt_game,  # alice reads her view
    "play.json": dealt_game,  # bob leads 6-6
    "leave.json": dealt_game,  # alice leaves, a bot takes her seat
    "draw.json": led_game,  # alice draws
    "moves.json": led_game,  # alice reads the log
    "pass.json": lambda harness, game: led_game(harness, game, rules={"draw": "none"}),
    "cede.json": offered_the_lead,  # alice cedes the lead to her partner
    "notifications.read.json": notified,  # alice reads what bob's join told her
    "account.json": account_in_use,  # trent deletes his account
    "gestures.json": dealt_game,  # alice sends good_game to the table
    "premoves.json": dealt_game,  # alice answers bob's 6-6 in advance
    "premoves.delete.json": dealt_game,  # alice forgets her pre-moves
    "safety.report.json": reported_player,  # bob reports alice's name
    "decline.json": invited_game,  # bob declines
    "rematch.json": finished_game,  # alice asks for a rematch
    "moves.record.json": finished_game,  # alice reads the match's record
    "moves.analysis.json": finished_game,  # alice reads the match's analysis
    "analysis.json": lambda harness, _game: finished_game(harness, "EventAnalysedGame1"),
    "vacation.delete.json": on_vacation,  # peggy comes back early
}


@contextlib.contextmanager
def fixed_game_id(game: str) -> Iterator[None]:
    """Games created meanwhile get ``game`` as their id (ids are random, events' are fixed)."""
    with mock.patch("domino.service.loaded.secrets.token_urlsafe", lambda _n=16: game):
        yield


def prepare(harness: Harness, event_file: Path, event: dict[str, Any]) -> str | None:
    """Make what ``event_file``'s event needs; the scenario's first line (None: nothing). An
    event with a time that must lie ahead gets its body made now (``TIMED_BODIES``)."""
    timed = TIMED_BODIES.get(event_file.name)
    if timed is not None:
        event["body"] = json.dumps(timed())
    setup = SETUP.get(event_file.name)
    if setup is None:
        return None
    setup(harness, (event.get("pathParameters") or {}).get("id", ""))
    return (setup.__doc__ or "").strip().splitlines()[0] if setup.__doc__ else event_file.name
