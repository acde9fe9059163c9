"""Scoring and match play: docs/rules.md's scoring words and exact answers; the seeds' checks."""

from __future__ import annotations

import random

import pytest
from domino.engine import HandEnd, Match, resolve_rules
from domino.engine.forced import first_move
from domino.engine.scoring import match_winners, score_hand
from engine_helpers import pass_, play, random_step, start

# ---------------------------------------------------------------- S0: 15 / 19 / 22 -> 11

S0_HANDS = [
    ["6-6", "5-5", "2-3"],  # 15 after leading 6-6
    ["4-5", "4-4", "0-2"],  # 19
    ["3-5", "3-4", "2-5"],
]  # 22


def close_after_lead(m: Match) -> None:
    """The opener led; nobody can follow: everyone passes once."""
    for _ in range(m.players):
        pass_(m, m.turn)


def test_s0_closed_15_19_22_scores_11_under_clasico() -> None:
    m = start("clasico", 3, S0_HANDS, overrides={"hand_size": 3, "draw": "none"})
    play(m, 0, "6-6")
    close_after_lead(m)
    last = m.last_hand()
    assert last["reason"] == "closed" and last["winners"] == [0]
    assert last["points"] == {"0": 11, "1": 0, "2": 0}
    assert [s["score"] for s in m.view(None)["seat_stats"]] == [11, 0, 0]
    assert last["hands"] == {
        "0": ["2-3", "5-5"],
        "1": ["0-2", "4-4", "4-5"],
        "2": ["2-5", "3-4", "3-5"],
    }
    # and the pure function on the unmodified preset
    out = score_hand(resolve_rules("clasico", 3), [15, 19, 22], HandEnd.CLOSED, None, [0, 1, 2])
    assert out.winners == [0] and out.points == [11, 0, 0]


# ---------------------------------------------------------------- S3: 10 vs 25

S3_HANDS = [["6-6", "4-5", "0-1"], ["5-5", "3-4", "3-5"]]  # 10 vs 25 after 6-6


@pytest.mark.parametrize(
    ("mode", "points"), [("all_hands", 35), ("difference", 15), ("opponents", 25)]
)
def test_s3_closed_10_vs_25(mode: str, points: int) -> None:
    overrides = {"hand_size": 3, "draw": "none"}
    if mode != "all_hands":
        overrides["block_scoring"] = mode
    m = start("dos-jugadores", 2, S3_HANDS, overrides=overrides)
    play(m, 0, "6-6")
    close_after_lead(m)
    assert m.last_hand()["points"] == {"0": points, "1": 0}
    assert m.scores == [points, 0]


def test_out_scores_opponents_pips() -> None:
    m = start("dos-jugadores", 2, [["6-6", "5-6"], ["4-6", "1-2"]], overrides={"hand_size": 2})
    play(m, 0, "6-6")
    play(m, 1, "4-6", "left")
    play(m, 0, "5-6")
    assert m.last_hand()["points"] == {"0": 3, "1": 0}


def test_units_of_ten_round_half_up() -> None:
    r = resolve_rules("dos-jugadores", 2, {"unit": 10, "target": 30})
    assert score_hand(r, [10, 25], HandEnd.CLOSED, None, [0, 1]).points == [4, 0]  # 35 -> 4
    assert score_hand(r, [10, 24], HandEnd.CLOSED, None, [0, 1]).points == [3, 0]  # 34 -> 3
    assert score_hand(r, [0, 45], HandEnd.DOMINO, 0, [0, 1]).points == [5, 0]  # 45 -> 5
    m = start(
        "dos-jugadores",
        2,
        S3_HANDS,
        overrides={"hand_size": 3, "draw": "none", "unit": 10, "target": 30},
    )
    play(m, 0, "6-6")
    close_after_lead(m)
    assert m.scores == [4, 0]


# ---------------------------------------------------------------- S4: penalty


def test_s4_going_out_scores_zero_others_add_own_pips() -> None:
    m = start(
        "buho21", 3, [["6-6", "5-6"], ["4-6", "1-2"], ["0-3", "2-4"]], overrides={"hand_size": 2}
    )
    play(m, 0, "6-6")
    assert m.turn == 2  # counterclockwise: 0 -> 2 -> 1
    while m.status == "playing" and m.hand_number == 1:
        m.apply(m.turn, first_move(m), 0)
    last = m.last_hand()
    assert last["reason"] == "domino" and last["winners"] == [1]
    assert last["points"] == {"0": 35, "1": 0, "2": 101}
    pips = {s: sum(int(x) for t in last["hands"][str(s)] for x in t.split("-")) for s in range(3)}
    assert pips == {0: 35, 1: 0, 2: 101}
    # 101 >= 100 ends the match; the lowest total (seat 1, 0 points) wins
    assert last["match_over"] and last["match_winners"] == [1]


def test_s4_penalty_simple_out() -> None:
    m = start("buho21", 2, [["6-6", "5-6"], ["4-6", "1-2"]], overrides={"hand_size": 2})
    play(m, 0, "6-6")
    play(m, 1, "4-6", "left")
    play(m, 0, "5-6")
    assert m.last_hand()["points"] == {"0": 0, "1": 3}
    assert m.scores == [0, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_s4_rapido_ends_at_50_and_lowest_total_wins(players: int) -> None:
    rules = resolve_rules("buho21", players, {"target": 50})
    for seed in range(6):
        m = Match.start(rules, seed=seed)
        rng = random.Random(seed)
        hand = 1
        while m.status == "playing":
            random_step(m, rng)
            if m.hand_number != hand or m.status == "finished":
                hand = m.hand_number
                reached = max(m.scores) >= 50
                assert (m.status == "finished") == reached
        res = m.result()
        low = min(m.scores)
        assert res["match_winners"] == [s for s in range(players) if m.scores[s] == low]
        assert res["match_over"] is True


def test_penalty_pairs_add_both_seats() -> None:
    r = resolve_rules("buho21", 4, {"teams": "pairs"})
    out = score_hand(r, [0, 5, 7, 9], HandEnd.DOMINO, 0, [0, 3, 2, 1])
    assert out.winners == [0, 2] and out.points == [0, 5, 0, 9]


# ---------------------------------------------------------------- El 111


def test_el_111_out_scores_all_others_partner_included() -> None:
    hands = [["6-6", "5-6"], ["1-6", "0-0"], ["1-2", "3-3"], ["0-2", "4-4"]]
    m = start("parejas-111", 4, hands, overrides={"hand_size": 2})
    play(m, 0, "6-6")
    play(m, 1, "1-6", "left")
    play(m, 2, "1-2", "left")
    play(m, 3, "0-2", "left")
    play(m, 0, "5-6", "right")
    last = m.last_hand()
    assert last["winners"] == [0, 2]
    assert last["points"] == {"0": 14, "1": 0, "2": 14, "3": 0}  # 0 + 6 + 8
    stats = m.view(None)["seat_stats"]
    assert [s["score"] for s in stats] == [14, 0, 14, 0]
    assert [s["team"] for s in stats] == [0, 1, 0, 1]


def test_el_111_closed_all_hands_to_the_pair_of_the_lowest_single_hand() -> None:
    # lowest single hand is seat 0 (1 pip) though its pair holds more (1 + 19 vs 6 + 6)
    hands = [["6-6", "0-1"], ["2-2", "0-2"], ["5-5", "4-5"], ["0-3", "1-2"]]
    m = start("parejas-111", 4, hands, overrides={"hand_size": 2})
    play(m, 0, "6-6")
    close_after_lead(m)
    last = m.last_hand()
    assert last["reason"] == "closed" and last["winners"] == [0, 2]
    assert last["points"] == {"0": 32, "1": 0, "2": 32, "3": 0}
    r = resolve_rules("parejas-111", 4, {"block_winner": "lowest_team"})
    out = score_hand(r, [1, 6, 19, 6], HandEnd.CLOSED, None, [0, 1, 2, 3])
    assert out.winners == [1, 3] and out.points == [0, 32, 0, 32]


def test_pairs_reaching_the_target_end_the_match() -> None:
    rules = resolve_rules("parejas-111", 4)
    m = Match.start(rules, seed=3)
    rng = random.Random(3)
    while m.status == "playing":
        random_step(m, rng)
    res = m.result()
    assert m.scores[0] == m.scores[2] and m.scores[1] == m.scores[3]
    win = res["match_winners"]
    assert len(win) == 2 and win[0] % 2 == win[1] % 2 and m.scores[win[0]] >= 111


# ---------------------------------------------------------------- ties


def test_tie_play_order_first_tied_from_opener() -> None:
    r = resolve_rules("clasico", 3)
    out = score_hand(r, [10, 8, 8], HandEnd.CLOSED, None, [2, 0, 1])
    assert out.winners == [2] and out.points == [0, 0, 2]  # difference: (10-8) + 0


def test_tie_none_scores_nobody() -> None:
    r = resolve_rules("clasico", 3, {"tie": "none"})
    out = score_hand(r, [10, 8, 8], HandEnd.CLOSED, None, [0, 1, 2])
    assert out.winners == [] and out.points == [0, 0, 0] and out.pot_takers == [1, 2]
    r = resolve_rules("buho21", 3, {"tie": "none"})
    assert score_hand(r, [10, 8, 8], HandEnd.CLOSED, None, [0, 1, 2]).points == [0, 0, 0]


def test_win_scoring_is_one_per_hand() -> None:
    r = resolve_rules("infantil", 2)
    assert score_hand(r, [0, 30], HandEnd.DOMINO, 0, [0, 1]).points == [1, 0]
    assert score_hand(r, [5, 30], HandEnd.CLOSED, None, [0, 1]).points == [1, 0]


# ---------------------------------------------------------------- pool


POOL_HANDS = [
    ["6-6", "0-1", "1-2"],  # 4 after the lead
    ["0-4", "0-0", "2-2"],  # 8
    ["1-3", "0-3", "0-5"],
]  # 12


def test_pool_stake_paid_at_deal_winner_takes_the_pot() -> None:
    m = start("pool", 3, POOL_HANDS, overrides={"hand_size": 3, "draw": "none"})
    v = m.view(None)
    assert v["pot"] == 3 and [s["chips"] for s in v["seat_stats"]] == [-1, -1, -1]
    play(m, 0, "6-6")
    close_after_lead(m)
    assert m.last_hand()["winners"] == [0]
    v = m.view(None)
    # the next hand is dealt at once: everyone paid again
    assert m.hand_number == 2 and v["pot"] == 3
    assert [s["chips"] for s in v["seat_stats"]] == [1, -2, -2]


def test_pool_tie_splits_the_pot_and_the_remainder_stays() -> None:
    hands = [
        ["6-6", "0-1", "1-3"],  # 5
        ["0-5", "1-4", "2-2"],  # 14
        ["0-0", "0-3", "0-2"],
    ]  # 5 -> tie 0 and 2
    m = start("pool", 3, hands, overrides={"hand_size": 3, "draw": "none"})
    play(m, 0, "6-6")
    close_after_lead(m)
    last = m.last_hand()
    assert last["winners"] == [] and last["points"] == {"0": 0, "1": 0, "2": 0}
    v = m.view(None)
    # pot 3 split between seats 0 and 2: 1 each, 1 stays; the next deal adds 3
    assert v["pot"] == 4
    assert [s["chips"] for s in v["seat_stats"]] == [-1, -2, -1]
    assert m.forced >= 0  # no winner: the first-hand rule applies again


def test_no_chips_without_stake() -> None:
    m = Match.start(resolve_rules("clasico", 3), seed=1)
    v = m.view(None)
    assert v["pot"] is None and all(s["chips"] is None for s in v["seat_stats"])


# ---------------------------------------------------------------- match forms


def test_ida_y_vuelta_two_hands_higher_total_wins_equal_is_a_draw() -> None:
    rules = resolve_rules("ida-y-vuelta", 2)
    saw_draw = saw_win = False
    for seed in range(400):
        m = Match.start(rules, seed=seed)
        rng = random.Random(seed)
        while m.status == "playing":
            random_step(m, rng)
        res = m.result()
        assert res["hand_number"] == 2
        if m.scores[0] == m.scores[1]:
            assert res["match_winners"] == [] and res["draw"] is True
            saw_draw = True
        else:
            best = max(range(2), key=lambda s: m.scores[s])
            assert res["match_winners"] == [best] and "draw" not in res
            saw_win = True
        if saw_draw and saw_win:
            break
    assert saw_win and saw_draw
    r = resolve_rules("ida-y-vuelta", 2)
    assert match_winners(r, [20, 20], [0], []) == ([], True)


def test_single_hand_match() -> None:
    m = Match.start(resolve_rules("infantil", 4), seed=9)
    rng = random.Random(0)
    while m.status == "playing":
        random_step(m, rng)
    res = m.result()
    assert res is not None and res["hand_number"] == 1
    assert res == m.view(0)["last_hand"] == m.view(0)["result"]
    assert res["match_winners"] == res["winners"]


def test_target_first_side_to_reach_it_wins() -> None:
    rules = resolve_rules("clasico", 4)
    m = Match.start(rules, seed=21)
    rng = random.Random(2)
    while m.status == "playing":
        random_step(m, rng)
    res = m.result()
    assert len(res["match_winners"]) == 1 and m.scores[res["match_winners"][0]] >= 100
    assert sum(1 for s in m.scores if s >= 100) == 1
