"""docs/rules.md#a-turn, openings, layouts and every IllegalMove code, on fixed deals."""

from __future__ import annotations

import random

import pytest
from domino.engine import (
    DRAW,
    PASS,
    IllegalMove,
    InvalidInput,
    Match,
    Play,
    Tile,
    parse_tile,
    resolve_rules,
    validate_move,
)
from engine_helpers import draw, pass_, play, random_step, rest_of, start

C3 = [  # clasico, 3 players: seat 1 holds 6-6
    ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
    ["6-6", "5-6", "3-4", "0-3", "2-3", "3-3"],
    ["1-3", "0-4", "1-4", "2-4", "4-4", "0-5"],
]


def legal_set(m: Match) -> set[tuple[str, str | None]]:
    return {(str(p.tile), p.end) for p in m.legal_moves()}


def code(exc: pytest.ExceptionInfo) -> str:
    return exc.value.code


# ---------------------------------------------------------------- openings


def test_highest_double_leads_and_must_lead_it() -> None:
    m = start("clasico", 3, C3)
    assert m.opener == 1 and m.turn == 1
    assert legal_set(m) == {("6-6", None)}
    with pytest.raises(IllegalMove) as e:
        play(m, 1, "5-6")
    assert code(e) == "must_lead_opening_tile"
    play(m, 1, "6-6")
    assert m.turn == 2  # clockwise: 1 -> 2


def test_two_players_no_double_heaviest_leads() -> None:
    hands = [
        ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
        ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "5-6"],
    ]
    m = start("dos-jugadores", 2, hands)
    assert m.opener == 1 and legal_set(m) == {("5-6", None)}


def test_double_six_opening_prefers_six_six_over_a_higher_double() -> None:
    rules = resolve_rules(
        "chipre",
        4,
        {
            "opening": "double_six",
            "layout": "line",
            "no_double": "heaviest",
            "next_round": "previous_winner",
        },
    )
    hands = [[str(t) for t in _tiles(9)[i * 13 : (i + 1) * 13]] for i in range(4)]
    # put 6-6 with seat 2 and 9-9 with seat 0
    flat = [t for h in hands for t in h]
    for t in ("6-6", "9-9"):
        assert t in flat
    owner = {t: i for i, h in enumerate(hands) for t in h}
    assert owner["9-9"] != owner["6-6"]
    m = Match.start(rules, seed=1, deal={"hands": hands, "boneyard": rest_of(9, hands)})
    assert m.opener == owner["6-6"] and legal_set(m) == {("6-6", None)}


def _tiles(top: int) -> list[Tile]:
    from domino.engine import full_set

    tiles = full_set(top)
    random.Random(3).shuffle(tiles)
    return tiles


def test_lot_opener_leads_any_tile() -> None:
    rules = resolve_rules("clasico", 3, {"opening": "lot"})
    m = Match.start(rules, seed=5)
    assert m.forced == -1
    assert len(m.legal_moves()) == 6  # any of the six tiles


def test_counterclockwise_order() -> None:
    hands = [
        ["6-6", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"],
        ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
    ]
    m = start("buho21", 3, hands)
    assert m.opener == 0
    play(m, 0, "6-6")
    assert m.turn == 2  # 0 -> 2 -> 1


def test_previous_winner_leads_any_tile_and_same_as_first_forces() -> None:
    r = resolve_rules("dos-jugadores", 2)
    m = Match.start(r, seed=11)
    rng = random.Random(1)
    while m.hand_number == 1:
        random_step(m, rng)
    winner = m.last.deciding_seat
    assert m.opener == winner and m.forced == -1
    assert len(m.legal_moves()) == 7
    r = resolve_rules("cruzado", 3)
    m = Match.start(r, seed=11)
    while m.hand_number == 1:
        random_step(m, rng)
    assert m.forced >= 0 and len(m.legal_moves()) == 1


# ---------------------------------------------------------------- a turn


def test_must_play_if_you_can_and_draw_until_playable() -> None:
    # clasico 3p, seat 1 leads 6-6; seat 2 holds no 6 and draws until one plays
    m = start("clasico", 3, C3, boneyard_top=["3-5", "4-5", "4-6"])
    play(m, 1, "6-6")
    assert m.turn == 2 and m.legal_moves() == [] and m.can_draw() and not m.can_pass()
    with pytest.raises(IllegalMove) as e:
        pass_(m, 2)
    assert code(e) == "cannot_pass"
    r = draw(m, 2)
    assert r.drawn == Tile(3, 5) and m.turn == 2  # keeps the turn
    draw(m, 2)
    r = draw(m, 2)
    assert r.drawn == Tile(4, 6) and m.turn == 2
    assert legal_set(m) == {("4-6", "left"), ("4-6", "right")}
    with pytest.raises(IllegalMove) as e:
        draw(m, 2)
    assert code(e) == "must_play"
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "4-6")
    assert code(e) == "end_required"
    play(m, 2, "4-6", "left")
    assert m.turn == 0


def test_one_then_pass_draw_ends_the_turn_even_if_it_plays() -> None:
    hands = [
        ["6-6", "1-2", "1-3", "1-4", "1-5", "2-2", "2-3"],
        ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1"],
    ]
    m = start("multicolor-plus", 2, hands, boneyard_top=["5-6"])
    play(m, 0, "6-6")
    assert m.turn == 1 and m.can_draw()
    r = draw(m, 1)
    assert r.drawn == Tile(5, 6)
    assert m.turn == 0  # the turn has passed although 5-6 plays
    assert m.view(1)["you"]["legal"] == []


def test_reserve_is_never_drawn() -> None:
    # clasico 3p: 10 in the boneyard, reserve 1: seat 2 may draw 9 and must then pass
    hands = [
        ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
        ["6-6", "5-5", "3-4", "0-3", "2-3", "3-3"],
        ["1-3", "0-4", "1-4", "2-4", "4-4", "0-5"],
    ]
    sixes = ["0-6", "1-6", "2-6", "3-6", "4-6", "5-6"]
    rest = [t for t in rest_of(6, hands) if t not in sixes]
    m = Match.start(
        resolve_rules("clasico", 3), seed=0, deal={"hands": hands, "boneyard": rest + sixes}
    )
    play(m, 1, "6-6")
    assert m.view(2)["drawable"] == 9
    for _ in range(4):  # the 4 non-sixes
        draw(m, 2)
    # the remaining 6 tiles hold six 6s, 5 drawable (one stays as reserve)
    assert m.view(None)["boneyard"] == 6 and m.drawable() == 5
    r = draw(m, 2)
    assert r.drawn is not None and r.drawn.b == 6
    assert len(m.boneyard) >= 1


def test_drawable_is_zero_under_draw_none() -> None:
    m = Match.start(resolve_rules("infantil", 3), seed=2)
    v = m.view(None)
    assert v["boneyard"] == 4 and v["drawable"] == 0
    assert all(s["tiles"] == 8 for s in v["seat_stats"])


def test_closed_after_n_passes_and_a_draw_breaks_the_run() -> None:
    m = start(
        "clasico", 3, C3, overrides={"hand_size": 6, "reserve": 1, "draw": "none"}, boneyard_top=[]
    )
    # make a deal where nobody but seat 1 could follow a 6 and seat 1 cannot either after 6-6
    hands = [
        ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
        ["6-6", "5-5", "3-4", "0-3", "2-3", "3-3"],
        ["1-3", "0-4", "1-4", "2-4", "4-4", "0-5"],
    ]
    m = start("clasico", 3, hands, overrides={"draw": "none"})
    play(m, 1, "6-6")
    pass_(m, 2)
    pass_(m, 0)
    assert m.status == "playing" and m.passes == 2
    r = pass_(m, 1)
    assert r.hand_over and m.last_hand()["reason"] == "closed"
    # with draws: passes then a draw, the run starts again
    m = start("clasico", 3, hands, boneyard_top=["0-6"])
    play(m, 1, "6-6")
    draw(m, 2)
    assert m.passes == 0


def test_dominó_ends_the_hand() -> None:
    hands = [["6-6", "5-6"], ["4-6", "1-2"]]
    m = start("buho21", 2, hands, overrides={"hand_size": 2})
    play(m, 0, "6-6")
    play(m, 1, "4-6", "left")
    r = play(m, 0, "5-6")
    assert r.hand_over and m.last_hand()["reason"] == "domino" and m.last_hand()["winners"] == [0]


# ---------------------------------------------------------------- ends and layouts


def test_line_ends_and_legal_once_per_end() -> None:
    m = start("clasico", 3, C3)
    play(m, 1, "6-6")
    assert m.view(None)["board"]["ends"] == [
        {"end": "left", "pips": 6},
        {"end": "right", "pips": 6},
    ]
    m2 = start("clasico", 3, C3, overrides={"opening": "lot"}, seed=0)
    seat = m2.turn
    t = m2.hand_of(seat)[0]
    play(m2, seat, str(t), None)
    ends = m2.view(None)["board"]["ends"]
    assert ends == [{"end": "left", "pips": t.a}, {"end": "right", "pips": t.b}]
    assert m2.view(None)["board"]["tiles"] == [{"tile": str(t), "seat": seat, "end": None}]


def test_cruzado_no_arm_grows_until_all_four_sides_are_covered() -> None:
    hands = [
        ["6-6", "1-6", "0-6", "5-5", "4-4", "0-4"],
        ["5-6", "4-6", "2-5", "0-2", "1-2", "3-3"],
        ["3-6", "2-6", "4-5", "3-5", "1-3", "0-3"],
    ]
    m = start("cruzado", 3, hands)
    assert m.opener == 0
    play(m, 0, "6-6")
    assert [e["end"] for e in m.view(None)["board"]["ends"]] == ["north", "east", "south", "west"]
    with pytest.raises(IllegalMove) as e:
        play(m, 1, "5-6")
    assert code(e) == "end_required"
    play(m, 1, "5-6", "north")
    # seat 2 holds 4-5 which matches north's 5, but north may not grow yet
    assert ("4-5", "north") not in legal_set(m)
    assert {end for _, end in legal_set(m)} == {"east", "south", "west"}
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "4-5", "north")
    assert code(e) == "tile_does_not_match"
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "4-5")
    assert code(e) == "tile_does_not_match"
    play(m, 2, "3-6", "east")
    play(m, 0, "1-6", "south")
    play(m, 1, "4-6", "west")
    # the cross is complete: every arm may grow
    assert ("4-5", "north") in legal_set(m) and ("4-5", "west") in legal_set(m)
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "4-5")
    assert code(e) == "end_required"
    play(m, 2, "4-5", "north")
    assert m.view(None)["board"]["ends"][0] == {"end": "north", "pips": 4}
    # only the first double opens arms: a later double just continues its arm
    play(m, 0, "4-4", "north")
    ends = m.view(None)["board"]["ends"]
    assert len(ends) == 4 and ends[0] == {"end": "north", "pips": 4}


def test_a_double_on_a_line_changes_nothing() -> None:
    hands = [
        ["6-6", "4-4", "0-1", "0-2", "0-3", "0-4", "0-5"],
        ["4-6", "1-1", "1-2", "1-3", "1-4", "1-5", "2-2"],
    ]
    m = start("dos-jugadores", 2, hands)
    play(m, 0, "6-6")
    play(m, 1, "4-6", "left")
    play(m, 0, "4-4", "left")
    assert m.view(None)["board"]["ends"] == [
        {"end": "left", "pips": 4},
        {"end": "right", "pips": 6},
    ]
    assert {(str(p.tile), p.end) for p in m.legal_moves()} == {("1-4", "left")}


def test_cruzado_reshuffles_a_deal_without_doubles() -> None:
    hands = [
        ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
        ["1-2", "1-3", "1-4", "1-5", "1-6", "2-3"],
        ["2-4", "2-5", "2-6", "3-4", "3-5", "3-6"],
    ]
    m = start("cruzado", 3, hands)
    assert m.reshuffles >= 1 and m.view(None)["reshuffles"] == m.reshuffles
    assert m.legal_moves()[0].tile.is_double


def _chipre_hands(without: str | None = None) -> tuple[list[list[str]], list[str]]:
    tiles = [str(t) for t in _tiles(9)]
    if without:
        tiles.remove(without)
        tiles.append(without)
    hands = [tiles[i * 13 : (i + 1) * 13] for i in range(4)]
    return hands, tiles[52:]


def test_chipre_requires_nine_nine() -> None:
    hands, bone = _chipre_hands()
    owner = next(i for i, h in enumerate(hands) if "9-9" in h)
    m = Match.start(resolve_rules("chipre", 4), seed=0, deal={"hands": hands, "boneyard": bone})
    assert m.opener == owner and m.reshuffles == 0
    assert legal_set(m) == {("9-9", None)}
    other = next(t for t in hands[owner] if t != "9-9")
    with pytest.raises(IllegalMove) as e:
        play(m, owner, other)
    assert code(e) == "must_lead_opening_tile"


def test_chipre_reshuffles_when_nobody_holds_nine_nine() -> None:
    hands, bone = _chipre_hands(without="9-9")
    assert "9-9" in bone
    m = Match.start(resolve_rules("chipre", 4), seed=0, deal={"hands": hands, "boneyard": bone})
    assert m.reshuffles >= 1
    assert legal_set(m) == {("9-9", None)}
    assert parse_tile("9-9", 9) in m.hand_of(m.opener)


def test_star_sides_first_then_diagonals_and_sides_may_grow() -> None:
    wanted = [["9-9", "5-9"], ["8-9", "4-9"], ["7-8", "3-9"], ["6-9"]]
    taken = {t for h in wanted for t in h}
    filler = sorted((str(t) for t in _tiles(9) if str(t) not in taken), key=lambda x: "9" in x)
    hands = []
    for h in wanted:
        need = 13 - len(h)
        hands.append(h + filler[:need])
        filler = filler[need:]
    m = Match.start(
        resolve_rules("chipre", 4), seed=0, deal={"hands": hands, "boneyard": rest_of(9, hands)}
    )
    assert m.opener == 0
    play(m, 0, "9-9")
    assert [e["end"] for e in m.view(None)["board"]["ends"]] == ["north", "east", "south", "west"]
    play(m, 1, "8-9", "north")
    assert ("7-8", "north") in legal_set(m)  # a covered side may grow before the star is complete
    assert not {e for _, e in legal_set(m)} & {"northeast", "southeast", "southwest", "northwest"}
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "3-9", "northeast")
    assert code(e) == "tile_does_not_match"
    play(m, 2, "7-8", "north")
    play(m, 3, "6-9", "east")
    play(m, 0, "5-9", "south")
    play(m, 1, "4-9", "west")
    ends = m.view(None)["board"]["ends"]
    assert [e["end"] for e in ends] == [
        "north",
        "east",
        "south",
        "west",
        "northeast",
        "southeast",
        "southwest",
        "northwest",
    ]
    assert [e["pips"] for e in ends] == [7, 6, 5, 4, 9, 9, 9, 9]
    assert ("3-9", "northeast") in legal_set(m)
    play(m, 2, "3-9", "northwest")
    assert m.view(None)["board"]["tiles"][-1] == {"tile": "3-9", "seat": 2, "end": "northwest"}


def test_star_diagonal_refused_before_sides_are_covered() -> None:
    hands, bone = _chipre_hands()
    m = Match.start(resolve_rules("chipre", 4), seed=0, deal={"hands": hands, "boneyard": bone})
    play(m, m.opener, "9-9")
    seat = m.turn
    nine = next((t for t in m.hand_of(seat) if 9 in (t.a, t.b)), None)
    if nine is not None:
        with pytest.raises(IllegalMove) as e:
            play(m, seat, str(nine), "northeast")
        assert code(e) == "tile_does_not_match"


# ---------------------------------------------------------------- errors


def test_every_illegal_move_code_and_check_order() -> None:
    m = start("clasico", 3, C3)
    with pytest.raises(IllegalMove) as e:
        play(m, 0, "0-0")
    assert code(e) == "not_your_turn"
    with pytest.raises(IllegalMove) as e:
        play(m, 1, "0-0")
    assert code(e) == "tile_not_in_hand"
    with pytest.raises(IllegalMove) as e:
        play(m, 1, "5-6")
    assert code(e) == "must_lead_opening_tile"
    play(m, 1, "6-6")
    with pytest.raises(IllegalMove) as e:
        play(m, 2, "1-3")
    assert code(e) == "tile_does_not_match"
    with pytest.raises(IllegalMove) as e:
        pass_(m, 2)
    assert code(e) == "cannot_pass"
    # seat 2 has no 6: draws; then must play what fits
    m2 = start("clasico", 3, C3, boneyard_top=["0-6"])
    play(m2, 1, "6-6")
    draw(m2, 2)
    with pytest.raises(IllegalMove) as e:
        draw(m2, 2)
    assert code(e) == "must_play"
    with pytest.raises(IllegalMove) as e:
        play(m2, 2, "0-6")
    assert code(e) == "end_required"
    # cannot_draw under draw none
    m3 = start("clasico", 3, C3, overrides={"draw": "none"})
    play(m3, 1, "6-6")
    with pytest.raises(IllegalMove) as e:
        draw(m3, 2)
    assert code(e) == "cannot_draw"
    # game_not_in_progress after the match
    m4 = start(
        "buho21", 2, [["6-6", "5-6"], ["4-6", "1-2"]], overrides={"hand_size": 2, "match": "single"}
    )
    play(m4, 0, "6-6")
    play(m4, 1, "4-6", "left")
    play(m4, 0, "5-6")
    assert m4.status == "finished"
    with pytest.raises(IllegalMove) as e:
        play(m4, 1, "1-2")
    assert code(e) == "game_not_in_progress"
    with pytest.raises(IllegalMove) as e:
        m4.apply(1, DRAW, 0)
    assert code(e) == "game_not_in_progress"
    assert set(IllegalMove.CODES) == {
        "not_your_turn",
        "game_not_in_progress",
        "tile_not_in_hand",
        "must_lead_opening_tile",
        "tile_does_not_match",
        "end_required",
        "must_play",
        "cannot_draw",
        "cannot_pass",
        "cannot_cede",
    }


def test_cannot_draw_with_nothing_drawable() -> None:
    hands = [
        ["6-6", "1-2", "1-3", "1-4", "1-5", "2-2", "2-3"],
        ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1"],
    ]
    m = start("dos-jugadores", 2, hands, overrides={"reserve": 14})
    play(m, 0, "6-6")
    with pytest.raises(IllegalMove) as e:
        draw(m, 1)
    assert code(e) == "cannot_draw"
    pass_(m, 1)


def test_invalid_input_comes_before_any_422() -> None:
    m = start("clasico", 3, C3)
    rules = m.rules
    with pytest.raises(InvalidInput):
        m.apply(0, Play(Tile(7, 7)), 0)  # not in the set, and not the seat's turn
    with pytest.raises(InvalidInput):
        m.apply(0, Play(Tile(6, 6), "north"), 0)  # no such end on a line
    with pytest.raises(InvalidInput):
        validate_move(rules, Play(Tile(0, 0), "diagonal"))
    with pytest.raises(InvalidInput):
        m.apply(7, DRAW, 0)
    validate_move(rules, PASS)
    validate_move(rules, Play(Tile(6, 6), "left"))


def test_error_messages_name_no_tile() -> None:
    m = start("clasico", 3, C3)
    for seat, tile in ((0, "0-0"), (1, "0-0"), (1, "5-6")):
        with pytest.raises(IllegalMove) as e:
            play(m, seat, tile)
        assert not any(str(t) in e.value.message for t in m.hand_of(1) + m.hand_of(0))


@pytest.mark.parametrize(
    "deal",
    [
        {"hands": [["6-6"] * 6, C3[1], C3[2]]},
        {"hands": C3[:2]},
        {"hands": [C3[0][:5], C3[1], C3[2]]},
        {"hands": [["0-0", "0-1", "0-2", "1-1", "1-2", "7-7"], C3[1], C3[2]]},
        {"hands": C3, "boneyard": ["0-6"]},
        {"hands": C3, "boneyard": "nope"},
        {"hand": C3},
    ],
)
def test_bad_fixed_deal(deal: dict) -> None:
    with pytest.raises(InvalidInput):
        Match.start(resolve_rules("clasico", 3), deal=deal)


def test_fixed_deal_boneyard_top_first() -> None:
    bone = rest_of(6, C3, ["4-5", "0-6"])
    m = Match.start(resolve_rules("clasico", 3), deal={"hands": C3, "boneyard": bone})
    play(m, 1, "6-6")
    assert draw(m, 2).drawn == Tile(4, 5)
    assert draw(m, 2).drawn == Tile(0, 6)
