"""Quick match over HTTP on the local runtime (docs/api.md#quick-match): tickets, the matcher on
arrival and on the tickets' timers (the SQS delay queue, as deployed), bots after ``wait_s``,
and what each player is told."""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.test_notifications import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.long(35)]

TICKET_FIELDS = {
    "id",
    "status",
    "preset",
    "players",
    "ranked",
    "turn_timeout_hours",
    "on_timeout",
    "rating",
    "window",
    "game",
    "created_at",
    "expires_at",
}


def own_queue() -> float:
    """A turn timeout no other test asks for: tickets meet only in the same queue."""
    return round(100 + secrets.randbelow(60_000) / 100, 2)


def people(runtime: Runtime, count: int, tag: str | None = None) -> list[str]:
    tag = tag or secrets.token_hex(4)
    return [runtime.token(f"qm{tag}{i}", f"Player {i}") for i in range(count)]


def open_ticket(runtime: Runtime, token: str, **body: Any) -> tuple[int, dict[str, str], Any]:
    return runtime.request("POST", "/match/tickets", body, token=token)


def wait_matched(runtime: Runtime, token: str, ticket: str, within: float) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        status, _, body = runtime.request("GET", f"/match/tickets/{ticket}", token=token)
        assert status == 200, body
        if body["status"] != "searching" or time.monotonic() > deadline:
            return dict(body)
        time.sleep(0.25)


def test_two_newcomers_are_matched_into_one_dealt_game(runtime: Runtime) -> None:
    ana, ben = people(runtime, 2)
    hours = own_queue()
    ask = {"preset": "dos-jugadores", "players": 2, "wait_s": None, "turn_timeout_hours": hours}
    status, headers, first = open_ticket(runtime, ana, **ask)
    assert status == 201, first
    assert set(first) == TICKET_FIELDS
    assert first["status"] == "searching" and first["ranked"] is True and first["game"] is None
    assert first["rating"] == 1000 and first["window"] >= 100
    assert headers["Location"] == f"/match/tickets/{first['id']}"

    status, _, second = open_ticket(runtime, ben, **ask)
    assert status == 201, second
    assert second["status"] == "matched" and second["game"]  # matched on arrival
    mine = wait_matched(runtime, ana, first["id"], 5)
    assert mine["status"] == "matched" and mine["game"] == second["game"]

    status, _, view = runtime.request("GET", f"/games/{mine['game']}", token=ana)
    assert status == 200 and view["status"] == "playing", view
    assert sorted(s["name"] for s in view["seats"]) == ["Player 0", "Player 1"]
    assert view["turn_timeout_hours"] == hours
    for token in (ana, ben):
        inbox = wait_for(runtime, token, 1, kind="match_found")
        found = [n for n in inbox["notifications"] if n["type"] == "match_found"]
        assert [n["game"] for n in found] == [mine["game"]], inbox


def test_one_searching_ticket_a_person(runtime: Runtime) -> None:
    (ana,) = people(runtime, 1)
    ask = {"preset": "clasico", "players": 4, "wait_s": None, "turn_timeout_hours": own_queue()}
    status, _, first = open_ticket(runtime, ana, **ask)
    assert status == 201, first
    status, _, again = open_ticket(runtime, ana, **{**ask, "ranked": False})
    assert status == 409 and again["error"]["code"] == "already_searching", again
    assert again["ticket"]["id"] == first["id"]
    assert runtime.request("DELETE", f"/match/tickets/{first['id']}", token=ana)[0] == 204
    status, _, cancelled = runtime.request("GET", f"/match/tickets/{first['id']}", token=ana)
    assert status == 200 and cancelled["status"] == "cancelled"
    assert runtime.request("DELETE", f"/match/tickets/{first['id']}", token=ana)[0] == 204
    status, _, later = open_ticket(runtime, ana, **ask)  # cancelled: a new search may start
    assert status == 201 and later["id"] != first["id"]
    assert runtime.request("DELETE", f"/match/tickets/{later['id']}", token=ana)[0] == 204


def test_a_matched_ticket_cannot_be_cancelled_and_is_nobody_elses(runtime: Runtime) -> None:
    ana, ben, eve = people(runtime, 3)
    ask = {"preset": "dos-jugadores", "players": 2, "ranked": False, "wait_s": None}
    ask["turn_timeout_hours"] = own_queue()
    _, _, first = open_ticket(runtime, ana, **ask)
    _, _, second = open_ticket(runtime, ben, **ask)
    assert second["status"] == "matched", second
    status, _, refused = runtime.request("DELETE", f"/match/tickets/{first['id']}", token=ana)
    assert status == 409 and refused["error"]["code"] == "already_matched", refused
    assert refused["game"] == second["game"]
    for method in ("GET", "DELETE"):
        status, _, body = runtime.request(method, f"/match/tickets/{first['id']}", token=eve)
        assert status == 404 and body["error"]["code"] == "not_found", body
    status, _, body = runtime.request("GET", "/match/tickets/nope", token=eve)
    assert status == 404 and body["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "nope", "players": 2},
        {"preset": "dos-jugadores", "players": 9},
        {"preset": "dos-jugadores"},
        {"preset": "dos-jugadores", "players": 2, "wait_s": -1},
        {"preset": "dos-jugadores", "players": 2, "wait_s": 86_401},
        {"preset": "dos-jugadores", "players": 2, "ranked": "yes"},
        {"preset": "dos-jugadores", "players": 2, "on_timeout": "later"},
        {"preset": "dos-jugadores", "players": 2, "turn_timeout_hours": 0},
        {"preset": "dos-jugadores", "players": 2, "rules": {"match": "single"}},
    ],
)
def test_a_bad_ticket_is_400_and_opens_nothing(runtime: Runtime, body: dict[str, Any]) -> None:
    (ana,) = people(runtime, 1)
    status, _, answer = open_ticket(runtime, ana, **body)
    assert status == 400 and answer["error"]["code"] == "invalid_request", answer
    # nothing was opened: a good ticket opens
    status, _, ticket = open_ticket(runtime, ana, preset="clasico", players=4, wait_s=None)
    assert status == 201, ticket
    assert runtime.request("DELETE", f"/match/tickets/{ticket['id']}", token=ana)[0] == 204


def test_a_ticket_needs_a_caller(runtime: Runtime) -> None:
    status, _, body = runtime.request("POST", "/match/tickets", {"preset": "x"})
    assert status == 401 and body["error"]["code"] == "unauthorized"


def test_wait_s_zero_seats_bots_at_once_in_an_unrated_game(runtime: Runtime) -> None:
    (ana,) = people(runtime, 1)
    hours = own_queue()
    status, _, ticket = open_ticket(
        runtime, ana, preset="parejas-111", players=4, wait_s=0, turn_timeout_hours=hours
    )
    assert status == 201 and ticket["status"] == "matched", ticket
    status, _, view = runtime.request("GET", f"/games/{ticket['game']}", token=ana)
    assert status == 200 and view["status"] == "playing"
    bots = [s for s in view["seats"] if s.get("bot")]
    assert len(bots) == 3, view["seats"]


def test_after_wait_s_the_timer_fills_the_empty_seats_with_bots(runtime: Runtime) -> None:
    ana, ben = people(runtime, 2)
    ask = {"preset": "clasico", "players": 4, "wait_s": 3, "turn_timeout_hours": own_queue()}
    _, _, first = open_ticket(runtime, ana, **ask)
    _, _, second = open_ticket(runtime, ben, **ask)
    assert first["status"] == second["status"] == "searching"
    matched = wait_matched(runtime, ana, first["id"], 3 + 10 + 5)  # within 10 s of wait_s
    assert matched["status"] == "matched", matched
    assert wait_matched(runtime, ben, second["id"], 1)["game"] == matched["game"]
    status, _, view = runtime.request("GET", f"/games/{matched['game']}", token=ben)
    assert status == 200
    assert sum(1 for s in view["seats"] if s.get("bot")) == 2, view["seats"]


def test_racing_tickets_make_whole_games_and_nobody_twice(runtime: Runtime) -> None:
    """Eight people at once in a four-seat queue: two games, each seat one person, and every
    ticket in exactly one of them."""
    tokens = people(runtime, 8)
    ask = {"preset": "clasico", "players": 4, "ranked": False, "wait_s": None}
    ask["turn_timeout_hours"] = own_queue()
    answers: list[Any] = [None] * len(tokens)

    def open_for(index: int) -> None:
        answers[index] = open_ticket(runtime, tokens[index], **ask)

    threads = [threading.Thread(target=open_for, args=(i,)) for i in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tickets = []
    for (status, _, body), token in zip(answers, tokens, strict=True):
        assert status == 201, body
        tickets.append(wait_matched(runtime, token, body["id"], 10))
    games: dict[str, int] = {}
    for ticket in tickets:
        assert ticket["status"] == "matched", ticket
        games[ticket["game"]] = games.get(ticket["game"], 0) + 1
    assert sorted(games.values()) == [4, 4], games
    for game, token in {t["game"]: tok for t, tok in zip(tickets, tokens, strict=True)}.items():
        _, _, view = runtime.request("GET", f"/games/{game}", token=token)
        players = [s["player"] for s in view["seats"]]
        assert len(set(players)) == 4 and None not in players, view["seats"]


def test_a_restart_looks_again_at_the_tickets_it_kept(tmp_path: Any) -> None:
    """moto's timer queue lives in memory: a restarted runtime looks at once at every searching
    ticket it kept, so a ticket's bots still come after its wait_s."""
    from local.ddb import free_port

    rt = Runtime(free_port(), free_port(), tmp_path / "data")
    rt.start()
    try:
        (ana,) = people(rt, 1)
        status, _, ticket = open_ticket(
            rt, ana, preset="dos-jugadores", players=2, wait_s=6, turn_timeout_hours=own_queue()
        )
        assert status == 201 and ticket["status"] == "searching", ticket
    finally:
        rt.stop()
    rt.start()
    try:
        matched = wait_matched(rt, ana, ticket["id"], 6 + 15)
        assert matched["status"] == "matched", matched
    finally:
        rt.stop()


def test_a_blocked_player_is_never_matched_with_the_blocker(runtime: Runtime) -> None:
    tag = secrets.token_hex(4)
    ana, ben, cid = people(runtime, 3, tag)
    assert runtime.request("PUT", f"/me/blocks/qm{tag}1", token=ana)[0] == 204
    ask = {"preset": "dos-jugadores", "players": 2, "wait_s": None}
    ask["turn_timeout_hours"] = own_queue()
    _, _, first = open_ticket(runtime, ana, **ask)
    status, _, second = open_ticket(runtime, ben, **ask)
    assert status == 201 and second["status"] == "searching", second  # not with ana
    _, _, third = open_ticket(runtime, cid, **ask)
    assert third["status"] == "matched", third  # cid takes the oldest ticket: ana's
    assert wait_matched(runtime, ana, first["id"], 5)["game"] == third["game"]
    assert runtime.request("DELETE", f"/match/tickets/{second['id']}", token=ben)[0] == 204
