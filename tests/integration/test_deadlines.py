"""Turn deadlines through the handlers on DynamoDB Local: the sweep function (its schedule's
event) reads the sharded by_due index, reminds at 80 % and times turns out; the dev clock is
moved on, never slept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from local.invoke import LambdaContext, load_handler
from tests.integration.client import DOS_DEAL, TEMPLATE, Api

pytestmark = pytest.mark.ddb

HOUR = 3600
EVENT = json.loads((Path(__file__).resolve().parents[2] / "events" / "sweep.json").read_text())


def sweep() -> dict[str, Any]:
    (name, props) = next(
        (n, r["Properties"])
        for n, r in TEMPLATE.of_type("AWS::Serverless::Function").items()
        if r["Properties"]["CodeUri"].rstrip("/").endswith("sweep")
    )
    handler = load_handler(TEMPLATE.root / props["CodeUri"], props["Handler"])
    result: dict[str, Any] = handler(EVENT, LambdaContext(function_name=name))
    return result


def notes(api: Api, player: str, game: str) -> list[str]:
    body = api.call("GET", "/me/notifications?limit=100", player=player).ok()
    return [n["type"] for n in reversed(body["notifications"]) if n["game"] == game]


def test_reminder_then_timeout(api: Api, dev_clock: Any) -> None:
    game = api.create(
        "vera", preset="dos-jugadores", players=2, deal=DOS_DEAL, turn_timeout_hours=2
    ).ok(201)["id"]
    view = api.join(game, "wim").ok()  # wim leads 6-6
    assert view["deadline"] is not None and view["turn"] == 1
    sweep()  # whatever other tests left due is swept away first
    dev_clock.advance(0.8 * 2 * HOUR + 1)
    assert sweep()["reminded"] >= 1
    api.drain()
    assert notes(api, "wim", game) == ["reminder"]
    assert sweep()["reminded"] == 0  # once per turn
    dev_clock.advance(0.2 * 2 * HOUR)
    assert sweep()["timed_out"] >= 1
    api.drain()
    after = api.get(game, "vera").ok()
    assert after["turn"] == 0 and after["board"]["tiles"][0]["tile"] == "6-6"
    log = api.moves(game, "vera").ok()["moves"]
    assert log[0]["action"] == "timeout" and log[0]["move"] == "play"
    assert notes(api, "wim", game) == ["reminder", "timeout"]
    assert notes(api, "vera", game)[-1] == "your_turn"


def test_a_move_in_time_is_never_timed_out(api: Api, dev_clock: Any) -> None:
    game = api.create(
        "xavi", preset="dos-jugadores", players=2, deal=DOS_DEAL, turn_timeout_hours=1
    ).ok(201)["id"]
    api.join(game, "yael").ok()
    dev_clock.advance(0.9 * HOUR)
    api.play(game, "yael", "6-6").ok()  # in time: xavi's turn starts, a fresh hour
    dev_clock.advance(0.5 * HOUR)
    sweep()
    log = api.moves(game, "xavi").ok()["moves"]
    assert [m["action"] for m in log] == ["play"]


@pytest.mark.parametrize("hours", [0, 0.009, 720.1, -1, "1", True])
def test_turn_timeout_hours_lies_between_0_01_and_720(api: Api, hours: Any) -> None:
    reply = api.create("zoe", preset="dos-jugadores", players=2, turn_timeout_hours=hours)
    assert (reply.status, reply.code) == (400, "invalid_request"), reply.body
