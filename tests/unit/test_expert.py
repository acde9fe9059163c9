"""The expert bot (engine/expert.py): it reads only its seat's view, its reading of the table is
never contradicted by the true hands, its worlds are deals that could be, and it always plays a
legal move, on every preset and player count."""

from __future__ import annotations

import random

import pytest
from domino.engine import (
    DRAW,
    PASS,
    PRESETS,
    HandResult,
    Match,
    Move,
    Play,
    choose_move,
    resolve_rules,
)
from domino.engine import expert as ex
from domino.engine import expert_trains as ext
from domino.engine.movelog import DRAW_CODES
from domino.engine.tiles import HIGH, LOW, PIPS, SUIT, bits, full_set, parse_tile
from engine_helpers import random_step
from hypothesis import given, settings
from hypothesis import strategies as st

CASES = [(pid, n) for pid, p in PRESETS.items() for n in range(p.min_players, p.max_players + 1)]
#: presets where seats draw (until playable, one then pass), pass, play in pairs, on every layout
READING = [
    ("clasico", 3),
    ("clasico", 4),
    ("dos-jugadores", 2),
    ("multicolor-plus", 3),
    ("parejas-111", 4),
    ("cruzado", 4),
    ("chipre", 6),
    ("buho21", 4),
    ("tren-mexicano", 3),
    ("tren-mexicano", 5),
]
SAMPLES = 6  # worlds a decision in these tests (production thinks on a time budget instead)


def played_into(pid: str, n: int, seed: int, steps: int, level: str = "random") -> Match:
    """A match of ``pid`` after up to ``steps`` moves of ``level`` bots within the first hand."""
    m = Match.start(resolve_rules(pid, n), seed=seed)
    rng = random.Random(seed)
    for k in range(steps):
        if m.status != "playing" or m.hand_number != 1:
            break
        if level == "random":
            random_step(m, rng)
        else:
            m.apply(m.turn, choose_move(m, m.turn, level, seed=k), 0)
    return m


def in_play(
    pid: str, n: int, seed: int, steps: int, level: str = "random"
) -> tuple[Match, int] | None:
    """``played_into``'s match and the seat on turn, if its first hand is still in play."""
    m = played_into(pid, n, seed, steps, level)
    if m.status != "playing" or m.hand_number != 1 or m.turn is None:
        return None
    return m, m.turn


def hidden_swapped(m: Match, seat: int, shuffle_seed: int) -> Match:
    """``m`` with everything ``seat`` cannot see dealt again: the other hands (same sizes), the
    boneyard's order, the tiles other seats drew as the log records them, and the shuffle seed."""
    other = m.copy()
    hidden = [t for s in range(m.players) if s != seat for t in bits(m.hands[s])] + m.boneyard
    rng = random.Random(shuffle_seed)
    rng.shuffle(hidden)
    pos = 0
    for s in range(m.players):
        if s != seat:
            count = m.hands[s].bit_count()
            other.hands[s] = sum(1 << t for t in hidden[pos : pos + count])
            pos += count
    other.boneyard = hidden[pos:]
    other.log = [
        (code, who, rng.choice(hidden) if code in DRAW_CODES and who != seat else tid, arm, at)
        for code, who, tid, arm, at in m.log
    ]
    other.seed = shuffle_seed
    return other


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    case=st.sampled_from(READING),
    seed=st.integers(0, 10_000),
    steps=st.integers(1, 40),
    shuffle_seed=st.integers(0, 1000),
)
def test_the_expert_chooses_the_same_move_whatever_it_cannot_see(
    case: tuple[str, int], seed: int, steps: int, shuffle_seed: int
) -> None:
    found = in_play(*case, seed, steps)
    if found is None:
        return
    m, seat = found
    want = choose_move(m, seat, "expert", seed=7, samples=SAMPLES)
    other = hidden_swapped(m, seat, shuffle_seed)
    assert other.hands != m.hands or other.boneyard == m.boneyard  # something hidden moved
    assert choose_move(other, seat, "expert", seed=7, samples=SAMPLES) == want


@settings(max_examples=120, deadline=None, derandomize=True)
@given(case=st.sampled_from(READING), seed=st.integers(0, 10_000), steps=st.integers(1, 60))
def test_what_the_expert_reads_from_the_table_is_always_true(
    case: tuple[str, int], seed: int, steps: int
) -> None:
    """Voids and caps hold for the true hands: strategist play makes seats draw and pass."""
    found = in_play(*case, seed, steps, level="strategist")
    if found is None:
        return
    m, seat = found
    know = (ext.observe if m.trains is not None else ex.observe)(m, seat)
    assert know.mine == m.hands[seat]
    assert know.counts == [h.bit_count() for h in m.hands]
    assert know.boneyard == len(m.boneyard)
    truth = sum(m.hands[s] for s in range(m.players) if s != seat) + sum(1 << t for t in m.boneyard)
    assert sum(1 << t for t in know.unseen) == truth
    for s in range(m.players):
        if s == seat:
            continue
        assert not m.hands[s] & know.void[s], f"seat {s} holds a number it is said to lack"
        for tiles, cap in know.caps[s]:
            assert (m.hands[s] & tiles).bit_count() <= cap


def test_a_seat_that_drew_is_capped_then_void_once_it_played_what_it_drew() -> None:
    """Seat 1 has no 6 for the 6-6: it draws 4-4 (still no 6), draws 5-6 and plays it. After the
    first draw it may hold one 6 (the tile it drew); once it has played the 6 it drew, none."""
    hands = [
        ["6-6", "1-6", "0-0", "0-2", "0-3", "0-4", "0-5"],
        ["2-2", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5"],
    ]
    m = two_player_deal(hands, ["4-4", "5-6"])
    assert m.turn == 0
    m.apply(0, tile("6-6"), 0)
    m.apply(1, DRAW, 0)
    sixes = SUIT[6]
    know = ex.observe(m, 0)
    assert know.void[1] == 0
    assert [(mask & sixes, cap) for mask, cap in know.caps[1]] == [(_unseen(know) & sixes, 1)]
    m.apply(1, DRAW, 0)
    m.apply(1, Play(parse_tile("5-6", 6), "left"), 0)
    know = ex.observe(m, 0)
    assert know.void[1] & _unseen(know) & sixes == _unseen(know) & sixes  # no 6 in its hand
    assert know.counts[1] == 8


def two_player_deal(hands: list[list[str]], top: list[str]) -> Match:
    """A ``dos-jugadores`` deal: ``hands``, and a boneyard of ``top`` then the rest."""
    dealt = {t for hand in hands for t in hand} | set(top)
    rest = [str(t) for t in full_set(6) if str(t) not in dealt]
    return Match.start(
        resolve_rules("dos-jugadores", 2), deal={"hands": hands, "boneyard": top + rest}
    )


def _unseen(know: ex.Knowledge) -> int:
    return sum(1 << t for t in know.unseen)


def tile(text: str) -> Play:
    return Play(parse_tile(text, 6), None)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(case=st.sampled_from(READING), seed=st.integers(0, 10_000), steps=st.integers(1, 60))
def test_every_world_is_a_deal_that_could_be(case: tuple[str, int], seed: int, steps: int) -> None:
    found = in_play(*case, seed, steps, level="strategist")
    if found is None:
        return
    m, seat = found
    know = (ext.observe if m.trains is not None else ex.observe)(m, seat)
    rng = random.Random(seed)
    for _ in range(5):
        hands, boneyard = know.sample(rng)
        assert hands[seat] == m.hands[seat]
        assert [h.bit_count() for h in hands] == know.counts
        assert len(boneyard) == know.boneyard
        dealt = [t for s in range(m.players) if s != seat for t in bits(hands[s])] + boneyard
        assert sorted(dealt) == know.unseen
        for s in range(m.players):
            if s != seat:
                assert not hands[s] & know.void[s]
                for tiles, cap in know.caps[s]:
                    assert (hands[s] & tiles).bit_count() <= cap


@pytest.mark.parametrize(("pid", "n"), CASES)
def test_the_expert_plays_a_whole_match_with_legal_moves_only(pid: str, n: int) -> None:
    """Every preset at every player count (2 to 10, pairs, cross, star, every draw rule)."""
    m = Match.start(resolve_rules(pid, n, {"target": 60} if _has_target(pid) else None), seed=n)
    k = 0
    while m.status == "playing" and k < 1500:
        seat = m.turn
        assert seat is not None
        move = choose_move(m, seat, "expert", seed=k, samples=2)
        m.apply(seat, move, k)  # raises for an illegal move
        k += 1
    assert m.status == "finished"


def _has_target(pid: str) -> bool:
    return PRESETS[pid].rules.get("match") == "target"


def test_forced_and_single_choice_moves_need_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_search(*_args: object) -> None:
        raise AssertionError("searched a move that had no choice")

    monkeypatch.setattr(ex, "observe", no_search)
    hands = [
        ["6-6", "1-6", "0-0", "0-2", "0-3", "0-4", "0-5"],
        ["2-2", "2-3", "2-4", "2-5", "3-3", "3-4", "3-5"],
    ]
    m = two_player_deal(hands, ["4-4"])
    assert choose_move(m, 0, "expert", seed=1) == tile("6-6")  # the opening tile
    m.apply(0, tile("6-6"), 0)
    assert choose_move(m, 1, "expert", seed=1) == DRAW  # nothing fits
    blocked = Match.start(resolve_rules("parejas-111", 4), seed=3)
    while blocked.status == "playing" and blocked.hand_number == 1:
        seat = blocked.turn
        legal = blocked.legal_moves()
        if not legal:
            assert choose_move(blocked, seat, "expert", seed=1) == PASS
        distinct = {p.tile.id for p in legal}
        if len(distinct) > 1:
            monkeypatch.undo()
            move = choose_move(blocked, seat, "expert", seed=1, samples=1)
            monkeypatch.setattr(ex, "observe", no_search)
        else:
            move = choose_move(blocked, seat, "expert", seed=1)
        blocked.apply(seat, move, 0)


def test_the_same_seed_and_sample_count_make_the_same_choice() -> None:
    for seed in range(30):
        m = played_into("clasico", 4, seed, seed % 9 + 1)
        if m.status != "playing" or m.hand_number != 1:
            continue
        seat = m.turn
        moves = {choose_move(m, seat, "expert", seed=seed, samples=5) for _ in range(3)}
        assert len(moves) == 1


def policy_move(m: Match, seat: int) -> Move:
    """The rollout policy's move on a real match, through its public surface only: of the legal
    plays in ``legal_moves`` order the first with the best ``4 * tiles left of the number it
    shows + pips + 6 for a double``; with none, draw, else pass. The plain rollouts
    (``_play_line``, ``_play_out``) must make exactly these moves."""
    legal = m.legal_moves()
    if not legal:
        return DRAW if m.can_draw() else PASS
    hand = m.hands[seat]
    best, best_score = legal[0], -1
    for p in legal:
        t = p.tile.id
        rest = hand & ~(1 << t)
        if p.end is None:
            follow = (rest & (SUIT[LOW[t]] | SUIT[HIGH[t]])).bit_count()
        else:
            follow = (rest & SUIT[PIPS[t] - m.ends[m.layout.index[p.end]]]).bit_count()
        score = 4 * follow + PIPS[t] + (6 if LOW[t] == HIGH[t] else 0)
        if score > best_score:
            best, best_score = p, score
    return best


def played_by_the_engine(
    m: Match, hands: list[int], boneyard: list[int], first: Play | None = None
) -> HandResult:
    """The hand of ``m`` in play, in the world (``hands``, ``boneyard``), played to its end by
    ``Match.apply`` with the rollout policy for every seat (``first`` laid first)."""
    w = m.copy()
    w.hands, w.boneyard = list(hands), list(boneyard)
    number = w.hand_number
    if first is not None:
        w.apply(w.turn, first, 0)  # type: ignore[arg-type]
    while w.hand_number == number and w.turn is not None:
        w.apply(w.turn, policy_move(w, w.turn), 0)
    assert w.last is not None and w.last.number == number
    return w.last


#: line, cross and star; draw until playable, one then pass, none; pairs and penalty
ROLLOUTS = [
    ("dos-jugadores", 2, None),
    ("parejas-111", 4, None),
    ("clasico", 5, None),
    ("buho21", 3, None),
    ("multicolor-plus", 2, None),
    ("cruzado", 4, None),
    ("cruzado", 3, {"draw": "one_then_pass"}),
    ("chipre", 4, None),
    ("chipre", 7, None),
]


def test_the_rollouts_play_as_the_engine_does() -> None:
    """``_play_line`` (the line, on plain ints) and ``_play_out`` (any layout) end every hand
    from the table as ``Match.apply`` does with the same policy: the same points and winners."""
    checked: dict[str, int] = {}
    for pid, n, overrides in ROLLOUTS:
        for seed in range(40):
            m = Match.start(resolve_rules(pid, n, overrides), seed=seed)
            rng = random.Random(seed)
            for _ in range(seed % 7 + 1):
                if m.status != "playing" or m.hand_number != 1:
                    break
                random_step(m, rng)
            if m.status != "playing" or m.hand_number != 1 or not m.open_arms:
                continue
            hands, boneyard = ex.observe(m, m.turn).sample(rng)  # type: ignore[arg-type]
            got = ex._play_from(ex._table(m), hands, boneyard)
            want = played_by_the_engine(m, hands, boneyard)
            assert (tuple(got.points), tuple(got.winners)) == (want.points, want.winners)
            checked[m.layout.name] = checked.get(m.layout.name, 0) + 1
    assert checked["line"] > 100 and checked["cross"] > 40 and checked["star"] > 40, checked


def test_a_candidate_laid_without_a_copy_ends_as_through_apply() -> None:
    """``_line_outcome`` and ``_layout_outcome`` (no match copied) give each candidate the
    outcome that laying it with ``Match.apply`` and playing on give, first tiles included."""
    checked: dict[str, int] = {}
    for pid, n, overrides in [*ROLLOUTS, ("clasico", 3, {"opening": "lot"})]:
        for seed in range(30):
            m = Match.start(resolve_rules(pid, n, overrides), seed=seed)
            rng = random.Random(seed)
            for _ in range(seed % 9):
                if m.status != "playing" or m.hand_number != 1:
                    break
                random_step(m, rng)
            if m.status != "playing" or m.hand_number != 1 or m.turn is None:
                continue
            seat = m.turn
            hands, boneyard = ex.observe(m, seat).sample(rng)
            table = ex._table(m)
            outcome = ex._line_outcome if m.layout.simple else ex._layout_outcome
            for play in ex._candidates(m):
                got = outcome(table, hands, boneyard, seat, play)
                want = played_by_the_engine(m, hands, boneyard, play)
                assert (tuple(got.points), tuple(got.winners)) == (want.points, want.winners)
                key = m.layout.name + (" first" if not m.open_arms else "")
                checked[key] = checked.get(key, 0) + 1
    assert min(checked.values()) >= 5 and len(checked) == 6, checked


def test_the_value_counts_the_partner_and_penalties_the_other_way() -> None:
    pairs = Match.start(resolve_rules("parejas-111", 4), seed=1)
    assert ex._weights(pairs, 2) == [0.0, 0.0, 1.0, -1.0]  # a pair's seats show its points
    penalty = Match.start(resolve_rules("buho21", 4, {"teams": "pairs"}), seed=1)
    assert ex._weights(penalty, 1) == [1.0, -1.0, 1.0, -1.0]
    alone = Match.start(resolve_rules("clasico", 3), seed=1)
    assert ex._weights(alone, 0) == [1.0, -0.5, -0.5]


def test_a_time_budget_still_finishes_one_world() -> None:
    m = played_into("chipre", 10, 4, 3)
    seat = m.turn
    assert seat is not None
    move = choose_move(m, seat, "expert", seed=1, budget_ms=0.001)
    assert move in m.legal_moves() or move in (DRAW, PASS)


def test_the_opening_tile_tells_which_better_doubles_nobody_was_dealt() -> None:
    """``dos-jugadores`` opens with the highest double held: seat 0 leads 5-5, so 6-6 lay in the
    boneyard. Seat 1 knows seat 0 cannot hold it until seat 0 draws; then at most one tile."""
    hands = [
        ["5-5", "0-1", "0-2", "0-3", "0-4", "1-2", "1-3"],
        ["2-3", "2-4", "3-4", "1-4", "0-0", "1-1", "2-2"],
    ]
    m = two_player_deal(hands, ["4-6", "6-6", "0-5"])
    assert m.turn == 0 and ex.unheld_at_deal(m) == 1 << parse_tile("6-6", 6).id
    m.apply(0, tile("5-5"), 0)
    six_six = 1 << parse_tile("6-6", 6).id
    assert ex.observe(m, 1).void[0] & six_six
    m.apply(1, DRAW, 0)  # seat 1 has no 5: it draws 4-6, then 6-6, then 0-5 and plays it
    m.apply(1, DRAW, 0)
    m.apply(1, DRAW, 0)
    m.apply(1, Play(parse_tile("0-5", 6), "left"), 0)
    assert not ex.observe(m, 0).void[1] & six_six  # seat 1 drew: it may hold 6-6 (it does)
    lead_any = Match.start(resolve_rules("dos-jugadores", 2, {"opening": "lot"}), seed=2)
    assert ex.unheld_at_deal(lead_any) == 0
