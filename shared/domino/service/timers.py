"""Timers that fire on time: each turn's reminder (at 80 % of its time) and its deadline, within
seconds rather than at the next minutely sweep (docs/api.md#turn-deadlines: within 5 s). Other
waits (quick match's) are new kinds on the same queue.

A timer is ``(kind, key, due)``. ``Timers.set`` sends it to a delay queue to come back when it
is due; SQS holds a message at most 15 minutes, so a timer further off comes back early and
``fire`` sends it on, as many hops as it takes. When it is due, ``fire`` runs its kind's
handler. Timers are never cancelled and are delivered at least once: a handler checks that
what the timer was set for still holds (a turn timer whose game has moved on to another turn
does nothing), which also makes a duplicate harmless. The minutely sweep stays as the safety
net for a timer lost on the way (a failed send, a message given up on).

Turn timers are set from the game table's stream (``TurnTimers.on_change``, in the notifier):
every write whose ``due`` (the sweeper's next look at the game) changed sets one, whoever made
the write: a move, a bot, a reminder, a timeout.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from domino.service.clock import Clock
from domino.service.ports import TimerQueue
from domino.store.records import GameRecord, Item, due_time, record_from_image
from domino.store.timers import MAX_DELAY_SECONDS

#: the kind of a turn's timer (its key is the game's id)
TURN = "turn"
#: a timer's key is an id of ours; its kind a short name
MAX_KEY_LENGTH = 200


class InvalidTimer(ValueError):
    """A queue message that is not a timer of ours."""


@dataclass(frozen=True)
class Timer:
    kind: str
    key: str
    due: int  # epoch seconds

    def body(self) -> str:
        return json.dumps({"kind": self.kind, "key": self.key, "due": self.due})

    @classmethod
    def parse(cls, body: str) -> Timer:
        try:
            data = json.loads(body)
        except ValueError as err:
            raise InvalidTimer("not JSON") from err
        if not isinstance(data, dict):
            raise InvalidTimer("not an object")
        kind, key, due = data.get("kind"), data.get("key"), data.get("due")
        if not isinstance(kind, str) or not kind or len(kind) > 40:
            raise InvalidTimer("bad kind")
        if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
            raise InvalidTimer("bad key")
        if not isinstance(due, int) or isinstance(due, bool) or due < 0:
            raise InvalidTimer("bad due")
        return cls(kind, key, due)


class Timers:
    """Sets timers on a delay queue and fires them when they come back due."""

    def __init__(
        self,
        queue: TimerQueue | None,
        clock: Clock,
        handlers: Mapping[str, Callable[[Timer], object]] | None = None,
    ) -> None:
        self.queue = queue
        self.clock = clock
        self.handlers = dict(handlers or {})

    def set(self, timer: Timer) -> None:
        """Have ``timer`` come back at its due time (or in 15 minutes, whichever is first)."""
        if self.queue is None:
            raise RuntimeError("no timer queue (TIMER_QUEUE_URL) to set a timer on")
        delay = math.ceil(timer.due - self.clock())  # never early by a fraction of a second
        self.queue.send(timer.body(), max(0, min(MAX_DELAY_SECONDS, delay)))

    def fire(self, body: str) -> str:
        """Handle one queue message: ``"fired"``, ``"sent_on"`` (not due yet: another hop),
        ``"unknown"`` (a kind with no handler here) or ``"invalid"`` (not a timer: dropped,
        as a retry would not make it one)."""
        try:
            timer = Timer.parse(body)
        except InvalidTimer:
            return "invalid"
        if timer.due > self.clock():
            self.set(timer)
            return "sent_on"
        handler = self.handlers.get(timer.kind)
        if handler is None:
            return "unknown"
        handler(timer)
        return "fired"


def turn_timer(old: GameRecord | None, new: GameRecord) -> Timer | None:
    """The timer a change of ``old`` into ``new`` sets: the next look at the game's turn (its
    reminder, then its deadline), when that changed."""
    due = due_time(new) if new.status == "playing" else None
    if due is None:
        return None
    if old is not None and old.status == "playing" and due_time(old) == due:
        return None  # the same turn's timer is set already
    return Timer(TURN, new.id, due)


class TurnTimers:
    """The stream's part: set the turn timer each change of a game item calls for."""

    def __init__(self, timers: Timers) -> None:
        self.timers = timers

    def on_change(self, old_image: Item | None, new_image: Item | None) -> bool:
        """Set the change's turn timer, if it needs one; whether it did."""
        new = record_from_image(new_image) if new_image else None
        if new is None:
            return False
        old = record_from_image(old_image) if old_image else None
        timer = turn_timer(old, new)
        if timer is None:
            return False
        self.timers.set(timer)
        return True
