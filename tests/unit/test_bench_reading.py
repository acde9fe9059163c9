"""bench/_reading.py, bench/bots.py's ``--reads`` what-if: its mirror of the strategist's score
picks what the strategist picks, and the plays it reads make the true hands likelier than the
worlds the seat's knowledge deals."""

from __future__ import annotations

import random
import statistics

import pytest
from bench_modules import load_bench
from domino.engine import Match, choose_move, expert, resolve_rules
from domino.engine.tiles import HIGH, LOW

reading = load_bench("_reading")


@pytest.mark.parametrize("preset", ["cubano", "parejas-111"])
def test_the_mirror_scores_the_strategists_plays_best(preset: str) -> None:
    rules = resolve_rules(preset, 4)
    checked = 0
    for deal in range(12):
        match = Match.start(rules, seed=deal, at=0)
        ply = 0
        while match.status == "playing" and match.hand_number == 1:
            seat = match.turn
            assert seat is not None
            move = choose_move(match, seat, "strategist", seed=ply)
            hand = match.hands[seat]
            chose = len({p.tile.id for p in match.legal_moves()}) > 1
            match.apply(seat, move, ply)
            ply += 1
            if match.status != "playing" or match.hand_number != 1 or not chose:
                continue
            # the play just made, read by a seat on the other side, in the true world
            (seen,) = reading.plays_seen(match, (seat + 1) % 4, "opponents")[-1:]
            assert seen.seat == seat and seen.tile == move.tile.id
            choices = reading.options(seen, hand)
            if len(choices) < 2:
                continue
            count = [0] * (rules.set + 1)
            for tile in range(64):
                if hand >> tile & 1:
                    count[LOW[tile]] += 1
                    if HIGH[tile] != LOW[tile]:
                        count[HIGH[tile]] += 1
            values = {c: reading.score(seen, count, *c, rules.set) for c in choices}
            made = max(v for (tile, _), v in values.items() if tile == move.tile.id)
            assert made >= max(values.values()) - 1e-9, (deal, ply, move, values)
            checked += 1
    assert checked > 40


def test_the_plays_read_make_the_true_hands_likelier_than_dealt_worlds() -> None:
    rules = resolve_rules("cubano", 4)
    ranks = []
    for deal in range(6):
        match = Match.start(rules, seed=deal, at=0)
        ply = 0
        while match.status == "playing" and match.hand_number == 1:
            seat = match.turn
            assert seat is not None
            seen = reading.plays_seen(match, seat, "opponents")
            if ply >= 8 and seen:
                know = expert.observe(match, seat)
                rng = random.Random(ply)
                truth = reading.log_likelihood(seen, match.hands, rules.set, 3.0)
                dealt = [
                    reading.log_likelihood(seen, know.sample(rng)[0], rules.set, 3.0)
                    for _ in range(40)
                ]
                ranks.append(sum(v < truth for v in dealt) + sum(v == truth for v in dealt) / 2)
            match.apply(seat, choose_move(match, seat, "strategist", seed=ply), ply)
            ply += 1
    # 20 would be a reading that tells nothing
    assert len(ranks) > 20 and statistics.mean(ranks) > 30
