"""Safety among strangers on DynamoDB Local: blocks (the bound, both directions in one read),
reports stored once a day, who counts as a known player, the emotes' limiter under a race, the
nudge mark (once per turn under a race, one ``nudge`` notification through the stream, also
when it is delivered again) and muted types in the notifier's reach query."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from domino.api import wiring
from domino.service.gestures import Gestures
from domino.service.safety import Safety
from domino.store.reach import DynamoReach
from domino.store.safety import BlockLimit, DynamoSafety, Report, new_report_id

from tests.integration.client import Api

pytestmark = pytest.mark.ddb


def fresh(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def store(api: Api) -> DynamoSafety:
    return DynamoSafety(wiring.table())


def test_a_block_is_kept_once_and_bounded(store: DynamoSafety) -> None:
    alice, bob, carol, dan = (fresh(n) for n in ("alice", "bob", "carol", "dan"))
    assert store.block(alice, bob, "Bob", 100, limit=2) is True
    assert store.block(alice, bob, "Bob", 200, limit=2) is False  # again: the first stands
    assert store.block(alice, carol, "Carol", 300, limit=2) is True
    with pytest.raises(BlockLimit):
        store.block(alice, dan, "Dan", 400, limit=2)
    assert store.unblock(alice, bob) is True
    assert store.unblock(alice, bob) is False
    assert store.block(alice, dan, "Dan", 500, limit=2) is True  # lifting one made room
    found, following = store.blocks(alice, 10, None)
    assert following is None
    assert sorted((b.player, b.since) for b in found) == sorted([(carol, 300), (dan, 500)])


def test_blocked_between_reads_both_directions_in_one_request(
    store: DynamoSafety, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol = (fresh(n) for n in ("alice", "bob", "carol"))
    safety = Safety(store)
    store.block(bob, alice, "Alice", 1, limit=10)
    calls: list[str] = []
    client = store.table.client
    real = client.batch_get_item

    def counted(**kwargs: Any) -> Any:
        calls.append("batch_get_item")
        return real(**kwargs)

    monkeypatch.setattr(client, "batch_get_item", counted)
    assert safety.blocked_between(alice, bob) and safety.blocked_between(bob, alice)
    assert not safety.blocked_between(alice, carol)
    assert calls == ["batch_get_item"] * 3
    assert safety.blockers_of(alice, [alice, bob, carol]) == {bob}
    assert safety.blockers_of(bob, [alice, bob, carol]) == set()


def report(reporter: str, player: str, reason: str, at: int) -> Report:
    return Report(new_report_id(), reporter, player, reason, at)


def test_the_same_report_within_24_hours_is_stored_once(store: DynamoSafety) -> None:
    alice, bob = fresh("alice"), fresh("bob")
    at = 1_790_000_000
    assert store.report(report(bob, alice, "name", at))
    assert not store.report(report(bob, alice, "name", at + 24 * 3600 - 1))
    assert store.report(report(bob, alice, "cheating", at + 60))  # another reason
    assert store.report(report(bob, alice, "name", at + 24 * 3600))  # a day on: a new one
    from domino.store.safety import day_of

    kept = [r for r in store.reports_of_day(day_of(at)) if r.reporter == bob]
    kept += [r for r in store.reports_of_day(day_of(at + 24 * 3600)) if r.reporter == bob]
    assert sorted((r.reason, r.at) for r in kept) == [
        ("cheating", at + 60),
        ("name", at),
        ("name", at + 24 * 3600),
    ]


def test_a_known_player_is_one_with_something_stored(api: Api, store: DynamoSafety) -> None:
    ana = fresh("ana")
    assert not store.known(ana)
    api.create(ana, preset="dos-jugadores", players=2).ok(201)
    assert store.known(ana)
    api.call("DELETE", "/me", player=ana, claims={"iat": str(int(time.time()) - 60)}).ok(204)
    assert not store.known(ana)  # a deleted account's tombstone


def test_one_emote_slot_among_racing_requests(store: DynamoSafety) -> None:
    alice, game = fresh("alice"), "EmoteRaceGame01"
    now = 1_790_000_000_000
    results: list[int] = []
    barrier = threading.Barrier(8)

    def take() -> None:
        barrier.wait()
        results.append(store.take_emote_slot(alice, game, now, 3000))

    threads = [threading.Thread(target=take) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results)[0] == 0 and results.count(0) == 1, results
    assert all(0 < r <= 3000 for r in results if r)
    assert store.take_emote_slot(alice, game, now + 2999, 3000) == 1
    assert store.take_emote_slot(alice, game, now + 3000, 3000) == 0
    assert store.take_emote_slot(alice, "OtherGame0001", now + 3001, 3000) == 0


def test_racing_nudges_mark_the_turn_once_and_notify_once(api: Api) -> None:
    alice, bob = fresh("alice"), fresh("bob")
    game = api.create(alice, preset="dos-jugadores", players=2).ok(201)["id"]
    view = api.join(game, bob).ok()
    api.drain()
    off_turn = [alice, bob][1 - view["turn"]]
    on_turn = [alice, bob][view["turn"]]
    later = wiring.service().commands.writes.clock() + 13 * 3600  # the games' clock (dev mode's)
    gestures = Gestures(
        wiring.service().store, wiring.safety(), wiring.connection_store(), None, lambda: later
    )
    from domino.service.values import Caller

    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def nudge() -> None:
        barrier.wait()
        try:
            gestures.nudge(Caller(off_turn, "Off"), game, lambda: None)
            outcomes.append("nudged")
        except Exception as err:  # the losers' answer
            outcomes.append(getattr(err, "code", repr(err)))

    threads = [threading.Thread(target=nudge) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["already_nudged"] * 3 + ["nudged"], outcomes
    record = wiring.service().store.load(game)
    assert record is not None and record.nudged == record.version == view["version"]
    api.drain()
    api.drain()  # nothing new: the mark notifies once

    def nudges(player: str) -> list[dict[str, Any]]:
        notes = api.call("GET", "/me/notifications", player=player).ok()["notifications"]
        return [n for n in notes if n["type"] == "nudge"]

    (note,) = nudges(on_turn)
    assert note["game"] == game and note["version"] == view["version"]
    assert nudges(off_turn) == []
    # the stream delivers the mark's change again: still one notification
    old = wiring.table().client.get_item(
        TableName=wiring.table().name,
        Key={"pk": {"S": f"GAME#{game}"}, "sk": {"S": "GAME"}},
        ConsistentRead=True,
    )["Item"]
    before = dict(old)
    before.pop("nudged")
    assert wiring.notifier().on_change(before, old) == 0
    assert len(nudges(on_turn)) == 1


def test_muted_types_come_with_the_reach_query(api: Api) -> None:
    ana = fresh("ana")
    reach = DynamoReach(wiring.table())
    assert reach.of_player(ana, int(time.time())).muted == ()
    api.call("PATCH", "/me", {"mute": ["your_turn", "nudge"]}, player=ana).ok()
    assert reach.of_player(ana, int(time.time())).muted == ("your_turn", "nudge")
    api.call("PATCH", "/me", {"mute": []}, player=ana).ok()
    assert reach.of_player(ana, int(time.time())).muted == ()
