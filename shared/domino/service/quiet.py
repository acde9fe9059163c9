"""Quiet hours (docs/api.md "Correspondence comfort"): a player's pushes are held while their
local time lies in a daily window, and one push sums up what waited when it ends.

The window is wall-clock time in the player's IANA zone, so it follows daylight saving: a
22:00 to 08:00 window in Madrid ends at 06:00 UTC in summer and 07:00 UTC in winter, and on the
night the clocks change it ends at 08:00 local all the same. ``from`` may be after ``to`` (the
window spans midnight). A window end that never happens (02:30 on a night that skips from 02:00
to 03:00) is read in the offset before the change, as ``zoneinfo`` does: 02:30 CET, which is
03:30 CEST, an hour of sleep the clocks took.

Holding is the push channel's (``PushChannel``): a held notification is settled like a muted
one, so a redelivered batch never pushes it; the game is added to the player's held item
(``HeldStore.hold``, a set: holding twice is holding once) and a timer is set for the window's
end. ``QuietSummary.fire`` claims the held item with one conditional delete, so a timer
delivered twice, or the sweep racing it, sends one summary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from datetime import time as day_time
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from domino.service.clock import Clock
from domino.service.ports import HeldStore
from domino.store.quiet import Held

#: ``HH:MM``, 00:00 to 23:59
CLOCK_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")
#: an IANA zone's name as the tz database spells them (``America/Argentina/Buenos_Aires``)
ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")
MAX_ZONE = 64
#: the timer kind of a window's end (its key is the player)
QUIET_TIMER = "quiet"


def _minutes(text: str) -> int:
    return int(text[:2]) * 60 + int(text[3:])


def zone(name: str) -> ZoneInfo | None:
    """The IANA zone ``name``; None for a name the tz database lacks."""
    if len(name) > MAX_ZONE or not ZONE_NAME.fullmatch(name):
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


class QuietHours(NamedTuple):
    """A daily window, ``start`` to ``end`` (``HH:MM``, local time in ``tz``)."""

    start: str
    end: str
    tz: str

    @classmethod
    def parse(cls, value: dict[str, Any]) -> QuietHours | None:
        """``{"from", "to", "tz"}`` as ``PATCH /me`` takes it; None unless both times are
        ``HH:MM`` and differ (an empty window) and the zone is one the tz database has (the
        edge says which failed: api/models.py)."""
        start, end, tz = value.get("from"), value.get("to"), value.get("tz")
        times = [t for t in (start, end) if isinstance(t, str) and CLOCK_TIME.fullmatch(t)]
        if len(times) != 2 or start == end or not isinstance(tz, str) or zone(tz) is None:
            return None
        return cls(times[0], times[1], tz)

    def json(self) -> dict[str, str]:
        return {"from": self.start, "to": self.end, "tz": self.tz}

    def encoded(self) -> str:
        """How the settings item keeps it: ``22:00 08:00 Europe/Madrid``."""
        return f"{self.start} {self.end} {self.tz}"

    @classmethod
    def decoded(cls, text: str | None) -> QuietHours | None:
        """The window an item holds (None: none, or one this code cannot read any more)."""
        parts = (text or "").split(" ")
        if len(parts) != 3:
            return None
        # None too for a zone the tz database dropped since: pushes are no longer held
        return cls.parse({"from": parts[0], "to": parts[1], "tz": parts[2]})

    def ends_after(self, now: float) -> int | None:
        """When the window that holds ``now`` ends (epoch seconds), or None when ``now`` lies
        outside the window."""
        tz = zone(self.tz)
        if tz is None:
            return None
        local = datetime.fromtimestamp(now, tz)
        minute = local.hour * 60 + local.minute
        start, end = _minutes(self.start), _minutes(self.end)
        if start < end:
            inside, day = start <= minute < end, local.date()
        else:  # across midnight: the end is tomorrow's unless it is already past midnight
            inside = minute >= start or minute < end
            day = local.date() if minute < end else local.date() + timedelta(days=1)
        if not inside:
            return None
        wall = datetime.combine(day, day_time(end // 60, end % 60), tz)
        # a wall time in a spring-forward gap reads in the offset before it (fold=0)
        return max(int(wall.timestamp()), int(now) + 1)


class QuietHold:
    """The push channel's check: whether a player's push is held now, and holding it."""

    def __init__(
        self,
        quiet_hours: Callable[[str], QuietHours | None],
        store: HeldStore,
        clock: Clock,
        set_timer: Callable[[str, int], None] | None = None,
    ) -> None:
        self.quiet_hours = quiet_hours  # the player's window (read with their devices)
        self.store = store
        self.clock = clock
        #: (player, due): the window's end, on the timers' queue (None: the sweep alone)
        self.set_timer = set_timer

    def holds(self, player: str, game: str) -> bool:
        """Hold the player's notification about ``game`` if their window is open now."""
        window = self.quiet_hours(player)
        until = window.ends_after(self.clock()) if window is not None else None
        if until is None:
            return False
        if self.store.hold(player, game, until) and self.set_timer is not None:
            self.set_timer(player, until)
        return True


class QuietSummary:
    """The window's end: one push that sums up what waited."""

    def __init__(
        self,
        store: HeldStore,
        clock: Clock,
        send: Callable[[Held], object],
    ) -> None:
        self.store = store
        self.clock = clock
        self.send = send  # the summary push (``PushChannel.summary``)

    def fire(self, player: str) -> bool:
        """Send the player's summary if their window has ended and something waited; whether
        this call sent it (a second delivery finds nothing to claim)."""
        held = self.store.release(player, int(self.clock()))
        if held is None or not held.games:
            return False
        self.send(held)
        return True
