"""Quick match's store and matcher on DynamoDB Local: matchers racing for the same tickets make
one game of them; an expired ticket tells its holder once, however often the change comes."""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter
from typing import Any

import pytest
from domino.api import wiring
from domino.service.matchmaking import QuickMatch
from domino.service.values import Caller, NewTicket
from domino.store.ratings import DynamoRatings
from domino.store.records import to_attributes
from domino.store.tickets import (
    LEASE_SECONDS,
    LIFETIME_SECONDS,
    DynamoTickets,
    Ticket,
    ticket_item,
)

from tests.integration.client import Api

pytestmark = pytest.mark.ddb


def matcher(clock: list[float]) -> QuickMatch:
    table = wiring.table()
    return QuickMatch(
        DynamoTickets(table),
        DynamoRatings(table),
        lambda: clock[0],
        name_of=lambda caller: caller.name,
    )


def ask(hours: float, players: int = 2, **more: Any) -> NewTicket:
    preset = "dos-jugadores" if players == 2 else "clasico"
    return NewTicket(preset, players, wait_s=None, turn_timeout_hours=hours, **more)


def test_matchers_racing_for_the_same_tickets_make_one_game_of_them(ddb_endpoint: str) -> None:
    clock = [time.time()]
    quick = matcher(clock)
    hours = 500 + secrets.randbelow(10_000) / 100
    tag = secrets.token_hex(3)
    # eight tickets stored without matching (as if eight requests were in flight at once)
    ids = []
    for i in range(8):
        ticket_id, caller = f"race{tag}{i:02d}xx", Caller(f"race{tag}{i}", f"P{i}")
        ticket = Ticket(
            ticket_id, caller.player, caller.name, "searching", "clasico", 4, False,
            hours, "auto", None, 1000, int(clock[0] * 1000) + i,
        )  # fmt: skip
        quick.tickets.open(ticket)
        ids.append(ticket_id)
    queue = quick.tickets.load(ids[0]).queue  # type: ignore[union-attr]
    made: list[str] = []
    lock = threading.Lock()

    def run() -> None:
        games = quick.match_queue(queue)
        with lock:
            made.extend(games)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 2 and len(set(made)) == 2, made
    tickets = [quick.tickets.load(i) for i in ids]
    assert all(t is not None and t.status == "matched" for t in tickets)
    assert Counter(t.game for t in tickets if t) == {made[0]: 4, made[1]: 4}
    store = wiring.service().store
    for game in made:
        record = store.load(game)
        assert record is not None and record.status == "playing"
        players = [s.player for s in record.seats]
        assert len(set(players)) == 4 and None not in players
        for player in players:
            assert player is not None and game in wiring.account_store().game_ids(player)


def test_an_expired_ticket_tells_its_holder_once(api: Api, ddb_endpoint: str) -> None:
    clock = [time.time()]
    quick = matcher(clock)
    player = f"lonely{secrets.token_hex(3)}"
    caller = Caller(player, "Lonely")
    _, ticket_id = quick.open(caller, ask(600 + secrets.randbelow(10_000) / 100))
    searching = quick.tickets.load(ticket_id)
    api.drain()
    clock[0] += LIFETIME_SECONDS - 10
    quick.on_timer(ticket_id)
    assert quick.read(caller, ticket_id)["status"] == "searching"
    clock[0] += 10
    quick.on_timer(ticket_id)
    expired = quick.tickets.load(ticket_id)
    assert expired is not None and expired.status == "expired"
    assert expired.version == 2 and quick.read(caller, ticket_id)["window"] is not None
    api.drain()
    notes = api.call("GET", "/me/notifications", player=player).ok()["notifications"]
    assert [(n["type"], n["game"], n["version"]) for n in notes] == [
        ("match_expired", ticket_id, 2)
    ]
    assert searching is not None
    old, new = to_attributes(ticket_item(searching)), to_attributes(ticket_item(expired))
    assert wiring.notifier().on_change(old, new) == 0  # the stream's redelivery: nothing new
    notes = api.call("GET", "/me/notifications", player=player).ok()["notifications"]
    assert len(notes) == 1
    # the search ended: another may start
    _, again = quick.open(caller, ask(1.5))
    assert again != ticket_id
    quick.cancel(caller, again)


def test_one_matcher_holds_a_queue_and_looks_again_for_every_ask(ddb_endpoint: str) -> None:
    tickets = DynamoTickets(wiring.table())
    queue, now = f"lease-{secrets.token_hex(4)}", int(time.time())
    seen = tickets.take_queue(queue, "first", now)
    assert seen is not None
    assert tickets.take_queue(queue, "second", now) is None  # held: counted as an ask
    again = tickets.hand_back(queue, "first", seen, now)
    assert again is not None and again > seen  # asked meanwhile: keeps it for one more pass
    assert tickets.take_queue(queue, "third", now) is None
    last = tickets.hand_back(queue, "first", again, now)
    assert last is not None
    assert tickets.hand_back(queue, "first", last, now) is None  # nobody asked: let go
    assert tickets.take_queue(queue, "fourth", now) is not None


def test_a_dead_matchers_queue_is_taken_over_once_its_lease_lapses(ddb_endpoint: str) -> None:
    tickets = DynamoTickets(wiring.table())
    queue, now = f"lease-{secrets.token_hex(4)}", int(time.time())
    seen = tickets.take_queue(queue, "dead", now)
    assert seen is not None
    assert tickets.take_queue(queue, "early", now + LEASE_SECONDS) is None
    later = now + LEASE_SECONDS + 1
    assert tickets.take_queue(queue, "heir", later) is not None
    # the dead one's late hand-back neither lets go of nor keeps the heir's lease
    assert tickets.hand_back(queue, "dead", seen, later) is None
    assert tickets.renew_queue(queue, "dead", later) is None
    assert tickets.take_queue(queue, "another", later) is None
    tickets.let_go(queue, "heir")
    assert tickets.take_queue(queue, "another", later) is not None
