"""Cubano (docs/rules.md "cubano"): each check the rules set for it, as a test of its own."""

from __future__ import annotations

import random

import pytest
from domino.engine import errors
from domino.engine.encoding import decode, encode
from domino.engine.match import Match
from domino.engine.moves import CEDE, DRAW, PASS, Play
from domino.engine.outcome import HandEnd
from domino.engine.rules import PRESETS, resolve_rules
from domino.engine.scoring import match_over, match_winners, score_hand
from domino.engine.tiles import DOUBLE, TILES, parse_tile

RULES = resolve_rules("cubano", 4)
ORDER_FROM_0 = [0, 3, 2, 1]  # counterclockwise


def closing_deal(tie: str, seed: int = 7) -> dict[str, object]:
    """A deal whose hand closes at once: seat 0 (the lot's) leads 0-0 and every other tile with
    a 0 sleeps, so all four pass. ``tie``: "across" (seats 0 and 3, of both pairs, share the
    lowest count after the lead), "partners" (seats 0 and 2 do)."""
    zeros = [f"0-{x}" for x in range(1, 10)]
    rest = [str(t) for t in TILES[:55] if t.a != 0 and t.b != 0]  # 45 tiles without a 0
    rng = random.Random(seed)
    other = 2 if tie == "partners" else 3
    while True:
        rng.shuffle(rest)
        hands = [["0-0", *rest[:9]], rest[9:19], rest[19:29], rest[29:39]]
        doubles = [sum(1 for t in hand if t[0] == t[-1]) for hand in hands]
        pips = [sum(parse_tile(t, 9).pips for t in hand) for hand in hands]  # 0-0 counts 0
        low = pips[0]
        others = [pips[s] for s in (1, 2, 3) if s != other]
        if max(doubles) < 5 and pips[other] == low and all(p > low for p in others):
            # in the deal, the rest of the sleeping tiles after the nine 0-x
            return {"hands": hands, "boneyard": [*zeros, *rest[39:]], "lot": 0}


def test_the_preset_is_listed_with_its_settings() -> None:
    listed = PRESETS["cubano"].describe()
    assert listed["players"] == {"min": 4, "max": 4}
    rules = listed["rules"]
    assert (rules["set"], rules["hand_size"], rules["reserve"]) == (9, {"4": 10}, {"4": 15})
    assert (rules["draw"], rules["direction"], rules["teams"]) == (
        "none",
        "counterclockwise",
        "pairs",
    )
    assert (rules["opening"], rules["next_round"], rules["redeal_doubles"]) == (
        "pair_lot",
        "winning_pair",
        5,
    )
    assert (rules["out_scoring"], rules["block_scoring"], rules["block_winner"]) == (
        "opponents",
        "opponents",
        "lowest_player",
    )
    assert (rules["tie"], rules["match"], rules["target"]) == ("none", "target", 100)


def test_a_deal_leaves_four_hands_of_ten_and_fifteen_asleep_and_nothing_to_draw() -> None:
    m = Match.start(RULES, seed=11)
    view = m.view(m.turn)
    assert [s["tiles"] for s in view["seat_stats"]] == [10, 10, 10, 10]
    assert (view["boneyard"], view["drawable"]) == (15, 0)
    assert view["you"]["can_draw"] is False
    with pytest.raises(errors.CannotDraw):
        m.apply(m.turn, DRAW, 1)


def test_five_doubles_in_a_hand_are_dealt_again_and_four_are_played() -> None:
    doubles = [str(TILES[DOUBLE[x]]) for x in range(10)]
    others = [str(t) for t in TILES[:55] if t.a != t.b]
    five = {"hands": [[*doubles[:5], *others[:5]], others[5:15], others[15:25], others[25:35]]}
    m = Match.start(RULES, seed=3, deal={**five, "lot": 2})
    assert m.reshuffles >= 1
    assert all(
        sum(1 for t in m.hand_of(s) if t.a == t.b) < 5 for s in range(4)
    )  # the redeal stands
    assert m.offered == 2  # a redeal keeps the lot
    four = {"hands": [[*doubles[:4], *others[:6]], others[6:16], others[16:26], others[26:36]]}
    kept = Match.start(RULES, seed=3, deal=four)
    assert kept.reshuffles == 0
    assert sorted(map(str, kept.hand_of(0))) == sorted(four["hands"][0])


def test_the_turns_go_counterclockwise_from_the_opener() -> None:
    m = Match.start(RULES, seed=1, deal=closing_deal("across"))
    assert m.turn == 0
    m.apply(0, Play(parse_tile("0-0", 9)), 1)
    seen = []
    for _ in range(4):
        seen.append(m.turn)
        m.apply(m.turn, PASS, 2)
    assert seen == [3, 2, 1, 0]


def test_the_lot_offers_the_lead_and_the_pair_chooses_its_leader() -> None:
    m = Match.start(RULES, seed=1, deal={"lot": 3})  # seed 1 deals seat 1 the 2-7
    assert m.turn == 3 and m.view(3)["lead"] == {"pair": [1, 3], "offered": 3, "ceded": False}
    assert m.view(3)["you"]["can_cede"] is True and m.view(1)["you"]["can_cede"] is False
    with pytest.raises(errors.NotYourTurn):
        m.apply(1, CEDE, 1)  # not_your_turn comes before cannot_cede
    m.apply(3, CEDE, 2)
    assert (m.turn, m.opener) == (1, 1)
    assert m.view(None)["lead"] == {"pair": [1, 3], "offered": 3, "ceded": True}
    with pytest.raises(errors.CannotCede):
        m.apply(1, CEDE, 3)  # the partner cannot cede back
    m.apply(1, Play(parse_tile("2-7", 9)), 4)  # any tile: seat 1 leads 2-7
    assert m.turn == 0 and m.view(None)["lead"] is None
    assert [(r["action"], r.get("tile")) for r in m.moves(None)] == [
        ("cede", None),
        ("play", "2-7"),
    ]


def test_a_cede_after_the_first_tile_or_in_another_game_is_refused() -> None:
    m = Match.start(RULES, seed=5, deal={"lot": 0})
    m.apply(0, m.legal_moves()[0], 1)
    with pytest.raises(errors.CannotCede):
        m.apply(3, CEDE, 2)
    other = Match.start(resolve_rules("parejas-111", 4), seed=5)
    with pytest.raises(errors.CannotCede):
        other.apply(other.turn, CEDE, 1)
    assert "lead" not in other.view(0) and "can_cede" not in other.view(0)["you"]


def test_a_timeout_never_cedes() -> None:
    m = Match.start(RULES, seed=5, deal={"lot": 2})
    with pytest.raises(errors.CannotCede):
        m.timeout(2, "auto", 1, CEDE)
    m.timeout(2, "auto", 1)  # it leads
    assert m.board and m.board[0][1] == 2


def test_a_domino_scores_both_opponents_hands_and_never_the_partners() -> None:
    # seat 2 went out; seat 1 holds 9-9 (18), seat 3 4-5 (9), seat 0 8-8 (16)
    out = score_hand(RULES, [16, 18, 0, 9], HandEnd.DOMINO, 2, ORDER_FROM_0)
    assert out.points == [27, 0, 27, 0] and out.winners == [0, 2]


def test_a_closed_hand_goes_to_the_lowest_single_hand() -> None:
    out = score_hand(RULES, [3, 7, 20, 5], HandEnd.CLOSED, None, ORDER_FROM_0)
    assert out.points == [12, 0, 12, 0] and out.win_seat == 0


def test_a_tie_across_the_pairs_scores_nobody_and_partners_tied_win() -> None:
    across = score_hand(RULES, [4, 4, 17, 12], HandEnd.CLOSED, None, ORDER_FROM_0)
    assert across.points == [0, 0, 0, 0] and across.winners == []
    partners = score_hand(RULES, [4, 17, 4, 12], HandEnd.CLOSED, None, ORDER_FROM_0)
    assert partners.points == [29, 0, 29, 0] and partners.winners == [0, 2]


def test_after_a_tied_hand_the_seat_after_its_opener_is_offered_the_lead() -> None:
    m = Match.start(RULES, seed=1, deal=closing_deal("across"))
    m.apply(0, Play(parse_tile("0-0", 9)), 1)
    for _ in range(4):
        result = m.apply(m.turn, PASS, 2)
    assert result.hand_over and m.last is not None and m.last.winners == ()
    assert m.scores == [0, 0, 0, 0]
    assert (m.hand_number, m.offered, m.turn) == (2, 3, 3)


def test_after_a_won_hand_the_winning_seat_is_offered_the_lead() -> None:
    long_match = resolve_rules("cubano", 4, {"target": 1000})  # one hand does not end it
    m = Match.start(long_match, seed=1, deal=closing_deal("partners"))
    m.apply(0, Play(parse_tile("0-0", 9)), 1)
    for _ in range(4):
        m.apply(m.turn, PASS, 2)
    assert m.last is not None and m.last.winners == (0, 2)
    assert m.scores[0] == m.scores[2] > 0 and m.scores[1] == m.scores[3] == 0
    assert m.offered == m.turn == 0  # the lowest hand, first in play order, was seat 0's


def test_reaching_one_hundred_ends_the_match_for_the_pair() -> None:
    scores = [0, 95 + 12, 0, 95 + 12]
    assert match_over(RULES, scores, 5)
    assert match_winners(RULES, scores, [1, 3], []) == ([1, 3], False)
    assert not match_over(RULES, [0, 95, 0, 95], 4)


def test_the_sleeping_tiles_are_never_shown() -> None:
    m = Match.start(RULES, seed=1, deal=closing_deal("across"))
    asleep = {str(TILES[t]) for t in m.boneyard}
    m.apply(0, Play(parse_tile("0-0", 9)), 1)
    for _ in range(4):
        m.apply(m.turn, PASS, 2)
    # hand 1 as everyone sees it once it is over: its moves and every hand revealed
    shown = str(m.moves(0)) + str(m.last_hand())
    assert len(asleep) == 15 and not any(f"'{tile}'" in shown for tile in asleep)


def test_a_cubano_match_encodes_and_decodes_to_the_same_match() -> None:
    m = Match.start(RULES, seed=9, deal={"lot": 1})
    m.apply(1, CEDE, 5)
    data = encode(m)
    # the families' version (the seed presets stay version 1), + 4: the dev lot follows the log
    assert data[0] == 2 + 4 and encode(Match.start(RULES, seed=9))[0] == 2
    again = decode(data)
    assert again.lot == 1
    assert again.view(3) == m.view(3) and again.moves(3) == m.moves(3)
    assert encode(again) == data
    assert encode(Match.start(resolve_rules("parejas-111", 4), seed=9))[0] == 1


@pytest.mark.parametrize(
    "override",
    [{"teams": None, "block_winner": "lowest_player"}, {"redeal_doubles": 1}],
)
def test_refused_combinations(override: dict[str, object]) -> None:
    with pytest.raises(errors.InvalidInput):
        resolve_rules("cubano", 4, override)


def test_redeal_doubles_that_no_deal_could_meet_is_refused() -> None:
    # double-six, two hands of 14: all 28 tiles are dealt, so 7 doubles, 4 in one hand at least
    with pytest.raises(errors.InvalidInput):
        resolve_rules("infantil", 2, {"hand_size": 14, "reserve": 0, "redeal_doubles": 4})
    assert resolve_rules("clasico", 4, {"redeal_doubles": 5}).redeal_doubles == 5


def test_a_dev_lot_needs_a_lot_and_a_seat() -> None:
    with pytest.raises(errors.InvalidInput):
        Match.start(resolve_rules("clasico", 4), deal={"lot": 1})
    with pytest.raises(errors.InvalidInput):
        Match.start(RULES, deal={"lot": 4})
    with pytest.raises(errors.InvalidInput):
        Match.start(RULES, deal={"lot": True})


def test_an_extended_item_refuses_a_field_this_code_does_not_know() -> None:
    """Version 2 holds a mask of the families' fields it sets: a bit past the known ones is
    refused, never read as another field."""
    from domino.engine.encoding import _put_rules, _Writer

    assert decode(encode(Match.start(RULES, seed=4))).rules.redeal_doubles == 5
    unknown = _Writer()
    _put_rules(unknown, resolve_rules("clasico", 4))  # no field of the families set
    unknown.uvar(1 << 5)  # then a mask naming a sixth one
    with pytest.raises(errors.InvalidInput):
        decode(unknown.data(2) + bytes(40))
