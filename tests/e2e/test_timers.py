"""Turn timers on the local runtime, the same path as deployed (docs/api.md#turn-deadlines): the
notifier sets each turn's timer on the SQS delay queue (moto's server), the timers function
fires it, so a 36 s turn is reminded at 80 % and timed out at its deadline, long before the
minutely sweep's first run (60 s after the start). bench/timers.py measures the delays."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from local.process import Runtime
from tests.e2e.test_deadlines import timed_game
from tests.e2e.test_notifications import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.long(90)]


@pytest.fixture(scope="module")
def fresh_runtime() -> Iterator[tuple[Runtime, float]]:
    """A runtime of this module's own: its sweep's first run is 60 s after its start."""
    from local.ddb import free_port

    rt = Runtime(free_port(), free_port(), None)
    rt.start()
    try:
        yield rt, time.monotonic()
    finally:
        rt.stop()


def epoch(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def test_a_36_second_turn_is_reminded_then_timed_out_before_any_sweep(
    fresh_runtime: tuple[Runtime, float],
) -> None:
    runtime, started = fresh_runtime
    ana, ben, view = timed_game(runtime)
    game = view
    first_sweep = started + 60
    assert time.monotonic() + 36 < first_sweep - 5, "the runtime took too long to start"

    inbox = wait_for(runtime, ana, 3, within=first_sweep - time.monotonic(), kind="timeout")
    kinds = {n["type"] for n in inbox["notifications"]}
    assert {"reminder", "timeout"} <= kinds, kinds
    assert time.monotonic() < first_sweep  # no sweep has run: the timers did it
    status, _, after = runtime.request("GET", f"/games/{game['id']}", token=ben)
    assert status == 200 and after["turn"] == 1 and after["board"]["tiles"][0]["tile"] == "6-6"
    status, _, moves = runtime.request("GET", f"/games/{game['id']}/moves", token=ben)
    assert status == 200, moves
    timeout = next(m for m in moves["moves"] if m["action"] == "timeout")
    assert epoch(timeout["at"]) >= epoch(view["deadline"])  # never early


def test_a_late_move_under_forfeit_is_refused_and_changes_nothing(runtime: Runtime) -> None:
    """The move lands after the deadline but before the timeout is applied. The runtime's
    minutely sweep can apply it in between (a bot then holds the seat: 403); that is seen in
    the move log and the round is tried again on a new game, never counted as a pass."""
    for _ in range(3):
        ana, ben, view = timed_game(runtime, on_timeout="forfeit")
        game = view
        status, _, _ = runtime.request("POST", "/dev/clock", {"advance": 40})
        assert status == 200
        status, _, refused = runtime.request(
            "POST", f"/games/{game['id']}/play", {"tile": "6-6"}, token=ana
        )
        if status == 403:  # the sweep came first: its timeout must be in the log
            _, _, moves = runtime.get_retrying(f"/games/{game['id']}/moves", token=ben)
            assert any(m["action"] == "timeout" for m in moves["moves"]), (refused, moves)
            continue
        assert (status, refused["error"]["code"]) == (422, "turn_timed_out"), refused
        status, _, same = runtime.request("GET", f"/games/{game['id']}", token=ana)
        if same["version"] != view["version"]:
            # the turn's own timer applied the timeout since (and a bot holds the seat): the
            # game's first move is that timeout, never the refused play
            _, _, moves = runtime.get_retrying(f"/games/{game['id']}/moves", token=ben)
            assert moves["moves"][0]["action"] == "timeout", moves
        else:
            assert same["board"]["tiles"] == [], same
        return
    pytest.fail("the sweep applied the timeout before the late move three times running")


def test_a_restart_sets_the_timers_it_lost_again(tmp_path: Path) -> None:
    """moto's queue lives in memory: a restarted runtime sets the turn timers of the games it
    kept again, so a 36 s turn begun before the restart still times out on time, before the new
    run's first sweep."""
    from local.ddb import free_port

    runtime = Runtime(free_port(), free_port(), tmp_path / "data")
    runtime.start()
    try:
        ana, _, view = timed_game(runtime)
        wait_for(runtime, ana, 2)  # the join's change is read: its timer is set
        time.sleep(1.5)  # and the stream's checkpoint written past it (no replay sets it again)
    finally:
        runtime.stop()
    started = time.monotonic()
    runtime.start()
    try:
        first_sweep = started + 60
        inbox = wait_for(runtime, ana, 3, within=first_sweep - time.monotonic(), kind="timeout")
        assert "timeout" in {n["type"] for n in inbox["notifications"]}, inbox
        assert time.monotonic() < first_sweep  # the timer did it, not the sweep
        status, _, after = runtime.request("GET", f"/games/{view['id']}", token=ana)
        assert status == 200 and after["turn"] == 1
    finally:
        runtime.stop()
