"""All Fives and Muggins (docs/rules.md "All Fives and Muggins"): every check the rules set for
them, as a test of its own, and the count's invariants."""

from __future__ import annotations

import random

import pytest
from domino.engine import errors
from domino.engine.encoding import decode, encode
from domino.engine.fives import scored, trail
from domino.engine.layouts import LAYOUTS, SPINNER
from domino.engine.match import Match
from domino.engine.moves import PASS, Play
from domino.engine.outcome import HandEnd
from domino.engine.rules import PRESETS, resolve_rules
from domino.engine.scoring import score_hand
from domino.engine.tiles import full_set, parse_tile
from engine_helpers import random_step


def counts(layout: str, plays: list[tuple[str, str | None]]) -> list[tuple[int, int]]:
    """(count, points scored) after each play of ``plays`` ((tile, end); None: the lead)."""
    board = LAYOUTS[layout]
    ids = [(parse_tile(t, 6).id, -1 if end is None else board.index[end]) for t, end in plays]
    return [(c, scored(c)) for c in trail(board, ids)]


def rigged(
    players: int,
    hands: list[list[str]],
    lot: int = 0,
    preset: str = "all-fives",
    overrides: dict[str, object] | None = None,
) -> Match:
    """A match of ``preset`` whose first deal is ``hands`` (the other tiles in the boneyard, in
    id order, none of them drawn by the checks) and whose lot draws ``lot``."""
    rules = resolve_rules(preset, players, overrides)
    used = {str(parse_tile(t, 6)) for hand in hands for t in hand}
    rest = [str(t) for t in full_set(6) if str(t) not in used]
    return Match.start(rules, deal={"hands": hands, "boneyard": rest, "lot": lot}, at=1000)


def lay(m: Match, seat: int, tile: str, end: str | None = None) -> None:
    m.apply(seat, Play(parse_tile(tile, 6), end), 1001)


# ------------------------------------------------------------------- the preset


def test_the_presets_are_listed_with_their_settings() -> None:
    for pid in ("all-fives", "muggins"):
        listed = PRESETS[pid].describe()
        assert listed["players"] == {"min": 2, "max": 4}
        rules = listed["rules"]
        assert rules["hand_size"] == {"2": 9, "3": 7, "4": 5}
        assert rules["teams"] == {"2": None, "3": None, "4": "pairs"}
        assert rules["target"] == {"2": 250, "3": 200, "4": 200}
        assert (rules["in_play"], rules["round_to"], rules["target_check"]) == (
            "fives",
            5,
            "every_score",
        )
        assert (rules["opening"], rules["next_round"], rules["tie"]) == (
            "lot",
            "domino_winner",
            "split",
        )
        assert (rules["out_scoring"], rules["block_scoring"], rules["block_winner"]) == (
            "opponents",
            "opponents",
            "lowest_team",
        )
    assert PRESETS["all-fives"].rules["layout"] == "spinner"
    assert PRESETS["muggins"].rules["layout"] == "line"


def test_the_pool_after_the_deal_and_the_counts_resolve_per_player_count() -> None:
    for n, hand, pool, target, teams in (
        (2, 9, 10, 250, None),
        (3, 7, 7, 200, None),
        (4, 5, 8, 200, "pairs"),
    ):
        m = Match.start(resolve_rules("all-fives", n), seed=3)
        assert [h.bit_count() for h in m.hands] == [hand] * n
        assert len(m.boneyard) == pool and m.drawable() == pool
        assert (m.rules.target, m.rules.teams) == (target, teams)
    singles = resolve_rules("all-fives", 4, {"teams": None})
    assert singles.teams is None


def test_the_refused_combinations_are_invalid_requests() -> None:
    crossing = {"opening": "highest_double", "next_round": "same_as_first"}
    for overrides in (
        {"layout": "cross", "no_double": "reshuffle", **crossing},  # in_play on a cross
        {"layout": "star", "no_double": "reshuffle", "set": 9, **crossing},
        {"round_to": 10},
        {"next_round": "winning_pair", "teams": None},  # winning_pair without pairs
        {"layout": "cross", "no_double": "reshuffle", "in_play": None},  # domino_winner lead
    ):
        with pytest.raises(errors.InvalidInput):
            resolve_rules("all-fives", 4, overrides)
    with pytest.raises(errors.InvalidInput):
        resolve_rules("cruzado", 4, {"in_play": "fives"})


# ------------------------------------------------------------------- the count


def test_leads() -> None:
    assert counts("spinner", [("6-4", None)]) == [(10, 10)]
    assert counts("spinner", [("5-5", None)]) == [(10, 10)]  # not 20
    assert counts("spinner", [("0-0", None)]) == [(0, 0)]
    assert counts("spinner", [("3-1", None)]) == [(4, 0)]


def test_a_led_spinner() -> None:
    assert counts(
        "spinner",
        [("5-5", None), ("2-5", "left"), ("3-5", "right"), ("5-6", "north"), ("4-5", "south")],
    ) == [(10, 10), (12, 0), (5, 5), (11, 0), (15, 15)]


def test_a_led_spinner_opens_north_and_south_once_both_sides_are_covered() -> None:
    m = rigged(
        2,
        [
            ["5-5", "3-5", "4-5", "0-0", "0-1", "1-1", "0-2", "1-2", "2-2"],
            ["2-5", "5-6", "0-3", "1-3", "2-3", "3-3", "0-4", "1-4", "2-4"],
        ],
    )
    lay(m, 0, "5-5")
    lay(m, 1, "2-5", "left")
    assert m.board_view()["count"] == 12
    # seat 0's 3-5 fits the right end only: north waits for both sides
    assert {(p.tile.id, p.end) for p in m.legal_moves() if str(p.tile) == "3-5"} == {
        (parse_tile("3-5", 6).id, "right")
    }
    with pytest.raises(errors.TileDoesNotMatch):
        m.apply(0, Play(parse_tile("3-5", 6), "north"), 1001)
    lay(m, 0, "3-5", "right")
    assert m.scores == [10 + 5, 0]
    board = m.board_view()
    assert board["spinner"] == "5-5" and board["count"] == 5
    assert [(e["end"], e["pips"], e["counts"]) for e in board["ends"]] == [
        ("left", 2, 2),
        ("right", 3, 3),
        ("north", 5, 0),
        ("south", 5, 0),
    ]
    lay(m, 1, "5-6", "north")
    lay(m, 0, "4-5", "south")
    assert m.scores == [30, 0]


def test_after_the_spinner_and_2_5_left_a_5_6_is_legal_on_right_only() -> None:
    """The check's own tile: 5-5, 2-5 left, and a 5-6 fits ``right`` alone; ``north`` is refused
    (422 tile_does_not_match) until both sides are covered."""
    m = rigged(
        2,
        [
            ["5-5", "5-6", "4-5", "0-0", "0-1", "1-1", "0-2", "1-2", "2-2"],
            ["2-5", "3-5", "0-3", "1-3", "2-3", "3-3", "0-4", "1-4", "2-4"],
        ],
    )
    lay(m, 0, "5-5")
    lay(m, 1, "2-5", "left")
    assert [p.end for p in m.legal_moves() if str(p.tile) == "5-6"] == ["right"]
    before = encode(m)
    with pytest.raises(errors.TileDoesNotMatch):
        m.apply(0, Play(parse_tile("5-6", 6), "north"), 1001)
    assert encode(m) == before
    lay(m, 0, "5-6")  # no end named: the one it fits
    assert m.board_view()["count"] == 2 + 6


def test_a_spinner_laid_mid_line() -> None:
    assert counts(
        "spinner", [("2-4", None), ("4-4", "right"), ("1-4", "right"), ("2-2", "left")]
    ) == [(6, 0), (10, 10), (3, 0), (5, 5)]
    ends, arm_len = SPINNER.empty()
    for tile, arm in (("2-4", -1), ("4-4", 1)):
        opened = SPINNER.lay(ends, arm_len, parse_tile(tile, 6).id, arm)
    assert opened == (0, 1)  # left and right only
    opened = SPINNER.lay(ends, arm_len, parse_tile("1-4", 6).id, 1)
    assert opened == (0, 1, 2, 3) and ends[2:] == [4, 4]
    opened = SPINNER.lay(ends, arm_len, parse_tile("2-2", 6).id, 0)
    assert opened == (0, 1, 2, 3)  # the 2-2 opens no end


def test_a_double_at_one_end_a_five_at_the_other_the_spinner_silent() -> None:
    assert counts(
        "spinner",
        [
            ("4-4", None),
            ("1-4", "left"),
            ("0-4", "right"),
            ("1-5", "left"),
            ("5-5", "left"),
            ("0-5", "right"),
            ("4-5", "north"),
        ],
    ) == [(8, 0), (9, 0), (1, 0), (5, 5), (10, 10), (15, 15), (20, 20)]


def test_thirty_five() -> None:
    got = counts(
        "spinner",
        [
            ("3-3", None),
            ("3-6", "left"),
            ("3-5", "right"),
            ("6-6", "left"),
            ("5-5", "right"),
            ("3-4", "north"),
            ("4-4", "north"),
            ("2-3", "south"),
            ("2-5", "south"),
        ],
    )
    assert [c for c, _ in got] == [6, 12, 11, 17, 22, 26, 30, 32, 35]
    assert [s for _, s in got] == [0, 0, 0, 0, 0, 0, 30, 0, 35]


def test_muggins_counts_a_line() -> None:
    assert counts(
        "line",
        [("5-5", None), ("0-5", "right"), ("0-0", "right"), ("5-6", "left"), ("0-4", "right")],
    ) == [(10, 10), (10, 10), (10, 10), (6, 0), (10, 10)]
    assert counts("line", [("2-4", None), ("3-4", "right")]) == [(6, 0), (5, 5)]
    assert counts("line", [("2-4", None), ("4-4", "right")]) == [(6, 0), (10, 10)]
    m = rigged(
        2,
        [
            ["5-5", "0-0", "0-4", "1-1", "1-2", "2-2", "1-3", "2-3", "3-3"],
            ["0-5", "5-6", "0-1", "0-2", "0-3", "1-4", "2-4", "3-4", "4-4"],
        ],
        preset="muggins",
    )
    lay(m, 0, "5-5")
    lay(m, 1, "0-5", "right")
    lay(m, 0, "0-0", "right")
    assert [e["end"] for e in m.board_view()["ends"]] == ["left", "right"]
    assert m.board_view()["spinner"] is None
    assert m.scores == [20, 10]


# ------------------------------------------------------------------- the end of a hand


def position(
    players: int,
    hands: list[list[str]],
    plays: list[tuple[int, str, str | None]],
    turn: int,
    scores: list[int] | None = None,
    preset: str = "all-fives",
    seed: int = 5,
    drawn_out: bool = False,
) -> Match:
    """A hand in play: ``hands`` left, the board made of ``plays`` (seat, tile, end), ``turn``
    on turn, ``scores`` so far; the unseen tiles in the boneyard (``drawn_out``: out of play,
    the boneyard empty). Restored, as decoding does."""
    rules = resolve_rules(preset, players)
    board = LAYOUTS[rules.layout]
    held = [sum(1 << parse_tile(t, 6).id for t in hand) for hand in hands]
    laid = {parse_tile(t, 6).id for _, t, _ in plays}
    rest = [t.id for t in full_set(6) if t.id not in laid and not any(h >> t.id & 1 for h in held)]
    log = [
        (0, seat, parse_tile(t, 6).id, -1 if end is None else board.index[end], 1000)
        for seat, t, end in plays
    ]
    return Match.restore(
        rules,
        seed=seed,
        status="playing",
        hand_number=1,
        reshuffles=0,
        opener=plays[0][0] if plays else turn,
        turn=turn,
        forced=-1,
        passes=0,
        hands=held,
        boneyard=[] if drawn_out else rest[::-1],
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


def test_domino_in_pairs_is_rounded_once() -> None:
    m = position(
        4,
        [["1-6"], ["6-6", "0-1"], ["3-3"], ["5-6", "0-2"]],
        [(2, "2-4", None), (3, "4-6", "right")],
        turn=0,
    )
    assert m.board_view()["count"] == 2 + 6
    lay(m, 0, "1-6", "right")  # 2 + 1 = 3: nothing during play
    last = m.last_hand()
    assert last is not None and last["reason"] == "domino"
    assert last["winners"] == [0, 2]
    assert last["points"] == {"0": 25, "1": 0, "2": 25, "3": 0}  # 13 + 13 = 26, rounded once
    assert last["play_points"] == {"0": 0, "1": 0, "2": 0, "3": 0}
    assert last["bonus"] == {"0": 25, "1": 0, "2": 25, "3": 0}
    assert m.scores == [25, 0, 25, 0]


def test_points_made_during_play_go_to_the_pair_and_each_legal_play_says_its_points() -> None:
    m = position(
        4,
        [["0-1", "2-2"], ["1-6", "2-3"], ["3-3", "0-2"], ["5-6", "0-0"]],
        [(0, "6-4", None)],  # 10 for seat 0's pair
        turn=1,
        scores=[10, 0, 10, 0],
    )
    assert m.legal_json() == [{"tile": "1-6", "end": "right", "scores": 5}]  # 4 + 1
    lay(m, 1, "1-6", "right")
    assert m.scores == [10, 5, 10, 5]
    assert m.moves(None)[-1] | {"at": 0} == {
        "n": 2,
        "hand_number": 1,
        "seat": 1,
        "action": "play",
        "tile": "1-6",
        "end": "right",
        "count": 5,
        "scored": 5,
        "at": 0,
    }


def test_closed_hands() -> None:
    two = resolve_rules("all-fives", 2)
    order = [0, 1]
    # 0-1 (1) against 6-6 + 1-3 (16): the 1 scores round(16) = 15
    outcome = score_hand(two, [1, 16], HandEnd.CLOSED, None, order)
    assert (outcome.winners, outcome.points) == ([0], [15, 0])
    outcome = score_hand(two, [2, 2], HandEnd.CLOSED, None, order)  # 0-2 against 1-1
    assert (outcome.winners, outcome.points) == ([], [0, 0])
    pairs = resolve_rules("all-fives", 4)
    outcome = score_hand(pairs, [4, 5, 3, 2], HandEnd.CLOSED, None, [0, 1, 2, 3])  # 7 : 7
    assert (outcome.winners, outcome.points) == ([], [0, 0, 0, 0])
    three = resolve_rules("all-fives", 3)
    outcome = score_hand(three, [2, 2, 13], HandEnd.CLOSED, None, [0, 1, 2])
    assert (outcome.winners, outcome.points) == ([0, 1], [5, 5, 0])  # R = 15: 5 each
    outcome = score_hand(three, [2, 4, 13], HandEnd.CLOSED, None, [0, 1, 2])
    assert (outcome.winners, outcome.points) == ([0], [15, 0, 0])  # round(17) = 15
    outcome = score_hand(three, [3, 3, 3], HandEnd.CLOSED, None, [0, 1, 2])
    assert (outcome.winners, outcome.points) == ([], [0, 0, 0])  # all three equal
    singles = resolve_rules("all-fives", 4, {"teams": None})
    outcome = score_hand(singles, [2, 2, 9, 9], HandEnd.CLOSED, None, [0, 1, 2, 3])
    assert outcome.points == [0, 0, 0, 0]  # four singles: a tie for lowest scores nobody
    outcome = score_hand(singles, [1, 9, 9, 9], HandEnd.DOMINO, 0, [0, 1, 2, 3])
    assert outcome.points == [25, 0, 0, 0]  # every other hand: 27, rounded


def test_the_target_reached_mid_hand_ends_the_match_at_once() -> None:
    m = position(
        2,
        [["3-4", "6-6", "0-0"], ["1-2", "5-5", "0-6"]],
        [(1, "3-3", None)],
        turn=0,
        scores=[245, 100],
    )
    result = m.apply(0, Play(parse_tile("3-4", 6), "right"), 1002)  # 6 + 4 = 10
    assert result.match_over and m.status == "finished"
    assert m.scores == [255, 100]
    last = m.result()
    assert last is not None
    assert (last["reason"], last["match_winners"], last["winners"]) == ("target", [0], [0])
    assert last["bonus"] == {"0": 0, "1": 0}
    assert last["play_points"] == {"0": 10, "1": 0}
    assert last["hands"]["0"] == ["0-0", "6-6"] and last["hands"]["1"]
    again = decode(encode(m))
    assert again.result() == last and encode(again) == encode(m)


def test_going_out_scores_the_count_first_and_the_award_unless_the_count_won() -> None:
    m = position(2, [["3-4"], ["1-2", "5-5"]], [(1, "3-3", None)], turn=0, scores=[245, 0])
    m.apply(0, Play(parse_tile("3-4", 6), "right"), 1002)
    assert m.result() is not None and m.result()["reason"] == "target"  # type: ignore[index]
    m = position(2, [["3-4"], ["1-2", "5-5"]], [(1, "3-3", None)], turn=0, scores=[100, 0])
    m.apply(0, Play(parse_tile("3-4", 6), "right"), 1002)
    last = m.last_hand()
    assert last is not None and last["reason"] == "domino"
    assert last["play_points"]["0"] == 10 and last["bonus"]["0"] == 15  # 3 + 10 = 13 -> 15
    assert last["points"]["0"] == 25 and m.scores[0] == 125


def test_the_lead_after_a_domino_and_after_a_closed_hand() -> None:
    m = position(3, [["0-1"], ["5-5", "6-6"], ["1-2"]], [(0, "2-4", None)], turn=2)
    lay(m, 2, "1-2", "left")  # seat 2 goes out
    assert m.hand_number == 2 and m.opener == 2 and m.forced == -1  # any tile
    # a closed hand: the lot draws again (what the seeded shuffle's lot gives)
    from domino.engine.deal import seeded_shuffle

    m = position(2, [["6-6"], ["5-5"]], [(0, "1-2", None)], turn=1, seed=11, drawn_out=True)
    m.apply(1, PASS, 1002)
    m.apply(0, PASS, 1003)
    last = m.last_hand()
    assert last is not None and last["reason"] == "closed"
    _, lot = seeded_shuffle(11, 2, 0, 28)
    assert m.opener == lot % 2 and m.forced == -1


@pytest.mark.parametrize("lot", [0, 1, 2])
def test_a_dev_lot_leads_every_hand_the_lot_draws(lot: int) -> None:
    """``deal.lot`` fixes what every lot of the match draws: the first hand's and, after a closed
    hand, the next one's; a hand won by a domino is led by its winner. The lot is in the bytes:
    the match is decoded from its encoding before every move, as the service does."""
    closed = 0
    for seed in range(12):
        m = Match.start(resolve_rules("all-fives", 3), seed=seed, deal={"lot": lot})
        assert m.opener == lot and m.forced == -1
        rng = random.Random(seed)
        while m.status == "playing":
            hand = m.hand_number
            m = decode(encode(m))
            random_step(m, rng)
            last = m.last_hand()
            if m.status == "playing" and m.hand_number != hand and last is not None:
                if last["reason"] == "closed":
                    closed += 1
                    assert m.opener == lot, (seed, hand)
                else:
                    assert last["reason"] == "domino" and m.opener == last["winners"][0]
    assert closed >= 3  # the seeds reach closed hands


# ------------------------------------------------------------------- invariants


@pytest.mark.parametrize(
    "case", [("all-fives", n) for n in (2, 3, 4)] + [("muggins", 2), ("muggins", 4)]
)
def test_the_count_after_every_play_is_the_boards_recount(case: tuple[str, int]) -> None:
    """Random whole matches: after every play the view's count is the count recomputed from
    the board's tiles alone, each play's ``scored`` is what it added to its side's score, and
    an encoded match decodes to the same views."""
    pid, n = case
    for seed in range(6):
        m = Match.start(resolve_rules(pid, n), seed=seed)
        rng = random.Random(seed)
        steps = 0
        while m.status == "playing" and steps < 400:
            before = list(m.scores)
            hand = m.hand_number
            random_step(m, rng)
            steps += 1
            if m.status != "playing" or m.hand_number != hand:
                continue
            board = m.board
            plays = [(tid, arm) for tid, _, arm in board]
            recount = trail(m.layout, plays)[-1] if plays else 0
            assert m.board_view().get("count", 0) == recount
            gained = [a - b for a, b in zip(m.scores, before, strict=True)]
            last = m.moves(None)[-1]
            if last["action"] == "play":
                assert last["count"] == recount and max(gained) == last["scored"]
            else:
                assert gained == [0] * n
            assert decode(encode(m)).view(None) == m.view(None)
