"""Shuffles (CSPRNG and seeded) and the fast paths of ``Match.apply``."""

from __future__ import annotations

import itertools
import random
import secrets
from collections import Counter

import pytest
from domino.engine import (
    CEDE,
    DRAW,
    PASS,
    PRESETS,
    IllegalMove,
    InvalidInput,
    Match,
    Play,
    encode,
    parse_tile,
    resolve_rules,
)
from domino.engine.deal import csprng_shuffle, seeded_shuffle
from domino.engine.kit import PLAYS
from domino.engine.tiles import TEXT, show_mask
from domino.service.writes import SEED_BITS

# chi-square critical values at p = 1e-5 (a false alarm once in 100 000 runs)
CHI2_23_DOF = 62.0
CHI2_11_DOF = 42.0
CHI2_3_DOF = 25.9

DJ_99_BONEYARD = ["0-0", "2-2", "6-6", "0-2", "2-4", "0-4", "3-4", "1-2", "4-6", "3-6", "2-3"]
DJ_99_BONEYARD += ["4-5", "5-5", "0-6"]


def chi_square(counts: Counter, cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def test_csprng_shuffle_is_a_permutation_with_a_big_lot() -> None:
    for total in (1, 2, 28, 55, 91, 136):
        tiles, lot = csprng_shuffle(total)
        assert sorted(tiles) == list(range(total))
        assert lot >= 0
    # the lot keeps at least 128 random bits: never the same twice in practice
    assert len({csprng_shuffle(28)[1] for _ in range(200)}) == 200


def test_csprng_shuffle_is_uniform() -> None:
    """Every order of 4 items about equally often (chi-square, 23 degrees of freedom); the
    position of each item and the lot modulo 4 too."""
    n = 24_000
    index = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    orders: Counter = Counter()
    lots: Counter = Counter()
    firsts: Counter = Counter()
    for _ in range(n):
        tiles, lot = csprng_shuffle(4)
        orders[index[tuple(tiles)]] += 1
        lots[lot % 4] += 1
        firsts[tiles[0]] += 1
    assert chi_square(orders, 24, n) < CHI2_23_DOF
    assert chi_square(lots, 4, n) < CHI2_3_DOF
    assert chi_square(firsts, 4, n) < CHI2_3_DOF


def test_a_secret_seeds_shuffle_is_uniform() -> None:
    """The deals of a game the service seeds (``writes.deal``: 128 bits of ``secrets``, expanded
    by SHAKE-256): every order of 4 items about equally often over random seeds, and the lot."""
    n = 24_000
    index = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    orders: Counter = Counter()
    lots: Counter = Counter()
    for _ in range(n):
        tiles, lot = seeded_shuffle(secrets.randbits(SEED_BITS), 1, 0, 4)
        orders[index[tuple(tiles)]] += 1
        lots[lot % 4] += 1
    assert chi_square(orders, 24, n) < CHI2_23_DOF
    assert chi_square(lots, 4, n) < CHI2_3_DOF


def test_csprng_shuffle_head_is_a_uniform_set() -> None:
    """``head`` items whose order is left alone (a hand): which ones they are, and the order of
    the rest, are still uniform (4 items, head 2: 12 outcomes, 11 degrees of freedom)."""
    n = 12_000
    outcomes = sorted(
        {(frozenset(p[:2]), p[2:]) for p in itertools.permutations(range(4))}, key=repr
    )
    index = {o: i for i, o in enumerate(outcomes)}
    counts: Counter = Counter()
    for _ in range(n):
        tiles, _lot = csprng_shuffle(4, 2)
        assert sorted(tiles) == [0, 1, 2, 3]
        counts[index[frozenset(tiles[:2]), tuple(tiles[2:])]] += 1
    assert len(outcomes) == 12
    assert chi_square(counts, 12, n) < CHI2_11_DOF


def test_unseeded_deals_differ_and_hold_every_tile_once() -> None:
    rules = resolve_rules("clasico", 4)
    deals = set()
    for _ in range(50):
        m = Match.start(rules)
        ids = [t for h in m.hands for t in range(28) if h >> t & 1] + list(m.boneyard)
        assert sorted(ids) == list(range(28))
        deals.add((tuple(m.hands), tuple(m.boneyard)))
    assert len(deals) == 50


@pytest.mark.parametrize(
    ("preset", "players", "seed", "hands", "boneyard", "opener"),
    [
        (
            "clasico",
            4,
            12345,
            [
                ["0-0", "1-4", "2-5", "3-3", "3-6", "4-6"],
                ["0-2", "0-6", "1-6", "3-4", "4-4", "4-5"],
                ["0-3", "0-4", "1-1", "2-2", "2-3", "5-6"],
                ["0-1", "0-5", "1-5", "2-6", "3-5", "6-6"],
            ],
            ["1-2", "5-5", "1-3", "2-4"],
            3,
        ),
        (
            "dos-jugadores",
            2,
            99,
            [
                ["0-1", "1-3", "1-5", "1-6", "2-5", "2-6", "4-4"],
                ["0-3", "0-5", "1-1", "1-4", "3-3", "3-5", "5-6"],
            ],
            DJ_99_BONEYARD,
            0,
        ),
    ],
)
def test_a_seed_deals_what_it_always_dealt(
    preset: str, players: int, seed: int, hands: list, boneyard: list, opener: int
) -> None:
    """Seeded games are replayed by tests and dev tools: a seed's deal must never change."""
    m = Match.start(resolve_rules(preset, players), seed=seed)
    assert [show_mask(h) for h in m.hands] == hands
    assert [TEXT[t] for t in reversed(m.boneyard)] == boneyard
    assert m.opener == opener


def test_fast_path_checks_shared_play_objects() -> None:
    """``legal_moves`` hands out shared Play objects; ``apply`` takes them on a fast path that
    must refuse exactly what the full checks refuse."""
    hands = [
        ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
        ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
        ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "0-0"],
    ]
    m = Match.start(resolve_rules("parejas-111", 4), deal={"hands": hands})
    shared = PLAYS["line"]

    def tid(text: str) -> int:
        return parse_tile(text, 6).id

    assert m.opener == 0 and m.legal_moves() == [Play(parse_tile("6-6", 6))]
    with pytest.raises(IllegalMove) as e:
        m.apply(0, shared[tid("0-1")][0], 1)
    assert e.value.code == "must_lead_opening_tile"
    with pytest.raises(IllegalMove) as e:
        m.apply(0, shared[tid("1-1")][0], 1)
    assert e.value.code == "tile_not_in_hand"
    with pytest.raises(IllegalMove) as e:
        m.apply(1, shared[tid("1-1")][0], 1)
    assert e.value.code == "not_your_turn"
    m.apply(0, m.legal_moves()[0], 1)
    assert m.board == [(tid("6-6"), 0, -1)] and m.open_arms == (0, 1)
    # seat 1 holds 1-6: it fits either end; 1-1 fits neither
    with pytest.raises(IllegalMove) as e:
        m.apply(1, shared[tid("1-1")][1], 2)
    assert e.value.code == "tile_does_not_match"
    with pytest.raises(IllegalMove) as e:
        m.apply(1, shared[tid("1-6")][0], 2)
    assert e.value.code == "end_required"
    m.apply(1, shared[tid("1-6")][2], 2)
    assert m.board == [(tid("6-6"), 0, -1), (tid("1-6"), 1, 1)] and m.ends == [6, 1]
    assert [(c, s, t, a) for c, s, t, a, _ in m.log] == [
        (0, 0, tid("6-6"), -1),
        (0, 1, tid("1-6"), 1),
    ]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_shared_play_objects_and_new_ones_make_the_same_match(preset: str) -> None:
    """The fast path (the objects ``legal_moves`` hands out) and the full checks (a Play made
    anew, as a request's) change a match alike, byte for byte, in every preset (scoring during
    play, trains and cedes take the full path either way)."""
    rules = resolve_rules(preset, PRESETS[preset].min_players)
    for seed in range(3):
        fast, full = Match.start(rules, seed=seed), Match.start(rules, seed=seed)
        rng = random.Random(seed)
        at = 0
        while fast.status == "playing":
            legal = fast.legal_moves()
            move = rng.choice(legal) if legal else DRAW if fast.can_draw() else PASS
            if fast.can_cede() and rng.random() < 0.5:
                move = CEDE
            fresh = Play(move.tile, move.end) if isinstance(move, Play) else move
            assert fresh is not move or not isinstance(move, Play)
            at += 1
            said = [m.apply(m.turn, mv, at) for m, mv in ((fast, move), (full, fresh))]
            assert len({(r.drawn, r.hand_over, r.match_over, r.hand_number) for r in said}) == 1
            assert encode(fast) == encode(full)


def test_another_layouts_shared_play_takes_the_full_checks() -> None:
    """A shared Play object of the cross layout says "north", its arm 0: a line match's fast path
    must not read it as its own arm 0 ("left"), but refuse it as a new Play(tile, "north")."""
    m = Match.start(resolve_rules("parejas-111", 4), seed=5)
    m.apply(m.turn, m.legal_moves()[0], 1)
    seat = m.turn
    assert seat is not None
    legal = m.legal_moves()
    assert legal  # seed 5's second seat has a play (a seed's deal never changes)
    tid = legal[0].tile.id
    north = PLAYS["cross"][tid][1]
    assert north.end == "north" and north.tile.id == tid
    before = encode(m)
    for move in (north, Play(north.tile, "north")):
        with pytest.raises(InvalidInput):
            m.apply(seat, move, 2)
    assert encode(m) == before
