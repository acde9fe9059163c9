"""bench/ratings.py's fit: the Bradley-Terry strengths it finds are those that produced the
results, on the shown scale, with random anchored."""

from __future__ import annotations

import math

import pytest
from bench_modules import load_bench

ratings = load_bench("ratings")


def expected_results(mu: dict[str, float], games: int) -> dict[tuple[str, str], list[float]]:
    """Every pair's scores as the curve predicts them (wins rounded to whole matches)."""
    results = {}
    for i, a in enumerate(ratings.LEVELS):
        for b in ratings.LEVELS[i + 1 :]:
            won = round(games / (1 + math.exp(-(mu[a] - mu[b]) / ratings.SCALE)))
            results[(a, b)] = [1.0] * won + [0.0] * (games - won)
    return results


def test_the_fit_recovers_the_strengths_that_made_the_results() -> None:
    truth = {"random": 0.0, "greedy": 5.0, "strategist": 15.0, "expert": 18.0}
    fitted = ratings.fit(expected_results(truth, 20_000))
    for level, mu in truth.items():
        assert fitted[level] == pytest.approx(mu, abs=0.05), (level, fitted)


def test_shown_ratings_are_40_a_mu_apart_from_the_anchor() -> None:
    shown = ratings.shown({"random": 2.0, "greedy": 7.0, "strategist": 12.0, "expert": 12.5})
    assert shown == {
        "random": ratings.ANCHOR,
        "greedy": ratings.ANCHOR + 200,
        "strategist": ratings.ANCHOR + 400,
        "expert": ratings.ANCHOR + 420,
    }


def test_a_clean_sweep_stays_finite() -> None:
    results = {
        (a, b): [0.0] * 50  # the stronger level (later in LEVELS) wins every match
        for i, a in enumerate(ratings.LEVELS)
        for b in ratings.LEVELS[i + 1 :]
    }
    fitted = ratings.fit(results)
    assert all(math.isfinite(mu) for mu in fitted.values())
    assert fitted["random"] < fitted["greedy"] < fitted["strategist"] < fitted["expert"]
