"""bench/matching.py's invariants over the table after a burst of tickets: what it must catch
(a player in two games, a seat missing, a ticket naming another game, a marker out of step)."""

from __future__ import annotations

from typing import Any, NamedTuple

from bench_modules import load_bench

matching = load_bench("matching")


class Seat(NamedTuple):
    player: str | None


class Record(NamedTuple):
    seats: list[Seat]
    status: str = "playing"


def ticket(status: str, game: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"status": {"S": status}}
    if game:
        item["game"] = {"S": game}
    return item


def posted(*players: str) -> list[dict[str, Any]]:
    return [{"player": p, "status": 201, "code": None} for p in players]


def test_a_clean_burst_breaks_nothing() -> None:
    tickets = {"a": ticket("matched", "g1"), "b": ticket("matched", "g1"), "c": ticket("searching")}
    games = {"g1": Record([Seat("a"), Seat("b")])}
    assert matching.check_load(posted("a", "b", "c"), tickets, {"c"}, games) == []


def test_a_player_in_two_games_and_a_missing_seat_are_caught() -> None:
    tickets = {"a": ticket("matched", "g1"), "b": ticket("matched", "g1"), "c": ticket("matched")}
    games = {
        "g1": Record([Seat("a"), Seat("b")]),
        "g2": Record([Seat("a"), Seat(None)]),
        "g3": Record([Seat("c"), Seat("c")]),
    }
    broken = matching.check_load(posted("a", "b", "c"), tickets, set(), games)
    assert any("a is seated in 2 games" in line for line in broken)
    assert any(line.startswith("game g2: seats") for line in broken)
    assert any(line.startswith("game g3: seats") for line in broken)  # one player twice
    assert any("a's ticket names another game" in line for line in broken)


def test_a_marker_out_of_step_and_a_lost_ticket_are_caught() -> None:
    tickets = {"a": ticket("searching"), "b": ticket("cancelled")}
    broken = matching.check_load(posted("a", "b", "z"), tickets, {"b"}, {})
    assert any(line.startswith("a: ticket searching") for line in broken)
    assert any(line.startswith("b: ticket cancelled") for line in broken)
    assert any(line.startswith("z: a 201 ticket") for line in broken)
