"""The engine's sealed surface (issue 21, item 5): ``Match.restore`` rebuilds a match from its
public attributes alone, ``Layout.lay`` lays a tile as the match does, and the layout names
belong to ``layouts`` in the order the encoding numbers them."""

from __future__ import annotations

import random
from typing import get_args

import pytest
from domino.engine import LAYOUTS, PRESETS, Match, decode, encode, resolve_rules
from domino.engine.layouts import TRAINS, LayoutName
from domino.engine.movelog import PLAY_CODES
from domino.engine.rules import CHOICES, LAYOUT
from domino.engine.tiles import LOW
from engine_helpers import random_step

CASES = [("clasico", 4), ("parejas-111", 4), ("pool", 3), ("cruzado", 4), ("chipre", 6)]


def restored(m: Match) -> Match:
    """``m`` through ``Match.restore`` from its public attributes (copies of its lists)."""
    return Match.restore(
        m.rules,
        seed=m.seed,
        status=m.status,
        hand_number=m.hand_number,
        reshuffles=m.reshuffles,
        opener=m.opener,
        turn=m.turn,
        forced=m.forced,
        passes=m.passes,
        hands=list(m.hands),
        boneyard=list(m.boneyard),
        scores=list(m.scores),
        chips=None if m.chips is None else list(m.chips),
        pot=m.pot,
        forfeits=list(m.forfeits),
        ended=m.ended,
        match_winners=m.match_winners_,
        is_draw=m.is_draw,
        start_at=m.start_at,
        first_held_n=m.first_held_n,
        prev_log=list(m.prev_log),
        log=list(m.log),
    )


@pytest.mark.parametrize(("pid", "n"), CASES)
def test_restore_rebuilds_the_match_from_its_public_attributes(pid: str, n: int) -> None:
    for seed in range(8):
        m = Match.start(resolve_rules(pid, n), seed=seed, at=100)
        rng = random.Random(seed)
        for step in range(400):
            if m.status != "playing":
                break
            random_step(m, rng)
            if step % 5:
                continue
            r = restored(m)
            assert encode(r) == encode(m)
            assert (r.ends, r.arm_len, r.open_arms) == (m.ends, m.arm_len, m.open_arms)
            assert [r.view(s) for s in (None, *range(n))] == [m.view(s) for s in (None, *range(n))]
            assert r.legal_moves() == m.legal_moves() and r.can_draw() == m.can_draw()
            assert encode(decode(encode(m))) == encode(m)
        # and it plays on as the original does
        twin, rng2 = restored(m), random.Random(seed + 1)
        rng3 = random.Random(seed + 1)
        for _ in range(30):
            if m.status != "playing":
                break
            random_step(m, rng2)
            random_step(twin, rng3)
            assert encode(twin) == encode(m)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_lay_replays_the_board_as_the_match_lays_it(layout: str) -> None:
    pid, n = {
        "line": ("clasico", 4),
        "cross": ("cruzado", 4),
        "star": ("chipre", 6),
        "spinner": ("all-fives", 4),
        "trains": ("tren-mexicano", 4),
    }[layout]
    for seed in range(20):
        m = Match.start(resolve_rules(pid, n), seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            if m.status != "playing" or m.hand_number != 1:
                break
            random_step(m, rng)
        board = m.layout
        ends, arm_len = board.empty()
        open_arms: tuple[int, ...] = ()
        if m.trains is not None:  # a station instead of a first tile
            TRAINS.open_station(ends, LOW[m.trains.engine])
            open_arms = m.open_arms
        for code, _seat, tid, arm, _at in m.log:
            if code in PLAY_CODES:
                open_arms = board.lay(ends, arm_len, tid, arm)
        if m.hand_number == 1 and m.status == "playing":
            assert (ends, arm_len, open_arms) == (m.ends, m.arm_len, m.open_arms)


def test_the_layout_names_are_the_layouts_in_encoding_order() -> None:
    assert get_args(LayoutName) == tuple(LAYOUTS) == LAYOUT == CHOICES["layout"]
    assert {p.rules["layout"] for p in PRESETS.values()} <= set(LAYOUTS)


def test_the_read_only_properties_say_what_the_rules_fix() -> None:
    two = Match.start(resolve_rules("buho21", 3), seed=1)  # counterclockwise
    assert two.next_seats == (2, 0, 1)
    assert two.kept == 0
    assert Match.start(resolve_rules("clasico", 4), seed=1).kept == 1
    assert Match.start(resolve_rules("parejas-111", 4), seed=1).kept >= 1 << 30  # draw: none
    m = Match.start(resolve_rules("dos-jugadores", 2), seed=3)
    assert m.ended is None and m.last is None
    rng = random.Random(3)
    while m.hand_number == 1:
        random_step(m, rng)
    assert m.ended is not None and m.last is not None
    number, end, winners, points, hands, seat = m.ended
    assert (number, end, winners, points, hands) == (
        m.last.number,
        m.last.end,
        m.last.winners,
        m.last.points,
        m.last.hands,
    )
    assert seat == (-1 if m.last.deciding_seat is None else m.last.deciding_seat)
