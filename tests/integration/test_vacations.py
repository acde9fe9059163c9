"""Vacations through the handlers on DynamoDB Local: the budget (30 days in any 365, 422 beyond),
seats shown away, a timed turn frozen and resumed with the time it had left (the dev clock moved
on, never slept), a turn handed over meanwhile frozen whole, faster games running as usual, the
end at ``until`` by the sweep, and a vacation racing the sweeper's timeout."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import Any

import pytest

from tests.integration.client import DOS_DEAL, Api
from tests.integration.test_deadlines import sweep

pytestmark = pytest.mark.ddb

HOUR = 3600
DAY = 24 * HOUR


def now(dev_clock: Any) -> int:
    return int(time.time() + dev_clock.offset())


def iso(at: float) -> str:
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def epoch(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def away(api: Api, player: str, until: float) -> Any:
    return api.call("PUT", "/me/vacation", {"until": iso(until)}, player=player)


def timed_game(api: Api, host: str, guest: str, hours: float) -> str:
    """A two-player game of ``hours`` turns in which ``guest`` (seat 1) is on turn: 6-6."""
    game = api.create(
        host, preset="dos-jugadores", players=2, deal=DOS_DEAL, turn_timeout_hours=hours
    ).ok(201)["id"]
    assert api.join(game, guest).ok()["turn"] == 1
    return str(game)


def test_the_budget_is_30_days_in_24_hour_periods(api: Api, dev_clock: Any) -> None:
    t = now(dev_clock)
    assert api.call("GET", "/me/vacation", player="vio").ok() == {"until": None, "days_left": 30}
    refused = away(api, "vio", t + 30 * DAY + 60)  # a 31st period begun: by a minute, as
    # ``now`` drops the second's fraction and the request comes a moment later (+1 s was flaky)
    assert (refused.status, refused.body["error"]["code"]) == (422, "vacation_exhausted")
    assert refused.body["error"]["params"] == {"days_left": 30}
    past = away(api, "vio", t - 60)
    assert (past.status, past.body["error"]["code"]) == (400, "invalid_request")
    bad = api.call("PUT", "/me/vacation", {"until": "next friday"}, player="vio")
    assert bad.status == 400 and bad.body["error"]["fields"] == ["until"]
    started = away(api, "vio", t + 10 * DAY - 60).ok()  # ten periods, the last one begun
    assert started["days_left"] == 20 and epoch(started["until"]) == t + 10 * DAY - 60
    assert api.call("GET", "/me/vacation", player="vio").ok() == started
    # a longer one moves the end of the same vacation (counted from its start)
    assert away(api, "vio", t + 25 * DAY).ok()["days_left"] == 5
    dev_clock.advance(2 * DAY + HOUR)  # three periods begun
    ended = api.call("DELETE", "/me/vacation", player="vio").ok()
    assert ended == {"until": None, "days_left": 27}  # the periods not begun come back
    assert api.call("DELETE", "/me/vacation", player="vio").ok() == ended  # again: nothing
    over = away(api, "vio", now(dev_clock) + 28 * DAY)
    assert over.status == 422 and over.body["error"]["params"] == {"days_left": 27}


def test_a_frozen_turn_resumes_with_the_time_it_had_left(api: Api, dev_clock: Any) -> None:
    game = timed_game(api, "walo", "xena", 48)
    sweep()  # what other tests left due goes first
    dev_clock.advance(10 * HOUR)  # 38 hours left of xena's turn
    away(api, "xena", now(dev_clock) + 5 * DAY).ok()
    view = api.get(game, "walo").ok()
    assert [s["away"] for s in view["seats"]] == [False, True]
    assert view["deadline"] is None and view["turn"] == 1
    dev_clock.advance(3 * DAY)  # far past the old deadline: nothing is due
    sweep()
    assert api.get(game, "walo").ok()["deadline"] is None
    assert api.moves(game, "walo").ok()["moves"] == []  # not timed out
    back = now(dev_clock)
    api.call("DELETE", "/me/vacation", player="xena").ok()
    view = api.get(game, "walo").ok()
    assert view["seats"][1]["away"] is False
    # the 38 hours it had left (less the seconds between the join and the freeze)
    assert abs(epoch(view["deadline"]) - (back + 38 * HOUR)) <= 10
    dev_clock.advance(37 * HOUR)
    sweep()
    assert [m["action"] for m in api.moves(game, "walo").ok()["moves"]] == []
    dev_clock.advance(2 * HOUR)
    assert sweep()["timed_out"] >= 1
    assert [m["action"] for m in api.moves(game, "walo").ok()["moves"]] == ["timeout"]


def test_a_turn_handed_over_meanwhile_waits_whole_until_the_vacation_ends(
    api: Api, dev_clock: Any
) -> None:
    game = timed_game(api, "yago", "zaza", 24)
    fast = timed_game(api, "abel", "yago", 1)  # yago on turn in a game of hourly turns
    until = now(dev_clock) + 2 * DAY
    away(api, "yago", until).ok()
    assert api.get(fast, "abel").ok()["deadline"] is not None  # faster games run as usual
    api.play(game, "zaza", "6-6").ok()  # yago's turn, while he is away
    view = api.get(game, "zaza").ok()
    assert view["turn"] == 0 and view["deadline"] is None and view["seats"][0]["away"]
    dev_clock.advance(2 * DAY + 60)  # the vacation's end has come; its timer was lost
    assert sweep()["vacations"] >= 1
    assert api.call("GET", "/me/vacation", player="yago").ok()["until"] is None
    view = api.get(game, "zaza").ok()
    t = now(dev_clock)
    assert view["seats"][0]["away"] is False
    assert t + 24 * HOUR - 120 <= epoch(view["deadline"]) <= t + 24 * HOUR
    assert api.get(fast, "abel").ok()["seats"][1]["away"] is False
    assert sweep()["vacations"] == 0  # ended once


def test_a_vacation_racing_the_timeout_never_both_freezes_and_times_out(
    api: Api, dev_clock: Any
) -> None:
    for round_ in range(4):
        host, guest = f"race{round_}a", f"race{round_}b"
        game = timed_game(api, host, guest, 24)
        sweep()
        dev_clock.advance(24 * HOUR + 1)  # guest's turn has just run out
        statuses = at_once(lambda who=guest: away(api, who, now(dev_clock) + 3 * DAY).status, sweep)
        assert statuses[0] == 200
        sweep()  # a timeout the race left to the next sweep
        view = api.get(game, host).ok()
        log = api.moves(game, host).ok()["moves"]
        assert [m["action"] for m in log] == ["timeout"]  # once, as it would have been
        assert view["turn"] == 0 and view["deadline"] is not None  # host's turn runs
        assert view["seats"][1]["away"] is True  # and the mark was not lost
        after = move_on(api, game, host)
        assert after["turn"] == 1 and after["deadline"] is None  # guest's next turn: frozen
        api.call("DELETE", "/me/vacation", player=guest).ok()


def at_once(*calls: Any) -> list[Any]:
    """Run ``calls`` in threads released together; their results, in order."""
    results: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(index: int) -> None:
        start.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def move_on(api: Api, game: str, player: str) -> dict[str, Any]:
    """``player`` ends their turn: draws until a tile fits, then lays it; the view after."""
    view = api.get(game, player).ok()
    while view["turn"] == view["you"]["seat"]:
        legal = view["you"]["legal"]
        if legal:
            view = api.play(game, player, legal[0]["tile"], legal[0].get("end")).ok()
        else:
            view = api.draw(game, player).ok()
    return dict(view)
