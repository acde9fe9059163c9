"""Computer players' strength: the strategist against the random and greedy bots, duplicate deals.

    python bench/bots.py [--matches N] [--quick] [--workers W] [--tree PATH] [--json FILE]

Plays whole matches between two bot levels, A and B, through ``choose_move`` and prints, per
preset and pairing, A's match win rate with its 95 % Wilson score interval, A's share of all the
match points, and the drawn matches. The pairings are ``strategist`` vs ``random`` and
``strategist`` vs ``greedy``, then ``greedy`` vs ``random`` for scale; the presets are
``dos-jugadores`` (2 players, target 300) and ``parejas-111`` (4 players in pairs, 0+2 vs 1+3,
target 111). N matches a line (default 2,000; ``--quick`` 200).

Duplicate deals, so that the luck of the deal cancels: deal ``k`` (``Match.start(rules,
seed=k)``, k = 0 .. N/2 - 1; a seed also fixes every later hand's deal) is played twice, A on
seat 0 (parejas-111: seats 0+2) and then A on seat 1 (seats 1+3), B on the others. Every decision
gets its own seed from (deal, seating, ply), so a run repeats exactly: the same arguments print
the same figures (only the times change). The deals are spread over ``--workers`` processes (2).

A match is won by the side whose seats ``result()["match_winners"]`` lists; it is drawn when the
result says ``draw``, or names no side, or both (equal best totals at the target). The win rate
counts a drawn match as not won. A's points share: A's match totals over both sides' totals,
summed over the matches. "deals won 2/1/0": the deals A won with both seatings, one, neither.
The interval treats the N matches as independent; the two plays of a deal are not, and the JSON
also gives the half-width computed from the per-deal scores (0, 1/2 or 1) as a cross-check.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from _common import add_common_arguments, banner, footer, use_tree, write_json

#: the presets measured, with their player counts
PRESETS = (("dos-jugadores", 2), ("parejas-111", 4))
#: (A, B): A's figures are printed
PAIRINGS = (("strategist", "random"), ("strategist", "greedy"), ("greedy", "random"))
Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
DEALS_PER_TASK = 20  # one task a worker takes at a time (40 matches)
PLY_BITS = 24  # plies of a match fit in the low bits of a decision seed


# ------------------------------------------------------------------------------ pure helpers


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``z`` = 1.96: 95 %)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the edges
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def paired_half_width(twice: int, once: int, never: int, z: float = Z95) -> float:
    """Half-width of the normal interval of the win rate from the per-deal scores (a deal won
    with both seatings scores 1, with one 1/2, with neither 0): the deals are independent."""
    deals = twice + once + never
    if deals < 2:
        return float("nan")
    mean = (twice + once / 2) / deals
    spread = twice * (1 - mean) ** 2 + once * (0.5 - mean) ** 2 + never * mean**2
    return z * math.sqrt(spread / (deals - 1) / deals)


def decision_seed(deal: int, seating: int, ply: int) -> int:
    """The seed of one ``choose_move`` call: distinct for every (deal, seating, ply)."""
    if not 0 <= ply < 1 << PLY_BITS or seating not in (0, 1) or deal < 0:
        raise ValueError(f"no decision seed for deal {deal}, seating {seating}, ply {ply}")
    return (deal * 2 + seating) << PLY_BITS | ply


def side_levels(a: str, b: str, players: int, seating: int) -> list[str]:
    """Each seat's level: A on the seats of parity ``seating`` (2 players: seat 0, then seat 1;
    pairs: 0+2, then 1+3), B on the others."""
    return [a if seat % 2 == seating else b for seat in range(players)]


def outcome(match_winners: list[int], draw: bool, seating: int) -> int:
    """1 when A (the seats of parity ``seating``) won the match alone, -1 when B did, 0 drawn."""
    a_won = any(seat % 2 == seating for seat in match_winners)
    b_won = any(seat % 2 != seating for seat in match_winners)
    if draw or a_won == b_won:
        return 0
    return 1 if a_won else -1


@dataclass
class Tally:
    """One line's counts, summed over its deals (every field adds up)."""

    matches: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_a: int = 0
    points_all: int = 0
    deals_won: list[int] = field(default_factory=lambda: [0, 0, 0])  # deals A won 0, 1, 2 times
    plies: int = 0
    cpu: float = 0.0

    def add(self, other: Tally) -> None:
        self.matches += other.matches
        self.wins += other.wins
        self.losses += other.losses
        self.draws += other.draws
        self.points_a += other.points_a
        self.points_all += other.points_all
        self.deals_won = [x + y for x, y in zip(self.deals_won, other.deals_won, strict=True)]
        self.plies += other.plies
        self.cpu += other.cpu

    def as_tuple(self) -> tuple[Any, ...]:
        """Plain values, to send between processes."""
        return (
            self.matches,
            self.wins,
            self.losses,
            self.draws,
            self.points_a,
            self.points_all,
            tuple(self.deals_won),
            self.plies,
            self.cpu,
        )

    @classmethod
    def from_tuple(cls, values: tuple[Any, ...]) -> Tally:
        matches, wins, losses, draws, points_a, points_all, deals_won, plies, cpu = values
        return cls(matches, wins, losses, draws, points_a, points_all, list(deals_won), plies, cpu)

    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else float("nan")

    def points_share(self) -> float:
        return self.points_a / self.points_all if self.points_all else float("nan")


# ------------------------------------------------------------------------------ play


def play_match(rules: Any, deal: int, seating: int, levels: list[str]) -> tuple[int, int, int, int]:
    """One whole match of deal ``deal``: (A's outcome, A's points, B's points, plies)."""
    from domino.engine import Match, choose_move

    match = Match.start(rules, seed=deal, at=0)
    ply = 0
    while match.status != "finished":
        seat = match.turn
        if seat is None:
            raise RuntimeError(f"deal {deal}: a match in play with nobody on turn")
        move = choose_move(match, seat, levels[seat], seed=decision_seed(deal, seating, ply))
        ply += 1
        match.apply(seat, move, ply)
    result = match.result()
    if result is None:
        raise RuntimeError(f"deal {deal}: a finished match without a result")
    # a side's total: a player's score, or a pair's (both seats of a pair carry it)
    won = outcome(result["match_winners"], bool(result.get("draw")), seating)
    return won, match.scores[seating], match.scores[1 - seating], ply


def play_deals(preset: str, players: int, a: str, b: str, deals: range) -> Tally:
    """Every deal of ``deals`` played twice, A's seats swapped the second time."""
    from domino.engine import resolve_rules

    rules = resolve_rules(preset, players)
    if players != 2 and rules.teams != "pairs":
        raise SystemExit(f"{preset}: only 2 players or 2 pairs make two sides")
    started = time.process_time()
    tally = Tally()
    for deal in deals:
        won_here = 0
        for seating in (0, 1):
            won, mine, theirs, plies = play_match(
                rules, deal, seating, side_levels(a, b, players, seating)
            )
            tally.matches += 1
            tally.wins += won == 1
            tally.losses += won == -1
            tally.draws += won == 0
            tally.points_a += mine
            tally.points_all += mine + theirs
            tally.plies += plies
            won_here += won == 1
        tally.deals_won[won_here] += 1
    tally.cpu = time.process_time() - started
    return tally


def _task(job: tuple[int, str, int, str, str, int, int]) -> tuple[int, tuple[Any, ...]]:
    line, preset, players, a, b, first, stop = job
    return line, play_deals(preset, players, a, b, range(first, stop)).as_tuple()


def _start_worker(shared: str) -> None:
    """A worker measures the same tree (``use_tree`` ran in the parent: forked workers inherit
    its path, spawned ones are given it here)."""
    if shared not in sys.path:
        sys.path.insert(0, shared)
    importlib.import_module("domino.engine")


def run_lines(
    lines: list[tuple[str, int, str, str]], deals: int, workers: int, shared: str
) -> Iterator[tuple[int, Tally]]:
    """Each line's tally, in line order, as soon as its last deals are in."""
    jobs = [
        (i, preset, players, a, b, first, min(first + DEALS_PER_TASK, deals))
        for i, (preset, players, a, b) in enumerate(lines)
        for first in range(0, deals, DEALS_PER_TASK)
    ]
    left = [sum(1 for job in jobs if job[0] == i) for i in range(len(lines))]
    tallies = [Tally() for _ in lines]
    if workers <= 1:
        results: Iterator[tuple[int, tuple[Any, ...]]] = map(_task, jobs)
        pool = None
    else:
        pool = Pool(workers, initializer=_start_worker, initargs=(shared,))
        results = pool.imap(_task, jobs)
    try:
        for line, values in results:
            tallies[line].add(Tally.from_tuple(values))
            left[line] -= 1
            if left[line] == 0:
                yield line, tallies[line]
    finally:
        if pool is not None:
            pool.close()
            pool.join()


# ------------------------------------------------------------------------------ report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        help="whole matches a line, two a deal (default 2000; an odd count is rounded up)",
    )
    parser.add_argument("--quick", action="store_true", help="200 matches a line")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/bots.py", tree)

    from domino.engine import resolve_rules

    wanted = args.matches if args.matches is not None else 200 if args.quick else 2000
    deals = max(1, math.ceil(wanted / 2))
    print(
        f"\n{deals} duplicate deals (seeds 0-{deals - 1}), each played twice with the sides' "
        f"seats swapped: {2 * deals} whole matches a line; every decision seeded from (deal, "
        f"seating, ply); {args.workers} process{'es' if args.workers > 1 else ''}"
    )
    for preset, players in PRESETS:
        rules = resolve_rules(preset, players)
        sides = "2 pairs (0+2 vs 1+3)" if rules.teams == "pairs" else "one against one"
        print(f"  {preset}: {players} players, {sides}, match to {rules.target} points")

    lines = [(preset, players, a, b) for preset, players in PRESETS for a, b in PAIRINGS]
    print(
        f"\n{'preset':14} {'A vs B':21} {'matches':>7} {'A won':>6} {'win rate':>8} "
        f"{'95 % Wilson CI':>15} {'A points':>8} {'drawn':>5} {'deals won 2/1/0':>16} "
        f"{'CPU s':>6}"
    )
    figures: dict[str, Any] = {"deals": deals, "matches": 2 * deals}
    for line, tally in run_lines(lines, deals, args.workers, str(tree.shared)):
        preset, _, a, b = lines[line]
        low, high = wilson(tally.wins, tally.matches)
        never, once, twice = tally.deals_won
        print(
            f"{preset:14} {a + ' vs ' + b:21} {tally.matches:>7} {tally.wins:>6} "
            f"{tally.win_rate():>8.1%} {f'{low:.1%}-{high:.1%}':>15} "
            f"{tally.points_share():>8.1%} {tally.draws:>5} "
            f"{f'{twice}/{once}/{never}':>16} {tally.cpu:>6.0f}",
            flush=True,
        )
        figures.setdefault(preset, {})[f"{a}_vs_{b}"] = {
            "matches": tally.matches,
            "wins": tally.wins,
            "losses": tally.losses,
            "draws": tally.draws,
            "win_rate": tally.win_rate(),
            "wilson_low": low,
            "wilson_high": high,
            "paired_half_width": paired_half_width(twice, once, never),
            "points_share": tally.points_share(),
            "deals_won_twice_once_never": [twice, once, never],
            "plies_per_match": tally.plies / tally.matches,
            "cpu_seconds": tally.cpu,
        }
    print(
        "\nwin rate: A's match wins over all the matches (a drawn match is not won); A points: "
        "A's share of both sides' match totals"
    )
    write_json(args.json, figures)
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
