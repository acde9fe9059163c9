"""Tren mexicano (docs/rules.md "Tren mexicano"): each check the rules set for it, as a test of
its own, and the trains' invariants over random whole matches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from domino.engine import errors
from domino.engine.encoding import decode, encode
from domino.engine.match import Match
from domino.engine.movelog import LogCode
from domino.engine.moves import DRAW, PASS, Play
from domino.engine.outcome import HandEnd
from domino.engine.rules import PRESETS, resolve_rules
from domino.engine.scoring import match_winners, score_hand
from domino.engine.tiles import TEXT, bits, full_set, parse_tile
from domino.engine.trains import engine_of
from engine_helpers import random_step

TOP = 12


def tid(text: str) -> int:
    return parse_tile(text, TOP).id


def mask(tiles: list[str]) -> int:
    return sum(1 << tid(t) for t in tiles)


def position(
    players: int,
    hands: list[list[str]],
    moves: list[tuple[Any, ...]],
    turn: int,
    *,
    opener: int = 0,
    boneyard: list[str] | None = None,
    hand_number: int = 1,
    scores: list[int] | None = None,
) -> Match:
    """A round in play, restored as decoding does: ``hands`` left, ``moves`` made since the deal
    (("play", seat, tile, end), ("draw", seat, tile, marked), ("pass", seat, marked)), ``turn``
    on turn, ``boneyard`` top first (default: empty)."""
    rules = resolve_rules("tren-mexicano", players)
    log = []
    for move in moves:
        if move[0] == "play":
            _, seat, tile, end = move
            arm = Match.start(rules, seed=0).layout.index[end]
            log.append((LogCode.PLAY, seat, tid(tile), arm, 1000))
        elif move[0] == "draw":
            _, seat, tile, marked = move
            log.append((LogCode.DRAW, seat, tid(tile), 1 if marked else -1, 1000))
        else:
            _, seat, marked = move
            log.append((LogCode.PASS, seat, -1, 1 if marked else -1, 1000))
    return Match.restore(
        rules,
        seed=1,
        status="playing",
        hand_number=hand_number,
        reshuffles=0,
        opener=opener,
        turn=turn,
        forced=-1,
        passes=0,
        hands=[mask(h) for h in hands],
        boneyard=[tid(t) for t in reversed(boneyard or [])],
        scores=list(scores or [0] * players),
        chips=None,
        pot=0,
        forfeits=[],
        ended=None,
        match_winners=(),
        is_draw=False,
        start_at=1000,
        first_held_n=1,
        prev_log=[],
        log=log,  # type: ignore[arg-type]
    )


def lay(m: Match, seat: int, tile: str, end: str | None = None) -> Any:
    return m.apply(seat, Play(parse_tile(tile, TOP), end), 1001)


def legal(m: Match) -> list[tuple[str, str | None]]:
    return [(str(p.tile), p.end) for p in m.legal_moves()]


def board_end(m: Match, end: str) -> dict[str, Any]:
    return next(e for e in m.board_view()["ends"] if e["end"] == end)  # type: ignore[return-value]


def rest_of(hands: list[list[str]], first: list[str]) -> list[str]:
    used = {TEXT[tid(t)] for hand in hands for t in hand} | {TEXT[tid(t)] for t in first}
    return [TEXT[tid(t)] for t in first] + [str(t) for t in full_set(TOP) if str(t) not in used]


def dealt(players: int, hands: list[list[str]], first: list[str], seed: int = 0) -> Match:
    rules = resolve_rules("tren-mexicano", players)
    deal = {"hands": hands, "boneyard": rest_of(hands, first)}
    return Match.start(rules, seed=seed, deal=deal, at=1000)


def some_tiles(count: int, avoid: set[str]) -> list[str]:
    return [str(t) for t in full_set(TOP) if str(t) not in avoid][:count]


# ------------------------------------------------------------------- the preset


def test_the_preset_is_listed_with_its_settings() -> None:
    listed = PRESETS["tren-mexicano"].describe()
    assert listed["players"] == {"min": 2, "max": 8}
    rules = listed["rules"]
    assert rules["set"] == 12 and rules["layout"] == "trains"
    assert rules["hand_size"] == {"2": 16, "3": 15, "4": 14, "5": 13, "6": 12, "7": 11, "8": 10}
    assert (rules["draw"], rules["opening"], rules["next_round"]) == (
        "one_then_play",
        "engine",
        "same_as_first",
    )
    assert (rules["out_scoring"], rules["block_scoring"]) == ("penalty", "own_pips")
    assert (rules["match"], rules["rounds"], rules["teams"]) == ("rounds", 13, None)
    for overrides in ({"teams": "pairs"}, {"opening": "lot"}, {"layout": "line"}):
        with pytest.raises(errors.InvalidInput):
            resolve_rules("tren-mexicano", 4, overrides)
    with pytest.raises(errors.InvalidInput):
        resolve_rules("clasico", 4, {"opening": "engine"})


# ------------------------------------------------------------------- the deal


def test_deal_four_players_the_engine_holder_opens() -> None:
    hands = [some_tiles(14, {"12-12"})]
    taken = set(hands[0]) | {"12-12"}
    for _ in range(3):
        hands.append(some_tiles(14, taken))
        taken |= set(hands[-1])
    hands[2][0] = "12-12"  # seat 2 holds the engine
    m = dealt(4, hands, [])
    assert m.trains is not None and TEXT[m.trains.engine] == "12-12"
    assert [h.bit_count() for h in m.hands] == [14, 14, 13, 14]
    assert len(m.boneyard) == 35 and m.turn == 2 and m.opener == 2
    assert [m.next_seats[s] for s in (2, 3, 0)] == [3, 0, 1]
    board = m.board_view()
    assert board["station"] == "12-12" and board["search_passes"] == 0
    held = sum(h.bit_count() for h in m.hands) + len(m.boneyard) + 1
    assert held == 3 * 14 + 13 + 35 + 1 == 91


def test_engines_run_from_12_12_down_to_0_0_and_the_match_ends_after_round_13() -> None:
    assert [TEXT[engine_of(r)] for r in (1, 5, 13)] == ["12-12", "8-8", "0-0"]
    m = Match.start(resolve_rules("tren-mexicano", 2), seed=4)
    rng = random.Random(4)
    engines = []
    while m.status == "playing":
        assert m.trains is not None
        if not engines or engines[-1][0] != m.hand_number:
            engines.append((m.hand_number, TEXT[m.trains.engine]))
        random_step(m, rng)
    assert engines[0] == (1, "12-12") and engines[4] == (5, "8-8") and engines[-1] == (13, "0-0")
    last = m.result()
    assert last is not None and last["hand_number"] == 13 and m.hand_number == 13


def test_search_passes_three_players() -> None:
    taken = {"12-12"}
    hands = []
    for _ in range(3):
        hands.append(some_tiles(15, taken))
        taken |= set(hands[-1])
    top = some_tiles(4, taken)  # tiles 1-4 of the boneyard, then the engine 5th, then tile 6
    taken |= set(top)
    sixth = some_tiles(1, taken)
    m = dealt(3, hands, [*top, "12-12", *sixth])
    assert m.trains is not None and m.trains.search_passes == 2
    assert m.turn == m.opener == 1  # seat 1 drew the engine in pass 2
    assert [h.bit_count() for h in m.hands] == [17, 16, 17]
    assert len(m.boneyard) == 40
    assert m.hands[0] >> tid(top[0]) & 1 and m.hands[1] >> tid(top[1]) & 1
    assert m.hands[2] >> tid(sixth[0]) & 1  # seat 2 still draws tile 6
    assert sum(h.bit_count() for h in m.hands) + len(m.boneyard) + 1 == 91
    assert m.board_view()["search_passes"] == 2


# ------------------------------------------------------------------- where a seat may lay


def test_legal_plays_at_a_rounds_start() -> None:
    m = position(4, [["0-1"], ["0-2"], ["5-12", "7-12", "3-4"], ["0-3"]], [], turn=2)
    assert legal(m) == [
        ("5-12", "train-2"),
        ("7-12", "train-2"),
        ("5-12", "mexican"),
        ("7-12", "mexican"),
    ]
    with pytest.raises(errors.EndRequired):
        lay(m, 2, "12-5")
    with pytest.raises(errors.TileDoesNotMatch):
        lay(m, 2, "12-5", "train-0")
    with pytest.raises(errors.InvalidInput):
        lay(m, 2, "12-5", "train-4")  # no seat 4: not this game's train


def test_draw_one_then_play_or_be_marked() -> None:
    hands = [["8-12", "0-0"], ["1-1", "1-2"], ["5-12", "0-1"], ["4-5", "8-9", "0-2"]]
    # seat 3 holds no 12: no legal play, it must draw; the drawn 3-12 must be laid now
    m = position(4, hands, [], turn=2, boneyard=["3-12", "4-6"])
    lay(m, 2, "12-5", "train-2")
    assert legal(m) == [] and m.can_draw() and not m.can_pass()
    with pytest.raises(errors.CannotPass):
        m.apply(3, PASS, 1002)
    result = m.apply(3, DRAW, 1002)
    assert result.drawn is not None and str(result.drawn) == "3-12"
    assert m.turn == 3 and legal(m) == [("3-12", "train-3"), ("3-12", "mexican")]
    with pytest.raises(errors.MustPlay):
        m.apply(3, DRAW, 1003)  # it holds a tile that plays
    # a drawn double that fits is laid, and then the seat plays again: no tile to satisfy it,
    # no second draw (cannot_draw), so it passes and its train is marked
    m = position(2, [["0-1"], ["4-5", "0-2"]], [("play", 1, "3-12", "train-1")], turn=1)
    m.boneyard.append(tid("3-3"))  # the top of the boneyard
    m.apply(1, DRAW, 1002)
    lay(m, 1, "3-3", "train-1")
    assert m.turn == 1 and legal(m) == [] and not m.can_draw() and m.can_pass()
    with pytest.raises(errors.CannotDraw):
        m.apply(1, DRAW, 1003)  # one draw a turn
    m.apply(1, PASS, 1004)
    assert m.turn == 0 and board_end(m, "train-1")["marker"]
    assert m.moves(None)[-1] | {"at": 0} == {
        "n": 4,  # the play before, the draw, the double, the pass
        "hand_number": 1,
        "seat": 1,
        "action": "pass",
        "marked": True,
        "at": 0,
    }
    # the drawn tile does not play: the turn ends there and train-3 is marked
    m = position(4, hands, [], turn=2, boneyard=["4-6", "3-12"])
    lay(m, 2, "12-5", "train-2")
    m.apply(3, DRAW, 1002)
    assert m.turn == 0 and board_end(m, "train-3")["marker"] and board_end(m, "train-3")["open"]
    assert m.moves(None)[-1]["marked"] is True
    assert ("8-12", "train-3") in legal(m)  # seat 0 may lay on the marked train
    lay(m, 0, "8-12", "train-3")
    assert board_end(m, "train-3")["marker"]  # another seat's tile leaves the marker


def test_every_pass_is_logged_marked_as_every_draw_that_does_not_play() -> None:
    """A train is marked "when a drawn tile cannot be played or when you pass": a pass on a
    train already marked (by a draw that did not play) is logged ``marked`` too."""
    m = position(2, [["0-1", "0-2"], ["1-3", "2-3", "3-12"]], [], turn=0, boneyard=["4-5"])
    m.apply(0, DRAW, 1002)  # 4-5 does not play: the turn ends, train-0 marked
    lay(m, 1, "3-12", "train-1")
    assert legal(m) == [] and not m.can_draw() and m.can_pass()
    m.apply(0, PASS, 1003)
    draw, _, passed = m.moves(None)[-3:]
    assert (draw["action"], draw["marked"]) == ("draw", True)
    assert (passed["action"], passed.get("marked")) == ("pass", True)
    assert board_end(m, "train-0")["marker"]
    assert decode(encode(m)).moves(None) == m.moves(None)


def test_the_marker_comes_off_only_with_the_owners_tile_on_its_own_train() -> None:
    m = position(
        4,
        [["0-0"], ["1-1"], ["2-2"], ["9-12", "8-3", "4-6"]],
        [("play", 2, "5-12", "train-2"), ("draw", 3, "4-6", True), ("play", 0, "8-12", "train-3")],
        turn=3,
    )
    assert board_end(m, "train-3")["marker"]
    lay(m, 3, "9-12", "mexican")
    assert board_end(m, "train-3")["marker"]  # laid elsewhere: still marked
    m2 = position(
        4,
        [["0-0"], ["1-1"], ["2-2"], ["3-8", "4-6"]],
        [("play", 2, "5-12", "train-2"), ("draw", 3, "4-6", True), ("play", 0, "8-12", "train-3")],
        turn=3,
    )
    lay(m2, 3, "8-3", "train-3")
    assert not board_end(m2, "train-3")["marker"] and not board_end(m2, "train-3")["open"]


# ------------------------------------------------------------------- doubles


def test_a_double_keeps_the_turn_and_must_be_satisfied() -> None:
    before = [("play", 0, "7-12", "train-0"), ("play", 1, "0-12", "train-1")]
    m = position(2, [["7-7", "2-7", "5-5"], ["4-12", "6-7"]], before, turn=0)
    lay(m, 0, "7-7", "train-0")
    assert m.turn == 0  # a double: still seat 0's turn
    board = m.board_view()
    assert board["pending"] == [{"tile": "7-7", "end": "train-0", "seat": 0}]
    assert board["this_turn"] == {"seat": 0, "doubles": ["7-7"], "drew": False}
    lay(m, 0, "2-7", "train-0")
    assert m.turn == 1 and m.board_view()["pending"] == [] and m.board_view()["this_turn"] is None
    # no 7 and no double to lay: draw one; 1-7 satisfies it, 3-8 marks train-0
    for drawn, satisfied in (("1-7", True), ("3-8", False)):
        m = position(2, [["7-7", "5-6"], ["4-12", "6-7"]], before, turn=0, boneyard=[drawn])
        lay(m, 0, "7-7", "train-0")
        m.apply(0, DRAW, 1002)
        if satisfied:
            lay(m, 0, "1-7", "train-0")
            assert m.board_view()["pending"] == [] and m.turn == 1
            continue
        assert m.turn == 1 and board_end(m, "train-0")["marker"]
        assert m.board_view()["pending"] == [{"tile": "7-7", "end": "train-0", "seat": 0}]
        assert legal(m) == [("6-7", "train-0")]  # only a 7 on train-0
        with pytest.raises(errors.MustSatisfyDouble):
            lay(m, 1, "12-4", "train-1")


def test_two_doubles_the_oldest_first() -> None:
    before = [("play", 1, "5-12", "mexican"), ("play", 0, "9-12", "train-0")]
    m = position(2, [["5-5", "9-9", "2-5", "4-9", "0-0"], ["1-9", "3-4"]], before, turn=0)
    lay(m, 0, "5-5", "mexican")
    lay(m, 0, "9-9", "train-0")
    assert [p["tile"] for p in m.board_view()["pending"]] == ["5-5", "9-9"]
    assert ("2-5", "mexican") in legal(m)
    with pytest.raises(errors.MustSatisfyDouble):
        lay(m, 0, "4-9", "train-0")
    lay(m, 0, "2-5", "mexican")
    assert m.turn == 1 and [p["tile"] for p in m.board_view()["pending"]] == ["9-9"]
    assert not board_end(m, "train-0")["marker"]
    assert legal(m) == [("1-9", "train-0")]  # seat 0's unmarked train: only the 9s
    lay(m, 1, "1-9", "train-0")
    assert not board_end(m, "train-0")["marker"] and m.board_view()["pending"] == []


# ------------------------------------------------------------------- the end of a round


def test_scoring_three_players() -> None:
    rules = resolve_rules("tren-mexicano", 3)
    outcome = score_hand(rules, [23, 7, 0], HandEnd.DOMINO, 2, [0, 1, 2])
    assert outcome.points == [23, 7, 0]
    outcome = score_hand(rules, [5, 8, 12], HandEnd.CLOSED, None, [0, 1, 2])
    assert outcome.points == [5, 8, 12]  # nobody adds 0
    m = position(3, [["11-12", "0-0"], ["3-4"], ["4-12"]], [], turn=2)
    lay(m, 2, "4-12", "train-2")
    last = m.last_hand()
    assert last is not None and last["points"] == {"0": 23, "1": 7, "2": 0}
    assert m.scores == [23, 7, 0] and m.hand_number == 2


def test_a_last_double_ends_the_round_unsatisfied() -> None:
    m = position(2, [["4-4"], ["0-1", "2-3"]], [("play", 0, "4-12", "train-0")], turn=0)
    lay(m, 0, "4-4", "train-0")
    last = m.last_hand()
    assert last is not None and last["reason"] == "domino" and last["points"] == {"0": 0, "1": 6}


def test_equal_lowest_totals_after_round_13_share_the_win() -> None:
    rules = resolve_rules("tren-mexicano", 3)
    assert match_winners(rules, [120, 95, 95], [], []) == ([1, 2], False)


# ------------------------------------------------------------------- invariants


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_random_whole_rounds_keep_every_tile_and_decode_to_the_same_views(players: int) -> None:
    for seed in range(3):
        m = Match.start(resolve_rules("tren-mexicano", players), seed=seed)
        rng = random.Random(seed)
        steps = 0
        while m.status == "playing" and m.hand_number <= 2 and steps < 3000:
            assert m.trains is not None
            laid = [t for t, _, _ in m.board]
            held = [t for h in m.hands for t in bits(h)] + list(m.boneyard) + laid
            held.append(m.trains.engine)
            assert sorted(held) == list(range(91))
            if steps % 7 == 0:
                again = decode(encode(m))
                assert encode(again) == encode(m)
                for seat in (None, *range(players)):
                    assert again.view(seat) == m.view(seat)
            random_step(m, rng)
            steps += 1
