"""Turn deadlines: the sweeper reminds the player on turn at 80 % of their time and, when it has
run out, finishes their turn for them (docs/api.md#turn-deadlines).

A game with ``turn_timeout_hours`` carries ``deadline`` (when the turn times out) and, in the
sweeper's index, ``due``: the next time the sweeper must look at it (the reminder, then the
deadline). Each turn's timer (``domino.service.timers``) brings the game here when it is due,
within seconds; the sweeper, every minute, asks the store for every game due by now (the safety
net for a timer lost on the way) and handles each the same way:

- the reminder marks the game item (``reminded`` = the version whose turn it is), a conditional
  update that leaves the version alone; the notifier sees it and sends ``reminder`` once;
- a timeout goes through the same write path as a player's move, under the same optimistic
  locking: if the player moves first, the sweeper's change finds their new turn not due and
  does nothing (exactly one of the two wins). ``on_timeout: auto`` plays the strategist's moves
  for the player until their turn is over (the draws the rules require, then the play or the
  pass), each logged as a ``timeout`` move; the seat stays theirs. ``forfeit`` does the same,
  logged with ``forfeit: true``, records the forfeit and hands the seat to a bot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from domino.engine import DEFAULT_BUDGET_MS, choose_move
from domino.service.clock import Clock, system_clock
from domino.service.errors import GameNotFound
from domino.service.loaded import Game, load_game
from domino.service.ports import GameStore
from domino.service.values import Caller
from domino.service.writes import Effect, WritePath
from domino.store.quiet import HELD_SK
from domino.store.records import Seat, due_time, remind_time
from domino.store.vacations import VACATION_SK

GAME_PREFIX, PLAYER_PREFIX = "GAME#", "PLAYER#"

if TYPE_CHECKING:
    from domino.service.timers import Timer

#: the level whose moves a timed-out player gets (docs/api.md#turn-deadlines: the strategist's)
TIMEOUT_LEVEL = "strategist"
#: the sweeper acts for nobody: its changes are stamped with the late player as actor
SWEEPER = Caller("", "")


class NotDue(Exception):
    """The game is not due any more (the player moved, or the game ended): nothing to do."""


class SweepReport(NamedTuple):
    due: int  # games the index listed as due
    reminded: int
    timed_out: int
    summaries: int = 0  # quiet hours' summary pushes sent (their timer lost)
    vacations: int = 0  # vacations ended (their timer lost)


class Sweeper:
    def __init__(
        self,
        store: GameStore,
        clock: Clock = system_clock,
        bot_budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        self.store = store
        self.clock = clock
        self.writes = WritePath(store, clock, bot_budget_ms=bot_budget_ms)
        #: what ends when a player's item is due, by its sort key: their quiet hours (``HELD``:
        #: ``QuietSummary.fire``), their vacation (``VACATION``: ``Vacations.on_end``); each
        #: says whether it did something (set by the wiring)
        self.player_due: dict[str, Callable[[str], bool]] = {}

    def sweep(self, limit: int = 1000) -> SweepReport:
        """Handle every game due by now (at most ``limit``, the most overdue first)."""
        now = int(self.clock())
        due = self.store.due_keys(now, limit)
        reminded = timed_out = 0
        ends = {kind: 0 for kind in self.player_due}
        for pk, sk in due:
            if pk.startswith(PLAYER_PREFIX):
                # a player's quiet window or vacation ended and its timer was lost
                ended = self.player_due.get(sk)
                if ended is not None and ended(pk.removeprefix(PLAYER_PREFIX)):
                    ends[sk] += 1
                continue
            outcome = self.handle(pk.removeprefix(GAME_PREFIX))
            reminded += outcome == "reminded"
            timed_out += outcome == "timed_out"
        return SweepReport(
            len(due), reminded, timed_out, ends.get(HELD_SK, 0), ends.get(VACATION_SK, 0)
        )

    def on_turn_timer(self, timer: Timer) -> str | None:
        """A turn's timer came due (``domino.service.timers``): handle the game as the sweep
        would, if it still awaits what the timer was set for (else a later timer is set
        already, or the game is over)."""
        return self.handle(timer.key, due=timer.due)

    def handle(self, game_id: str, due: int | None = None) -> str | None:
        """Remind or time out one game if it is due: ``"reminded"``, ``"timed_out"`` or None.
        ``due``: only if that is still the game's next look (a timer's)."""
        try:
            game = load_game(self.store, game_id)
        except GameNotFound:
            return None  # expired meanwhile
        record = game.record
        if due is not None and due_time(record) != due:
            return None
        now = int(self.clock())
        if record.status != "playing" or record.deadline is None or record.turn_player is None:
            return None
        if record.deadline <= now:
            try:
                self.writes.write(SWEEPER, game, None, time_out)
            except NotDue:
                return None
            return "timed_out"
        remind_at = remind_time(record)
        if record.reminded != record.version and remind_at is not None and remind_at <= now:
            return "reminded" if self.store.mark_reminded(record, now) else None
        return None


def time_out(game: Game, at: int) -> Effect:
    """The change a timeout makes: the late player's turn, finished for them."""
    record, match = game.record, game.match
    if (
        match is None
        or record.status != "playing"
        or record.deadline is None
        or record.deadline > at
        or match.turn is None
    ):
        raise NotDue()
    seat = match.turn
    late = record.seats[seat]
    if late.player is None or late.bot is not None:
        raise NotDue()  # a bot's turn is never timed (bots move at once)
    mode = record.config.get("on_timeout") or "auto"
    hand = match.hand_number  # the turn ends with the hand, even if the same seat leads next
    while match.status == "playing" and match.turn == seat and match.hand_number == hand:
        match.timeout(seat, mode, at, choose_move(match, seat, TIMEOUT_LEVEL))
    if mode == "forfeit":
        level = record.config.get("bot_level") or TIMEOUT_LEVEL
        record.seats[seat] = Seat(late.player, late.name, level)
    return Effect(actor=late.player, cause="timeout")
