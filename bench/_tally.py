"""Hands won between two sides over duplicate deals (a helper module: ``make bench`` does not
run it): what ``bench/bots.py`` counts of the expert against another level, and
``bench/duel.py`` of our pair against ``bota_gorda``'s, with the same figures."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from _stats import wilson


@dataclass
class Tally:
    """Side A's hands against side B's (bots.py: the expert, A; duel.py: our pair), summed over
    the deals played (every field adds up, ``add``)."""

    hands: int = 0
    wins: int = 0  # hands A won
    losses: int = 0  # hands B won
    ties: int = 0  # hands nobody won
    points: int = 0  # hand points A scored
    points_against: int = 0  # and B
    closed: int = 0  # hands that ended with nobody out
    plies: int = 0
    deals_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # deals A won 0, 1, 2 times
    cpu: float = 0.0  # process seconds spent playing them
    times: list[float] = field(default_factory=list)  # A's decisions, seconds
    chosen: list[float] = field(default_factory=list)  # those with more than one tile to play

    def count(
        self,
        won: int,
        points: int,
        points_against: int,
        *,
        closed: bool = False,
        plies: int = 0,
        times: Sequence[float] = (),
    ) -> None:
        """One hand: ``won`` is 1 when A won it, -1 when B did, 0 when nobody did."""
        self.hands += 1
        self.wins += won == 1
        self.losses += won == -1
        self.ties += won == 0
        self.points += points
        self.points_against += points_against
        self.closed += closed
        self.plies += plies
        self.times += times

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.wins += other.wins
        self.losses += other.losses
        self.ties += other.ties
        self.points += other.points
        self.points_against += other.points_against
        self.closed += other.closed
        self.plies += other.plies
        self.deals_won = [x + y for x, y in zip(self.deals_won, other.deals_won, strict=True)]
        self.cpu += other.cpu
        self.times += other.times
        self.chosen += other.chosen

    def win_rate(self) -> float:
        """A's share of the hands (a tied hand is nobody's)."""
        return self.wins / self.hands if self.hands else float("nan")

    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of ``win_rate``."""
        return wilson(self.wins, self.hands)

    def points_share(self) -> float:
        """A's share of the hand points both sides scored."""
        total = self.points + self.points_against
        return self.points / total if total else float("nan")

    def figures(self) -> dict[str, Any]:
        """The figures both scripts write to ``--json``."""
        low, high = self.interval()
        never, once, twice = self.deals_won
        return {
            "hands": self.hands,
            "win_rate": self.win_rate(),
            "wilson_low": low,
            "wilson_high": high,
            "points_share": self.points_share(),
            "deals_won_twice_once_never": [twice, once, never],
        }


def play_duplicate(deals: range, hand: Callable[[int, int, Tally], None]) -> Tally:
    """Every deal of ``deals`` played twice, A on the seats of parity 0 and then on those of
    parity 1: ``hand(deal, seating, tally)`` plays one hand and counts it into ``tally``."""
    started = time.process_time()
    tally = Tally()
    for deal in deals:
        before = tally.wins
        for seating in (0, 1):
            hand(deal, seating, tally)
        tally.deals_won[tally.wins - before] += 1
    tally.cpu = time.process_time() - started
    return tally
