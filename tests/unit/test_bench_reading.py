"""bench/_reading.py, bench/bots.py's ``--reads`` what-if: its mirror of the strategist's score
picks what the strategist picks, and the plays it reads make the true hands likelier than the
worlds the seat's knowledge deals."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from typing import Any

import pytest
from bench_modules import load_bench
from domino.engine import Match, choose_move, expert, resolve_rules
from domino.engine.tiles import HIGH, LOW

reading = load_bench("_reading")


def strategist_plies(preset: str, deals: int) -> Iterator[tuple[Match, int, Any, int]]:
    """The first hand of deals 0 .. ``deals`` - 1, strategists on every seat: (match, seat on
    turn, the move it makes, ply) before each move is made."""
    rules = resolve_rules(preset, 4)
    for deal in range(deals):
        match = Match.start(rules, seed=deal, at=0)
        ply = 0
        while match.status == "playing" and match.hand_number == 1:
            seat = match.turn
            assert seat is not None
            move = choose_move(match, seat, "strategist", seed=ply)
            yield match, seat, move, ply
            match.apply(seat, move, ply)
            ply += 1


@pytest.mark.parametrize("preset", ["cubano", "parejas-111"])
def test_the_mirror_scores_the_strategists_plays_best(preset: str) -> None:
    top = resolve_rules(preset, 4).set
    checked = 0
    last: tuple[int, Any, int] | None = None  # the play before: (seat, move, hand), with a choice
    for match, seat, move, ply in strategist_plies(preset, 12):
        if ply and last is not None:
            played, made_move, hand = last
            # that play, read by a seat on the other side, in the true world
            (seen,) = reading.plays_seen(match, (played + 1) % 4, "opponents")[-1:]
            assert seen.seat == played and seen.tile == made_move.tile.id
            choices = reading.options(seen, hand)
            if len(choices) >= 2:
                count = [0] * (top + 1)
                for tile in range(64):
                    if hand >> tile & 1:
                        count[LOW[tile]] += 1
                        if HIGH[tile] != LOW[tile]:
                            count[HIGH[tile]] += 1
                values = {c: reading.score(seen, count, *c, top) for c in choices}
                made = max(v for (tile, _), v in values.items() if tile == made_move.tile.id)
                assert made >= max(values.values()) - 1e-9, (ply, made_move, values)
                checked += 1
        chose = len({p.tile.id for p in match.legal_moves()}) > 1
        last = (seat, move, match.hands[seat]) if chose else None
    assert checked > 40


def test_the_plays_read_make_the_true_hands_likelier_than_dealt_worlds() -> None:
    top = resolve_rules("cubano", 4).set
    ranks = []
    for match, seat, _, ply in strategist_plies("cubano", 6):
        seen = reading.plays_seen(match, seat, "opponents")
        if ply >= 8 and seen:
            know = expert.observe(match, seat)
            rng = random.Random(ply)
            truth = reading.log_likelihood(seen, match.hands, top, 3.0)
            dealt = [reading.log_likelihood(seen, know.sample(rng)[0], top, 3.0) for _ in range(40)]
            ranks.append(sum(v < truth for v in dealt) + sum(v == truth for v in dealt) / 2)
    # 20 would be a reading that tells nothing
    assert len(ranks) > 20 and statistics.mean(ranks) > 30


@pytest.mark.parametrize("preset", ["cubano", "clasico"])
def test_a_chain_keeps_every_world_dealable_and_reads_the_plays(preset: str) -> None:
    """Every world of ``chain_observe`` is one the seat's knowledge could deal (each hand its
    size, within its voids and caps, every unseen tile once), and its worlds are likelier under
    the plays read than plain deals are. clasico's draws give caps; cubano has none."""
    top = resolve_rules(preset, 4).set
    chained, plain = [], []
    for match, seat, _, ply in strategist_plies(preset, 6):
        seen = reading.plays_seen(match, seat, "opponents")
        if ply < 8 or not seen:
            continue
        know = expert.observe(match, seat)
        chain = reading.chain_observe("opponents", 3.0, 8, expert.observe)(match, seat)
        rng = random.Random(ply)
        for _ in range(10):
            hands, boneyard = chain.sample(rng)
            assert hands[seat] == know.mine and len(boneyard) == know.boneyard
            assert (
                sorted(
                    boneyard
                    + [t for s, h in enumerate(hands) if s != seat for t in range(64) if h >> t & 1]
                )
                == know.unseen
            )
            for s, hand in enumerate(hands):
                assert hand.bit_count() == know.counts[s] and not hand & know.void[s]
                assert all((hand & tiles).bit_count() <= most for tiles, most in know.caps[s])
            chained.append(reading.log_likelihood(seen, hands, top, 3.0))
            plain.append(reading.log_likelihood(seen, know.sample(rng)[0], top, 3.0))
    assert len(chained) > 100
    assert statistics.mean(chained) > statistics.mean(plain) + 1.0


def test_a_chain_never_swaps_a_seat_past_its_cap() -> None:
    """A seat capped at one tile of a number (as a draw after a pass leaves it) never holds two
    in the chain's worlds, however freely it swaps (beta 0: every swap within the rules kept)."""
    match, seat = next((m, s) for m, s, _, ply in strategist_plies("clasico", 1) if ply == 8)
    other = (seat + 1) % 4
    capped = 0
    for tile in expert.observe(match, seat).unseen:
        if 6 in (LOW[tile], HIGH[tile]):
            capped |= 1 << tile

    def observe(m: Match, s: int) -> Any:
        know = expert.observe(m, s)
        know.caps[other] = [(capped, 1)]
        return know

    chain = reading.chain_observe("opponents", 0.0, 50, observe)(match, seat)
    assert chain.by_seat and capped.bit_count() >= 3
    rng = random.Random(1)
    held = [(chain.sample(rng)[0][other] & capped).bit_count() for _ in range(40)]
    assert max(held) == 1  # it reaches the cap, and never passes it
