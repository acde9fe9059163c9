"""Turn timers on in-memory stores, a fake delay queue and an injected clock (never slept): the
stream sets a timer at each new due time, a timer further off than SQS's 15 minutes hops, a due
one reminds or times out through the sweeper's path, a stale one does nothing, and a late move
under ``forfeit`` is refused."""

from __future__ import annotations

import json

import pytest
from domino.engine.errors import DominoError
from domino.service.timers import TURN, InvalidTimer, Timer, Timers, TurnTimers
from domino.service.values import MakeMove
from domino.store.records import to_attributes
from domino.store.timers import MAX_DELAY_SECONDS

from tests.unit.test_deadlines import BOB, HOUR, Clock, Table


class Queue:
    """A delay queue that keeps what it was sent: (body, delay)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []

    def send(self, body: str, delay_seconds: int) -> None:
        self.sent.append((body, delay_seconds))


class Timed(Table):
    """The deadlines' table with a timer queue, its stream read by ``TurnTimers``."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = Queue()
        sweeper = self.service.sweeper
        self.timers = Timers(self.queue, self.clock, {TURN: sweeper.on_turn_timer})
        self.turn_timers = TurnTimers(self.timers)
        self.timed = 0

    def drain(self) -> None:
        for old, new in self.store.stream[self.timed :]:
            self.turn_timers.on_change(to_attributes(old) if old else None, to_attributes(new))
        self.timed = len(self.store.stream)
        super().drain()

    def come_back(self) -> list[str]:
        """Deliver every message sent so far, as if its delay had passed (the clock is the
        test's): what ``fire`` did with each."""
        sent, self.queue.sent = self.queue.sent, []
        return [self.timers.fire(body) for body, _ in sent]


def test_a_timer_round_trips_and_anything_else_is_refused() -> None:
    timer = Timer(TURN, "g1", 1_800_000_000)
    assert Timer.parse(timer.body()) == timer
    for body in (
        "not json",
        "[]",
        json.dumps({"kind": "turn", "key": "g1"}),
        json.dumps({"kind": "turn", "key": "", "due": 1}),
        json.dumps({"kind": "turn", "key": "g1", "due": True}),
        json.dumps({"kind": "turn", "key": "g1", "due": 1.5}),
        json.dumps({"kind": "turn", "key": "g" * 201, "due": 1}),
    ):
        with pytest.raises(InvalidTimer):
            Timer.parse(body)
    assert Timers(Queue(), Clock()).fire("not json") == "invalid"


def test_a_timer_is_delayed_to_its_due_second_and_hops_past_15_minutes() -> None:
    clock, queue = Clock(), Queue()
    fired: list[Timer] = []
    timers = Timers(queue, clock, {"test": fired.append})
    soon = Timer("test", "k", int(clock.now) + 36)
    clock.advance(0.25)  # never early by a fraction: 35.75 s round up
    timers.set(soon)
    assert queue.sent[-1] == (soon.body(), 36)
    far = Timer("test", "k", int(clock.now) + 3 * HOUR)
    timers.set(far)
    assert queue.sent[-1][1] == MAX_DELAY_SECONDS
    clock.advance(MAX_DELAY_SECONDS)
    assert timers.fire(far.body()) == "sent_on" and fired == []
    assert queue.sent[-1][1] == MAX_DELAY_SECONDS
    clock.now = far.due
    assert timers.fire(far.body()) == "fired" and fired == [far]
    assert timers.fire(Timer("other", "k", 0).body()) == "unknown"
    with pytest.raises(RuntimeError):
        Timers(None, clock).set(soon)  # no queue: nothing can be set


def test_the_stream_sets_the_reminder_then_the_deadline_and_each_fires_on_time() -> None:
    table = Timed()
    game = table.duel()  # bob on turn, an hour
    table.drain()
    (body, delay), *more = table.queue.sent
    assert not more and Timer.parse(body).kind == TURN and delay == MAX_DELAY_SECONDS
    reminder = Timer.parse(body)
    record = table.store.load(game)
    assert record is not None and reminder.due == record.deadline - int(0.2 * HOUR)

    table.clock.now = reminder.due - 1  # a hop that comes back a second early: sent on
    assert table.come_back() == ["sent_on"]
    table.clock.now = reminder.due
    assert table.come_back() == ["fired"]
    table.drain()  # the reminder's mark moved the game's due time to the deadline
    assert table.told("bob") == ["reminder"]
    (body, _), *more = table.queue.sent
    deadline = Timer.parse(body)
    assert not more and deadline.due == record.deadline
    table.clock.now = deadline.due
    assert table.come_back() == ["fired"]
    table.drain()
    assert table.told("bob")[-1] == "timeout"
    assert table.view(game)["turn"] == 0  # alice's turn now, with its own timer set
    assert [Timer.parse(b).key for b, _ in table.queue.sent] == [game]


def test_a_timer_the_game_has_moved_past_does_nothing() -> None:
    table = Timed()
    game = table.duel()
    table.drain()
    stale = table.queue.sent[0][0]
    table.clock.advance(60)  # bob plays a minute into his turn: alice's is due a minute later
    table.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)
    before = table.store.load(game)
    table.clock.now = Timer.parse(stale).due + 1
    assert table.timers.fire(stale) == "fired"
    after = table.store.load(game)
    assert before is not None and after is not None
    assert after.version == before.version and after.reminded is None  # nothing done


def test_a_late_move_is_refused_under_forfeit_and_taken_under_auto() -> None:
    table = Timed()
    game = table.duel(on_timeout="forfeit")
    table.clock.advance(HOUR + 1)  # past the deadline; no timer has fired yet
    with pytest.raises(DominoError) as late:
        table.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)
    assert late.value.code == "turn_timed_out"
    assert table.view(game)["board"]["tiles"] == []  # nothing changed

    auto = Timed()
    game = auto.duel()
    auto.clock.advance(HOUR + 1)
    auto.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)
    assert auto.view(game)["board"]["tiles"][0]["tile"] == "6-6"
