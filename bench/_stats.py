"""The benchmarks' numbers (a helper module: ``make bench`` does not run it): Wilson intervals,
percentiles, milliseconds, and the seeds of bot decisions in duplicate deals."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
PLY_BITS = 24  # plies of a match or hand fit in the low bits of a decision seed


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


def decision_seed(deal: int, seating: int, ply: int) -> int:
    """The seed of one bot decision: distinct for every (deal, seating, ply)."""
    if not 0 <= ply < 1 << PLY_BITS or seating not in (0, 1) or deal < 0:
        raise ValueError(f"no decision seed for deal {deal}, seating {seating}, ply {ply}")
    return (deal * 2 + seating) << PLY_BITS | ply


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * q
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"
