"""The pure helpers of bench/bots.py and what it shares with bench/duel.py (bench/_stats.py,
bench/_tally.py): the Wilson interval, decision seeds, seatings, outcomes, tallies."""

from __future__ import annotations

import pytest
from bench_modules import load_bench

bots = load_bench("bots")
stats = load_bench("_stats")


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (0, 10, 0.0, 0.27753),  # upper bound z^2 / (n + z^2)
        (10, 10, 0.72247, 1.0),
        (50, 100, 0.40383, 0.59617),
        (81, 263, 0.25529, 0.36621),  # Newcombe (1998)'s example: 0.2553-0.3662
    ],
)
def test_wilson_matches_known_intervals(
    successes: int, trials: int, low: float, high: float
) -> None:
    got = stats.wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_and_holds_the_proportion() -> None:
    for trials in (1, 7, 200, 2000):
        for successes in range(0, trials + 1, max(1, trials // 13)):
            low, high = stats.wilson(successes, trials)
            mirror_low, mirror_high = stats.wilson(trials - successes, trials)
            assert low == pytest.approx(1 - mirror_high)
            assert high == pytest.approx(1 - mirror_low)
            assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_paired_half_width_is_zero_without_spread_and_shrinks_with_deals() -> None:
    assert bots.paired_half_width(10, 0, 0) == 0.0
    # all deals split: every deal scores 1/2, no spread between deals
    assert bots.paired_half_width(0, 10, 0) == 0.0
    wide = bots.paired_half_width(5, 0, 5)
    # ten deals scoring 1 or 0: sample variance 0.25 * 10 / 9
    assert wide == pytest.approx(stats.Z95 * (0.25 * 10 / 9 / 10) ** 0.5)
    assert bots.paired_half_width(500, 0, 500) < wide


def test_decision_seeds_are_distinct_and_bounded() -> None:
    seeds = {stats.decision_seed(d, s, p) for d in range(30) for s in (0, 1) for p in range(300)}
    assert len(seeds) == 30 * 2 * 300
    with pytest.raises(ValueError):
        stats.decision_seed(0, 0, 1 << stats.PLY_BITS)
    with pytest.raises(ValueError):
        stats.decision_seed(0, 2, 0)


def test_seatings_swap_the_sides() -> None:
    assert bots.side_levels("strategist", "random", 2, 0) == ["strategist", "random"]
    assert bots.side_levels("strategist", "random", 2, 1) == ["random", "strategist"]
    assert bots.side_levels("a", "b", 4, 0) == ["a", "b", "a", "b"]
    assert bots.side_levels("a", "b", 4, 1) == ["b", "a", "b", "a"]


def test_outcome_counts_the_side_that_won_the_hand() -> None:
    assert bots.outcome([0], 0) == 1
    assert bots.outcome([0], 1) == -1
    assert bots.outcome([1, 3], 1) == 1
    assert bots.outcome([0, 2], 1) == -1
    assert bots.outcome([2], 0) == 1  # clasico with 4: seat 2 is A's when A holds 0 and 2
    assert bots.outcome([], 0) == 0  # nobody won


def test_side_points_count_a_pair_once_and_players_by_side() -> None:
    assert bots.side_points((30, 0, 30, 0), 0, True) == (30, 0)
    assert bots.side_points((30, 0, 30, 0), 1, True) == (0, 30)
    assert bots.side_points((0, 0, 25, 0), 0, False) == (25, 0)
    assert bots.side_points((0, 0, 25, 0), 1, False) == (0, 25)


@pytest.mark.parametrize(("preset", "players"), [("parejas-111", 4), ("clasico", 4)])
def test_tallies_add_up_and_a_deal_repeats(preset: str, players: int) -> None:
    thinking = {"samples": 3}
    first = bots.play_deals(preset, players, "expert", "random", range(3, 6), thinking)
    again = bots.play_deals(preset, players, "expert", "random", range(3, 6), thinking)
    same = ("hands", "wins", "losses", "ties", "points", "points_against", "deals_won", "plies")
    assert [getattr(first, f) for f in same] == [getattr(again, f) for f in same]
    assert first.hands == 6 == first.wins + first.losses + first.ties
    assert sum(first.deals_won) == 3
    assert first.points + first.points_against > 0 and first.points >= 0
    assert len(first.times) >= len(first.chosen) > 0  # the expert's decisions were timed
    total = bots.Tally()
    total.add(first)
    total.add(again)
    assert total.hands == 12 and total.wins == 2 * first.wins
    assert len(total.times) == 2 * len(first.times)


def test_told_puts_only_what_it_names_into_every_world() -> None:
    """``--told``: every hand as dealt; the tiles out of play as they are, the hands dealt from
    the rest; the partner's hand as it is, the others dealt around it."""
    import random

    from domino.engine import Match, expert, resolve_rules

    match = Match.start(resolve_rules("cubano", 4), seed=3)
    seat, rng = match.turn, random.Random(1)
    assert seat is not None
    hands, boneyard = bots.told_observe("hands", expert.observe)(match, seat).sample(rng)
    assert (hands, boneyard) == (match.hands, match.boneyard)
    asleep = sum(1 << t for t in match.boneyard)
    for _ in range(5):
        hands, boneyard = bots.told_observe("asleep", expert.observe)(match, seat).sample(rng)
        assert sorted(boneyard) == sorted(match.boneyard)
        assert not any(hand & asleep for hand in hands)
        partner = (seat + 2) % 4
        hands, boneyard = bots.told_observe("partner", expert.observe)(match, seat).sample(rng)
        assert hands[partner] == match.hands[partner] and hands[seat] == match.hands[seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in match.hands]
    others = [s for s in range(4) if s not in (seat, (seat + 2) % 4)]
    told = bots.told_observe("partner", expert.observe)
    dealt = [told(match, seat).sample(rng)[0] for _ in range(20)]
    assert any(d[others[0]] != match.hands[others[0]] for d in dealt)  # the rest still dealt


def test_told_partner_voids_deals_the_partner_only_numbers_it_holds() -> None:
    """``--told partner-voids``: the partner's hand in every world holds no tile of a number its
    real hand lacks, and is still dealt (not its real hand every time)."""
    import random

    from domino.engine import Match, expert, resolve_rules
    from domino.engine.tiles import SUIT

    # the partner of the seat on turn lacks 2 and 8
    match = Match.start(resolve_rules("cubano", 4), seed=1)
    seat, rng = match.turn, random.Random(1)
    assert seat is not None
    partner = (seat + 2) % 4
    lacked = [n for n in range(10) if not match.hands[partner] & SUIT[n]]
    assert lacked == [2, 8]
    told = bots.told_observe("partner-voids", expert.observe)
    dealt = [told(match, seat).sample(rng)[0] for _ in range(30)]
    for hands in dealt:
        assert not any(hands[partner] & SUIT[n] for n in lacked)
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in match.hands]
        assert hands[seat] == match.hands[seat]
    assert any(hands[partner] != match.hands[partner] for hands in dealt)


def test_told_partner_needs_a_preset_played_in_pairs() -> None:
    from domino.engine import Match, expert, resolve_rules

    match = Match.start(resolve_rules("dos-jugadores", 2), seed=1)
    assert match.turn is not None
    for told in ("partner", "partner-voids"):
        with pytest.raises(ValueError, match="only a preset played in pairs"):
            bots.told_observe(told, expert.observe)(match, match.turn)
