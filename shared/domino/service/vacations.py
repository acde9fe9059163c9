"""Vacations (docs/api.md "Vacation"): ``PUT /me/vacation {"until"}`` and ``DELETE``.

A player may be away at most 30 days in any 365, counted in 24-hour periods from each
vacation's start (a started period counts), as they pass: a vacation ended early gives back the
periods it never began. While one lasts, the player's seats show ``away`` and their turns in
games of turns of a day or more stand still: the turn under way keeps the time it had left
(``frozen``), a turn that comes to them meanwhile gets its whole time, frozen, and neither has
a deadline, so the sweeper's index does not list it. When the vacation ends (at ``until``, by
its timer or the sweep, or early on ``DELETE``), each turn resumes with the time it had.

Marking a game is a change of it through the write path (version + 1, the other players' views
show ``away``), made with the turn's clock kept (``Effect.keeps_clock``). A turn whose deadline
has already passed when its vacation begins is not frozen: its timeout comes as it would have.
Racing the sweeper, the write path's version check settles it: a timeout that saved first
leaves no turn to freeze (the next turn of the player is frozen whole), a freeze that saved
first leaves ``time_out`` nothing due, so no turn is both timed out and frozen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from domino.engine.errors import InvalidInput
from domino.service.clock import Clock
from domino.service.errors import GameNotFound, VacationExhausted
from domino.service.loaded import Game, load_game
from domino.service.ports import GameStore, VacationStore
from domino.service.values import Caller
from domino.service.writes import FREEZES_HOURS, Effect, WritePath
from domino.store.errors import VersionConflict
from domino.store.records import iso
from domino.store.vacations import Vacation

#: a vacation's budget: this many 24-hour periods in any WINDOW
BUDGET_DAYS = 30
PERIOD = 24 * 3600
WINDOW = 365 * 24 * 3600
#: the timer kind of a vacation's end (its key is the player)
VACATION_TIMER = "vacation"
#: how often a vacation's write reads again after losing a race for the player's item
ATTEMPTS = 4


class NothingToMark(Exception):
    """The game needs no change: the player has no seat in play, or it is marked already."""


def periods(start: int, end: int) -> int:
    """The 24-hour periods from ``start`` begun by ``end`` (the first one at once)."""
    return max(1, math.ceil((end - start) / PERIOD))


def days_used(vacation: Vacation, now: int) -> int:
    """The periods of the vacations that ended, of those that began in the last WINDOW."""
    return sum(periods(s, e) for s, e in vacation.past if s > now - WINDOW)


def days_left(vacation: Vacation, now: int) -> int:
    """What is left of the budget, the vacation under way counted to its ``until``."""
    planned = 0
    if vacation.start is not None and vacation.until is not None:
        planned = periods(vacation.start, vacation.until)
    return max(0, BUDGET_DAYS - days_used(vacation, now) - planned)


def under_way(vacation: Vacation, now: int) -> bool:
    return vacation.until is not None and vacation.until > now


def ended(vacation: Vacation, at: int, now: int) -> Vacation:
    """``vacation`` with the one under way ended at ``at`` (kept among the past spans; spans
    older than the window dropped)."""
    assert vacation.start is not None
    past = tuple(span for span in vacation.past if span[0] > now - WINDOW)
    return vacation._replace(start=None, until=None, past=(*past, (vacation.start, at)))


def mark_away(player: str, away: bool) -> Callable[[Game, int], Effect]:
    """The change that marks ``player``'s seat away (or back) and stops (or restarts) their
    turn's clock in a game of turns of a day or more."""

    def change(game: Game, at: int) -> Effect:
        record = game.record
        index = record.seat_of(player)
        if record.status not in ("waiting", "playing") or index is None:
            raise NothingToMark()
        seat = record.seats[index]
        if seat.away == away:
            raise NothingToMark()
        record.seats[index] = replace(seat, away=away)
        hours = float(record.config.get("turn_timeout_hours") or 0)
        if record.status == "playing" and record.turn_player == player and hours >= FREEZES_HOURS:
            if away and record.deadline is not None and record.deadline > at:
                record.frozen, record.deadline = record.deadline - at, None
            elif not away and record.frozen is not None:
                record.deadline, record.frozen = at + record.frozen, None
        return Effect(actor=player, keeps_clock=True)

    return change


class Vacations:
    def __init__(
        self,
        store: VacationStore,
        games: GameStore,
        writes: WritePath,
        game_ids: Callable[[str], list[str]],
        clock: Clock,
        set_timer: Callable[[str, int], None] | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.writes = writes
        self.game_ids = game_ids  # the player's games (their memberships)
        self.clock = clock
        #: (player, until): the vacation's end on the timers' queue (None: the sweep alone)
        self.set_timer = set_timer

    def answer(self, vacation: Vacation, now: int) -> dict[str, Any]:
        until = vacation.until if under_way(vacation, now) else None
        return {"until": iso(until) if until else None, "days_left": days_left(vacation, now)}

    def status(self, caller: Caller) -> dict[str, Any]:
        """``GET /me/vacation``: the vacation under way (``until`` null: none), days left."""
        now = int(self.clock())
        vacation = self.end_if_due(caller.player, now)
        return self.answer(vacation, now)

    def start(self, caller: Caller, until: int) -> dict[str, Any]:
        """``PUT /me/vacation``: away until ``until`` (a vacation under way gets the new end);
        400 for an ``until`` not in the future, 422 ``vacation_exhausted`` beyond the budget."""
        now = int(self.clock())
        if until <= now:
            raise InvalidInput("until must be a time in the future.")
        for _attempt in range(ATTEMPTS):
            vacation = self.end_if_due(caller.player, now)
            start = vacation.start if under_way(vacation, now) else now
            assert start is not None
            wanted = vacation._replace(start=start, until=until)
            if periods(start, until) > BUDGET_DAYS - days_used(vacation, now):
                raise VacationExhausted(days_left(vacation, now))
            try:
                written = self.store.put(wanted)
            except VersionConflict:
                continue
            if self.set_timer is not None:
                self.set_timer(caller.player, until)
            self.mark_games(caller.player, True)
            return self.answer(written, now)
        raise VersionConflict(None)

    def stop(self, caller: Caller) -> dict[str, Any]:
        """``DELETE /me/vacation``: the vacation under way ends now (none: nothing changes)."""
        now = int(self.clock())
        for _attempt in range(ATTEMPTS):
            vacation = self.store.get(caller.player)
            if vacation.start is None:
                return self.answer(vacation, now)
            at = min(now, vacation.until or now)
            try:
                written = self.store.put(ended(vacation, at, now))
            except VersionConflict:
                continue
            self.mark_games(caller.player, False)
            return self.answer(written, now)
        raise VersionConflict(None)

    def end_if_due(self, player: str, now: int) -> Vacation:
        """The player's vacations, the one under way ended if its ``until`` has come (its
        games marked back)."""
        vacation = self.store.get(player)
        if vacation.start is None or vacation.until is None or vacation.until > now:
            return vacation
        try:
            written = self.store.put(ended(vacation, vacation.until, now))
        except VersionConflict:
            return self.store.get(player)  # another ending (or a new vacation) won
        self.mark_games(player, False)
        return written

    def on_end(self, player: str) -> bool:
        """The vacation's timer, or the sweep: end it if its time has come; whether it did."""
        before = self.store.get(player)
        after = self.end_if_due(player, int(self.clock()))
        return before.start is not None and after.start is None

    def mark_games(self, player: str, away: bool) -> int:
        """Mark the player's seat in each of their games in play (or waiting); how many."""
        marked = 0
        caller = Caller(player, player)
        for game_id in self.game_ids(player):
            try:
                game = load_game(self.games, game_id)
                self.writes.write(caller, game, None, mark_away(player, away))
            except (NothingToMark, GameNotFound):
                continue
            marked += 1
        return marked
