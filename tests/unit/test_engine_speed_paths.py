"""The engine's speed mechanisms give exactly what the plain computations give: the paired
Fisher-Yates steps of the unseeded shuffle, the per-byte pip tables, the legal-move cache when it
misses or is full, the ruleset kit cache, and ``apply`` with move objects that are not shared."""

from __future__ import annotations

import random

import pytest
from domino.engine import DRAW, PASS, HandEnd, Match, Pass, Play, parse_tile, resolve_rules
from domino.engine import deal as deal_module
from domino.engine import kit as kit_module
from domino.engine.deal import csprng_shuffle, fy_plan
from domino.engine.scoring import score_hand
from domino.engine.tiles import HIGH, LOW, N_ALL, PIP_BYTES, PIPS, pips_of


def plain_fisher_yates(data: bytes, total: int, head: int) -> tuple[list[int], int]:
    """The shuffle one divmod a step, as it was first written (the reference)."""
    x = int.from_bytes(data, "little")
    tiles = list(range(total))
    for i in range(total - 1, head - 1 if head > 0 else 0, -1):
        x, j = divmod(x, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles, x


@pytest.mark.parametrize(
    ("total", "head"),
    [(1, 1), (2, 0), (3, 1), (4, 2), (5, 0), (28, 1), (28, 7), (29, 7), (55, 9), (136, 1)],
)
def test_paired_steps_shuffle_as_single_steps(
    monkeypatch: pytest.MonkeyPatch, total: int, head: int
) -> None:
    """Two steps in one divmod draw the same numbers: the same bytes give the same order and
    the same lot as one step at a time (single steps above the table bound, pairs below)."""
    rng = random.Random(total * 100 + head)
    nbytes = fy_plan(total, head)[0]
    for _ in range(30):
        data = rng.randbytes(nbytes)
        monkeypatch.setattr(deal_module.os, "urandom", lambda n, d=data: d[:n])
        assert csprng_shuffle(total, head) == plain_fisher_yates(data, total, head)


def test_shuffle_plan_tables_stay_small() -> None:
    """Pair tables only where k * (k - 1) <= PAIR_MAX: the largest set adds a few thousand."""
    _, single, pairs, _ = fy_plan(136, 1)
    assert all(kk <= deal_module.PAIR_MAX and len(t) == kk for _, kk, t in pairs)
    assert single[0] == 135 and all((i + 1) * i > deal_module.PAIR_MAX for i in single)
    assert sum(len(t) for _, _, t in pairs) < 12_000


def test_pip_byte_tables() -> None:
    rng = random.Random(5)
    for _ in range(500):
        mask = rng.getrandbits(N_ALL)
        by_id = sum(PIPS[i] for i in range(N_ALL) if mask >> i & 1)
        by_bytes = sum(PIP_BYTES[k][b] for k, b in enumerate(mask.to_bytes(17, "little")))
        assert by_bytes == by_id == pips_of(mask)


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("parejas-111", 4, None),
        ("clasico", 3, {"set": 9, "hand_size": 10}),
        ("chipre", 5, None),
        ("clasico", 4, {"set": 15, "hand_size": 20}),
    ],
)
def test_hand_end_pips_for_every_set(preset: str, players: int, overrides: dict | None) -> None:
    """A hand's points come from each hand's pips: the tables agree with the tiles themselves."""
    rules = resolve_rules(preset, players, overrides)
    rng = random.Random(1)
    for seed in range(5):
        m = Match.start(rules, seed=seed)
        order = m.play_order()
        while m.last is None:
            legal = m.legal_moves()
            move = rng.choice(legal) if legal else (DRAW if m.can_draw() else PASS)
            m.apply(m.turn, move, 0)
        last = m.last
        pips = [sum(PIPS[t] for t in range(N_ALL) if h >> t & 1) for h in last.hands]
        assert [pips_of(h) for h in last.hands] == pips
        domino = last.end is HandEnd.DOMINO
        outcome = score_hand(rules, pips, last.end, last.deciding_seat if domino else None, order)
        assert tuple(outcome.points) == last.points


def test_legal_moves_when_the_cache_misses_or_is_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line layout's cache is read by subscript; a miss fills it, a full cache still answers."""
    rules = resolve_rules("parejas-111", 4)
    rng = random.Random(3)
    games = []
    for cap in (kit_module.LEGAL_CACHE_MAX, 0):
        monkeypatch.setattr(kit_module, "LEGAL_CACHE_MAX", cap)
        for cache in kit_module.LEGAL_CACHE["line"]:
            cache.clear()
        seen = []
        for seed in range(10):
            m = Match.start(rules, seed=seed)
            while m.status == "playing":
                legal = m.legal_moves()
                hand = m.hands[m.turn]
                if m.open_arms:  # every held tile once per open end it fits, and nothing else
                    expected = {
                        (t, ("left", "right")[arm])
                        for arm in m.open_arms
                        for t in range(28)
                        if hand >> t & 1 and m.ends[arm] in (LOW[t], HIGH[t])
                    }
                    assert {(p.tile.id, p.end) for p in legal} == expected
                    assert len(legal) == len(expected)
                seen.append([(str(p.tile), p.end) for p in legal])
                move = rng.choice(legal) if legal else PASS
                m.apply(m.turn, move, 0)
        if cap == 0:
            assert all(not c for c in kit_module.LEGAL_CACHE["line"])
        games.append(seen)
        rng = random.Random(3)
    assert games[0] == games[1]


def test_moves_that_are_not_the_shared_objects() -> None:
    """Equal Play objects and other Pass instances take the full checks, with the same effect."""
    hands = [
        ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-0"],
        ["1-1", "1-2", "1-3", "1-4", "1-5", "2-2", "2-3"],
        ["6-1", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
        ["3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "0-6"],
    ]
    m = Match.start(resolve_rules("parejas-111", 4), deal={"hands": hands})
    m.apply(0, Play(parse_tile("6-6", 6)), 1)
    assert m.can_pass()
    m.apply(1, Pass(), 2)  # not the PASS singleton
    assert m.turn == 2 and m.passes == 1
    m.apply(2, Play(parse_tile("1-6", 6), "right"), 3)
    assert m.ends == [6, 1] and m.passes == 0


def test_kit_follows_the_ruleset_object() -> None:
    """The last ruleset's kit is reused by identity; another ruleset gets its own."""
    two = resolve_rules("dos-jugadores", 2)
    four = resolve_rules("cruzado", 4)
    for rules in (two, four, two, resolve_rules("dos-jugadores", 2), four):
        m = Match.start(rules, seed=1)
        assert len(m.ends) == (2 if rules.layout == "line" else 4)
        orders, dealing = kit_module.kit_of(rules)[9:]
        assert orders == tuple(
            tuple((first + i) % rules.players for i in range(rules.players))
            for first in range(rules.players)
        )
        assert m.play_order() == list(orders[m.opener])
        assert m.next_seats == tuple((s + 1) % rules.players for s in range(rules.players))
        assert dealing[0] == 28 and dealing[2] == rules.players * rules.hand_size
