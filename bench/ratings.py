"""The bot levels' ratings, measured: a round robin of whole matches between the levels, and
the ratings that explain its results on the scale players see.

    python bench/ratings.py [--matches N] [--quick] [--preset P] [--budget-ms MS]
                            [--workers W] [--tree PATH] [--json FILE]

Prints figures, asserts nothing. Every pair of levels (random, greedy, strategist, expert)
plays ``--matches`` duplicate deals of whole matches of ``--preset`` (default dos-jugadores, the
pool most bot backfills serve; default 200 deals, ``--quick`` 40): match k is dealt from seed k
and played twice, each level on each seat once, so the luck of the deal cancels. A match won
counts 1, a drawn match 1/2 to each side.

The ratings are what the product's model makes of such results: OpenSkill's Plackett-Luce
gives a two-player match the win chance ``1 / (1 + e^(-(mu_a - mu_b) / c))`` with
``c = sqrt(2 beta^2 + 2 sigma^2)`` (beta = 25/6; ``SETTLED_SIGMA`` for ratings that have
played many matches). The strengths that make the round robin's results most likely (a
Bradley-Terry fit of that curve, with half a win added each way to a pair so that a clean
sweep stays finite) are turned into the shown number ``40 x mu`` apart, anchored with random at
``ANCHOR`` (docs/decisions.md "Quick match": a newcomer's 1000 then sits between random and
greedy). The 95 % intervals come from refitting 400 resamples of the matches (bootstrap).

The expert thinks ``--budget-ms`` of wall clock a move (14.5 ms: the product's 50 ms on a
512 MB Lambda, as bench/bots.py); keep the machine otherwise idle.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from multiprocessing import Pool
from typing import Any

from _stats import decision_seed, wilson
from _tree import add_common_arguments, banner, footer, use_tree, write_json

LEVELS = ("random", "greedy", "strategist", "expert")
DEFAULT_BUDGET_MS = 14.5  # bench/bots.py: what 50 ms buys on the template's 512 MB Lambda
BETA = 25 / 6
#: sigma of a rating after many matches (openskill's update leaves about this after ~100)
SETTLED_SIGMA = 1.1
SCALE = math.sqrt(2 * BETA**2 + 2 * SETTLED_SIGMA**2)
#: the shown rating given to random, which fixes where the others fall
ANCHOR = 600
SHOWN_PER_MU = 40  # rating = 1000 + 40 (mu - 3 sigma)
RESAMPLES = 400
DEALS_PER_TASK = 10

Job = tuple[str, str, str, int, int, float]


def play_match(
    preset: str, levels: tuple[str, str], deal: int, seating: int, budget: float
) -> float:
    """One whole match of deal ``deal``: levels[0] on seat ``seating``; its score (1, 1/2, 0)."""
    from domino.engine import Match, choose_move, resolve_rules

    rules = resolve_rules(preset, 2)
    seats = (levels[0], levels[1]) if seating == 0 else (levels[1], levels[0])
    match = Match.start(rules, seed=deal, at=0)
    ply = 0
    while match.status == "playing":
        seat = match.turn
        if seat is None:
            raise RuntimeError(f"deal {deal}: a match in play with nobody on turn")
        level = seats[seat]
        thinking = {"budget_ms": budget} if level == "expert" else {}
        move = choose_move(match, seat, level, seed=decision_seed(deal, seating, ply), **thinking)
        ply += 1
        match.apply(seat, move, ply)
    if match.is_draw:
        return 0.5
    return 1.0 if seating in match.match_winners_ else 0.0


def _task(job: Job) -> tuple[str, str, list[float]]:
    preset, a, b, first, stop, budget = job
    scores = [
        play_match(preset, (a, b), deal, seating, budget)
        for deal in range(first, stop)
        for seating in (0, 1)
    ]
    return a, b, scores


def _start_worker(shared: str) -> None:
    if shared not in sys.path:
        sys.path.insert(0, shared)


def fit(results: dict[tuple[str, str], list[float]]) -> dict[str, float]:
    """Each level's mu (random's 0) that makes ``results`` most likely under the logistic curve
    of scale ``SCALE``: Newton's method on the Bradley-Terry log-likelihood."""
    index = {level: i for i, level in enumerate(LEVELS)}
    # (i, j, score of i, games): half a win added each way, so a sweep stays finite
    pairs = [(index[a], index[b], sum(s) + 0.5, len(s) + 1.0) for (a, b), s in results.items() if s]
    mu = [0.0] * len(LEVELS)
    for _ in range(100):
        grad = [0.0] * len(LEVELS)
        hess = [[0.0] * len(LEVELS) for _ in LEVELS]
        for i, j, won, games in pairs:
            p = 1 / (1 + math.exp(-(mu[i] - mu[j]) / SCALE))
            g = (won - games * p) / SCALE
            h = games * p * (1 - p) / SCALE**2
            grad[i] += g
            grad[j] -= g
            hess[i][i] += h
            hess[j][j] += h
            hess[i][j] -= h
            hess[j][i] -= h
        step = _solve([row[1:] for row in hess[1:]], grad[1:])  # random held at 0
        for k, delta in enumerate(step, start=1):
            mu[k] += delta
        if max(abs(d) for d in step) < 1e-9:
            break
    return {level: mu[index[level]] for level in LEVELS}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix x = vector`` by Gaussian elimination (a 3 x 3 positive-definite system)."""
    n = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def shown(mu: dict[str, float]) -> dict[str, int]:
    return {level: round(ANCHOR + SHOWN_PER_MU * (m - mu["random"])) for level, m in mu.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=None, help="deals a pair (default 200)")
    parser.add_argument("--quick", action="store_true", help="40 deals a pair")
    parser.add_argument("--preset", default="dos-jugadores")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/ratings.py", tree)
    deals = args.matches if args.matches is not None else 40 if args.quick else 200
    pairs = list(itertools.combinations(LEVELS, 2))
    jobs: list[Job] = [
        (args.preset, a, b, first, min(first + DEALS_PER_TASK, deals), args.budget_ms)
        for a, b in pairs
        for first in range(0, deals, DEALS_PER_TASK)
    ]
    print(
        f"\n{args.preset}, 2 players: {deals} duplicate deals a pair ({2 * deals} whole matches, "
        f"each level on each seat once a deal); the expert thinks {args.budget_ms} ms a move; "
        f"{args.workers} processes"
    )
    results: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    with Pool(args.workers, initializer=_start_worker, initargs=(str(tree.shared),)) as pool:
        for a, b, scores in pool.imap_unordered(_task, jobs):
            results[(a, b)] += scores

    print(f"\n{'A vs B':26} {'matches':>7} {'A scored':>8} {'rate':>7} {'95 % Wilson':>15}")
    figures: dict[str, Any] = {"preset": args.preset, "deals": deals, "pairs": {}}
    for (a, b), scores in results.items():
        won = sum(scores)
        low, high = wilson(round(won), len(scores))
        print(
            f"{a + ' vs ' + b:26} {len(scores):>7} {won:>8.1f} {won / len(scores):>7.1%} "
            f"{f'{low:.1%}-{high:.1%}':>15}"
        )
        figures["pairs"][f"{a}_vs_{b}"] = {"matches": len(scores), "score": won}

    rating = shown(fit(results))
    rng = random.Random(0)
    samples: dict[str, list[int]] = {level: [] for level in LEVELS}
    for _ in range(RESAMPLES):
        resampled = {pair: rng.choices(s, k=len(s)) for pair, s in results.items()}
        for level, value in shown(fit(resampled)).items():
            samples[level].append(value)
    from domino.service.tickets import BOT_RATINGS

    print(
        f"\nratings (shown scale, random anchored at {ANCHOR}; c = {SCALE:.2f}; 95 % bootstrap "
        f"interval of {RESAMPLES} resamples) against the documented BOT_RATINGS:"
    )
    for level in LEVELS:
        ordered = sorted(samples[level])
        low, high = ordered[int(0.025 * RESAMPLES)], ordered[int(0.975 * RESAMPLES) - 1]
        print(f"  {level:11} {rating[level]:>5}  ({low}-{high})   documented {BOT_RATINGS[level]}")
        figures.setdefault("ratings", {})[level] = {
            "rating": rating[level],
            "interval": [low, high],
            "documented": BOT_RATINGS[level],
        }
    write_json(args.json, figures)
    footer(started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
