"""Turn deadlines over HTTP on the local runtime: the dev clock moves time on, the sweeper
(its schedule, or POST /dev/sweep at once) times the late turn out, the late player hears of it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.test_notifications import wait_for

pytestmark = pytest.mark.e2e

DEAL = {
    "hands": [
        ["6-6", "0-1", "1-3", "2-5", "3-3", "4-5", "5-5"],
        ["0-0", "0-2", "1-1", "1-2", "2-2", "2-3", "0-3"],
    ]
}


def timed_game(runtime: Runtime, **options: Any) -> tuple[str, str, dict[str, Any]]:
    """Ana's and Ben's tokens and the view of their game with 36 s turns, Ana on turn."""
    suffix = uuid.uuid4().hex[:8]
    ana, ben = runtime.token(f"ana{suffix}"), runtime.token(f"ben{suffix}")
    body = {"preset": "dos-jugadores", "players": 2, "deal": DEAL, "turn_timeout_hours": 0.01}
    status, _, game = runtime.request("POST", "/games", {**body, **options}, token=ana)
    assert status == 201, game
    status, _, view = runtime.request("POST", f"/games/{game['id']}/join", {}, token=ben)
    assert status == 200 and view["turn"] == 0, view  # ana leads 6-6 within 36 s, or else
    return ana, ben, view


def test_a_late_turn_is_played_for_the_player(runtime: Runtime) -> None:
    ana, ben, game = timed_game(runtime)
    status, _, clock = runtime.request("POST", "/dev/clock", {"advance": 40})
    assert status == 200 and clock["offset"] >= 40
    status, _, swept = runtime.request("POST", "/dev/sweep")
    assert status == 200 and set(swept) == {"SweepFunction"}, swept
    status, _, after = runtime.request("GET", f"/games/{game['id']}", token=ben)
    assert after["turn"] == 1 and after["board"]["tiles"][0]["tile"] == "6-6"
    # ben joined, the game started, her turn, then: her turn timed out
    inbox = wait_for(runtime, ana, 4, kind="timeout")
    assert "timeout" in {n["type"] for n in inbox["notifications"]}


@pytest.mark.parametrize("body", [{"advance": -1}, {"advance": "60"}, {}, [], {"advance": True}])
def test_the_clock_only_goes_forward(runtime: Runtime, body: object) -> None:
    status, _, answer = runtime.request("POST", "/dev/clock", body)
    assert (status, answer["error"]["code"]) == (400, "invalid_request")
