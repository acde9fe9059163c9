"""Views, the move log, timeouts and forfeits, the encoding and the bots."""

from __future__ import annotations

import json
import random

import pytest
from domino.engine import (
    DRAW,
    PASS,
    PRESETS,
    IllegalMove,
    InvalidInput,
    Match,
    choose_move,
    decode,
    encode,
    redact_move,
    resolve_rules,
)
from engine_helpers import draw, play, random_step, rest_of, start

C3 = [
    ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
    ["6-6", "5-6", "3-4", "0-3", "2-3", "3-3"],
    ["1-3", "0-4", "1-4", "2-4", "4-4", "0-5"],
]

VIEW_KEYS = {
    "hand_number",
    "opener",
    "turn",
    "reshuffles",
    "pot",
    "board",
    "boneyard",
    "drawable",
    "last_hand",
    "result",
    "seat_stats",
}


# ---------------------------------------------------------------- views


def test_view_keys_and_you() -> None:
    m = start("clasico", 3, C3)
    pub = m.view(None)
    assert set(pub) == VIEW_KEYS
    v = m.view(1)
    assert set(v) == VIEW_KEYS | {"you"}
    assert v["you"] == {
        "seat": 1,
        "hand": ["0-3", "2-3", "3-3", "3-4", "5-6", "6-6"],
        "legal": [{"tile": "6-6", "end": None}],
        "can_draw": False,
        "can_pass": False,
        "drawn": None,
    }
    assert m.view(0)["you"]["legal"] == []
    assert pub["hand_number"] == 1 and pub["opener"] == 1 and pub["turn"] == 1
    assert pub["board"] == {"tiles": [], "ends": []}
    assert pub["boneyard"] == 10 and pub["drawable"] == 9
    assert pub["seat_stats"][0] == {"seat": 0, "team": None, "tiles": 6, "score": 0, "chips": None}
    assert pub["last_hand"] is None and pub["result"] is None
    json.dumps(v)


def test_api_example_two_players() -> None:
    hands = [
        ["0-1", "1-3", "2-5", "3-3", "4-5", "5-5", "4-6"],
        ["6-6", "0-0", "0-2", "0-3", "0-4", "0-5", "0-6"],
    ]
    m = start("dos-jugadores", 2, hands)
    play(m, 1, "6-6")
    play(m, 0, "4-6", "right")
    v = m.view(0)
    assert v["board"] == {
        "tiles": [
            {"tile": "6-6", "seat": 1, "end": None},
            {"tile": "4-6", "seat": 0, "end": "right"},
        ],
        "ends": [{"end": "left", "pips": 6}, {"end": "right", "pips": 4}],
    }
    assert v["boneyard"] == 14 and v["drawable"] == 14 and v["turn"] == 1
    assert v["you"]["hand"] == ["0-1", "1-3", "2-5", "3-3", "4-5", "5-5"]


def hidden_texts(m: Match, seat: int | None) -> set[str]:
    hidden = {str(t) for s in range(m.players) if s != seat for t in m.hand_of(s)}
    from domino.engine.tiles import TEXT

    hidden |= {TEXT[t] for t in m.boneyard}
    return hidden


def visible_tiles(obj: object) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= visible_tiles(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= visible_tiles(v)
    elif isinstance(obj, str) and "-" in obj:
        out.add(obj)
    return out


def test_views_and_moves_never_show_a_hidden_tile() -> None:
    m = start("clasico", 3, C3, boneyard_top=["3-5", "4-5", "4-6"])
    play(m, 1, "6-6")
    draw(m, 2)
    draw(m, 2)
    for seat in (None, 0, 1, 2):
        hidden = hidden_texts(m, seat)
        shown = visible_tiles(m.view(seat)) | visible_tiles(m.moves(seat))
        assert not shown & hidden, seat
    assert [mv.get("tile") for mv in m.moves(2)] == ["6-6", "3-5", "4-5"]
    assert [mv.get("tile") for mv in m.moves(0)] == ["6-6", None, None]
    assert "seed" not in json.dumps(m.view(None))


def test_move_log_format_and_after() -> None:
    m = start("clasico", 3, C3, boneyard_top=["0-6"])
    play(m, 1, "6-6", at=1010)
    draw(m, 2, at=1020)
    play(m, 2, "0-6", "left", at=1030)
    moves = m.moves(2)
    assert moves == [
        {
            "n": 1,
            "hand_number": 1,
            "seat": 1,
            "action": "play",
            "tile": "6-6",
            "end": None,
            "at": 1010,
        },
        {"n": 2, "hand_number": 1, "seat": 2, "action": "draw", "tile": "0-6", "at": 1020},
        {
            "n": 3,
            "hand_number": 1,
            "seat": 2,
            "action": "play",
            "tile": "0-6",
            "end": "left",
            "at": 1030,
        },
    ]
    assert [mv["n"] for mv in m.moves(None, after=1)] == [2, 3]
    assert "tile" not in m.moves(None)[1]
    assert redact_move(moves[1], 0) == {k: v for k, v in moves[1].items() if k != "tile"}
    assert m.next_n == 4


def test_log_keeps_current_and_previous_hand_only() -> None:
    rules = resolve_rules("clasico", 3)
    m = Match.start(rules, seed=8)
    rng = random.Random(8)
    total = 0
    archived: list[dict] = []
    while m.status == "playing" and m.hand_number < 4:
        before = m.hand_number
        random_step(m, rng)
        total += 1
        if m.hand_number != before:
            prev = m.previous_hand_moves
            assert prev[-1]["action"] == "hand_over" and prev[-1]["hand_number"] == before
            archived.extend(prev)
    held = m.moves(None)
    assert {mv["hand_number"] for mv in held} <= {m.hand_number, m.hand_number - 1}
    assert held[0]["n"] == m.first_held_n
    ns = [mv["n"] for mv in archived] + [
        mv["n"] for mv in m.moves(None) if mv["hand_number"] == m.hand_number
    ]
    assert ns == list(range(1, len(ns) + 1))
    ended = m.hand_number - (1 if m.status == "playing" else 0)
    assert m.next_n == total + 1 + ended  # every finished hand adds a hand_over


def test_last_hand_stays_until_the_next_hand_ends() -> None:
    rules = resolve_rules("dos-jugadores", 2)
    m = Match.start(rules, seed=2)
    rng = random.Random(2)
    while m.hand_number == 1:
        random_step(m, rng)
    first = m.view(0)["last_hand"]
    assert first["hand_number"] == 1 and first["match_over"] is False
    assert set(first) == {
        "hand_number",
        "reason",
        "winners",
        "points",
        "hands",
        "match_over",
        "match_winners",
    }
    random_step(m, rng)
    assert m.view(1)["last_hand"] == first
    assert m.view(1)["result"] is None


# ---------------------------------------------------------------- timeouts and forfeits


def test_timeout_auto_plays_first_legal_and_logs_timeout() -> None:
    m = start("clasico", 3, C3, boneyard_top=["3-5"])
    m.timeout(1, "auto", 2000)
    rec = m.moves(None)[-1]
    assert rec == {
        "n": 1,
        "hand_number": 1,
        "seat": 1,
        "action": "timeout",
        "move": "play",
        "tile": "6-6",
        "end": None,
        "at": 2000,
    }
    r = m.timeout(2, "auto", 2001)
    assert r.drawn is not None
    assert "tile" not in m.moves(0)[-1] and m.moves(2)[-1]["tile"] == "3-5"
    assert m.moves(0)[-1]["move"] == "draw"
    with pytest.raises(IllegalMove) as e:
        m.timeout(0, "auto", 2002)
    assert e.value.code == "not_your_turn"
    with pytest.raises(InvalidInput):
        m.timeout(2, "later", 2002)


def test_forfeit_never_wins() -> None:
    rules = resolve_rules("dos-jugadores", 2, {"match": "single", "target": None})
    for seed in range(10):
        m = Match.start(rules, seed=seed)
        m.forfeit(0, 5)
        assert m.moves(None)[-1]["action"] == "leave"
        rng = random.Random(seed)
        while m.status == "playing":
            random_step(m, rng)
        res = m.result()
        assert 0 not in res["match_winners"] and res["forfeits"] == [0]


def test_pair_of_a_forfeit_cannot_win() -> None:
    rules = resolve_rules("parejas-111", 4)
    m = Match.start(rules, seed=4)
    m.timeout(m.turn, "forfeit", 9) if m.turn == 2 else m.forfeit(2, 9)
    rng = random.Random(1)
    while m.status == "playing":
        random_step(m, rng)
    res = m.result()
    assert not {0, 2} & set(res["match_winners"]) and res["forfeits"] == [2]


def test_timeout_forfeit_marks_and_moves() -> None:
    m = start("clasico", 3, C3)
    m.timeout(1, "forfeit", 7)
    rec = m.moves(None)[-1]
    assert rec["action"] == "timeout" and rec["forfeit"] is True and rec["tile"] == "6-6"
    assert m.forfeits == [1]


# ---------------------------------------------------------------- encoding


def play_out(m: Match, seed: int, check) -> None:
    rng = random.Random(seed)
    at = 1_700_000_000
    while m.status == "playing":
        legal = m.legal_moves()
        move = rng.choice(legal) if legal else (DRAW if m.can_draw() else PASS)
        at += rng.choice((0, 3, 40, 700, 5000))
        m.apply(m.turn, move, at)
        check(m)


def test_encode_round_trip_and_sizes() -> None:
    sizes: dict[str, int] = {}

    def check(m: Match) -> None:
        data = encode(m)
        d = decode(data)
        assert encode(d) == data
        assert d.view(m.turn) == m.view(m.turn)
        assert d.moves(0) == m.moves(0)
        key = f"{m.rules.set}:{m.players}"
        sizes[key] = max(sizes.get(key, 0), len(data))

    for pid in ("clasico", "dos-jugadores", "pool", "cruzado", "buho21"):
        p = PRESETS[pid]
        for n in range(p.min_players, p.max_players + 1):
            play_out(Match.start(resolve_rules(pid, n), seed=n, at=1_700_000_000), n, check)
    play_out(Match.start(resolve_rules("chipre", 10), seed=1, at=1_700_000_000), 1, check)
    assert max(v for k, v in sizes.items() if k.startswith("6:")) < 600
    assert sizes["9:10"] < 3500


def test_decode_refuses_garbage() -> None:
    with pytest.raises(InvalidInput):
        decode(b"")
    with pytest.raises(InvalidInput):
        decode(b"\x09abc")
    m = Match.start(resolve_rules("clasico", 3), seed=1)
    data = encode(m)
    with pytest.raises(InvalidInput):
        decode(data[:5])


def test_seeded_shuffles_repeat_and_unseeded_do_not_leak() -> None:
    r = resolve_rules("clasico", 4)
    a, b = Match.start(r, seed=42), Match.start(r, seed=42)
    assert a.hands == b.hands and a.boneyard == b.boneyard
    play_out(a, 1, lambda m: None)
    play_out(b, 1, lambda m: None)
    assert a.scores == b.scores and encode(a) == encode(b)
    c = Match.start(r)
    assert c.seed is None and decode(encode(c)).seed is None


# ---------------------------------------------------------------- bots


@pytest.mark.parametrize("level", ["random", "greedy", "strategist"])
def test_bots_play_whole_matches_deterministically(level: str) -> None:
    for pid, n in (
        ("clasico", 3),
        ("parejas-111", 4),
        ("multicolor-plus", 2),
        ("cruzado", 4),
        ("chipre", 5),
    ):
        logs = []
        for _ in range(2):
            m = Match.start(resolve_rules(pid, n), seed=5)
            k = 0
            while m.status == "playing" and k < 400:
                mv = choose_move(m, m.turn, level, seed=k)
                m.apply(m.turn, mv, k)
                k += 1
            logs.append(m.moves(None))
        assert logs[0] == logs[1]


def test_greedy_plays_the_heaviest() -> None:
    hands = [
        ["6-6", "0-1", "1-2", "1-3", "1-4", "1-5", "2-2"],
        ["0-6", "5-6", "2-6", "3-4", "0-0", "0-2", "0-3"],
    ]
    m = start("dos-jugadores", 2, hands)
    play(m, 0, "6-6")
    mv = choose_move(m, 1, "greedy")
    assert str(mv.tile) == "5-6"  # type: ignore[union-attr]


def test_bot_draws_or_passes_when_it_must() -> None:
    m = start("clasico", 3, C3)
    play(m, 1, "6-6")
    assert choose_move(m, 2, "strategist") == DRAW
    with pytest.raises(IllegalMove):
        choose_move(m, 0, "random")
    with pytest.raises(InvalidInput):
        choose_move(m, 2, "genius")


def test_strategist_uses_only_what_its_seat_sees() -> None:
    """Swapping the hidden tiles (other hands, boneyard order) never changes its choice."""
    rng = random.Random(0)
    for seed in range(25):
        m = Match.start(resolve_rules("clasico", 3), seed=seed)
        for _ in range(rng.randrange(1, 8)):
            if m.status != "playing":
                break
            random_step(m, rng)
        if m.status != "playing":
            continue
        seat = m.turn
        want = choose_move(m, seat, "strategist", seed=1)
        other = m.copy()
        hidden = [t for s in range(m.players) if s != seat for t in _ids(m.hands[s])]
        hidden += other.boneyard
        shuffled = list(hidden)
        random.Random(seed).shuffle(shuffled)
        pos = 0
        for s in range(m.players):
            if s == seat:
                continue
            count = m.hands[s].bit_count()
            mask = 0
            for t in shuffled[pos : pos + count]:
                mask |= 1 << t
            other.hands[s] = mask
            pos += count
        other.boneyard = shuffled[pos:]
        assert choose_move(other, seat, "strategist", seed=1) == want


def _ids(mask: int) -> list[int]:
    from domino.engine.tiles import bits

    return bits(mask)


def test_strategist_beats_random_heads_up() -> None:
    wins = 0
    for seed in range(12):
        m = Match.start(resolve_rules("dos-jugadores", 2, {"target": 100}), seed=seed)
        k = 0
        while m.status == "playing":
            level = "strategist" if m.turn == seed % 2 else "random"
            m.apply(m.turn, choose_move(m, m.turn, level, seed=k), k)
            k += 1
        wins += (seed % 2) in m.result()["match_winners"]
    assert wins >= 8


def test_rest_of_helper() -> None:
    assert len(rest_of(6, C3)) == 10
