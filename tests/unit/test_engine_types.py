"""The engine's typed values: HandResult/HandEnd, the Layout objects, LogCode, the Ruleset's
Literal fields and the TypedDicts of the views and move records."""

from __future__ import annotations

import dataclasses
import random
import types
import typing

import pytest
from domino.engine import (
    ARM_NAMES,
    DRAW,
    LAYOUTS,
    PASS,
    PRESETS,
    HandEnd,
    HandResult,
    InvalidInput,
    Layout,
    LogCode,
    Match,
    MatchView,
    MoveRecord,
    Ruleset,
    decode,
    encode,
    movelog,
    resolve_rules,
)
from domino.engine import match as match_module
from domino.engine.layouts import CROSS, LINE, SPINNER, STAR, TRAINS
from domino.engine.outcome import hand_result
from domino.engine.rules import CHOICES, EXTENSIONS, FIELD_NAMES, LAYOUT, RulesJson
from domino.engine.tiles import tile_id
from domino.engine.views import (
    BoardEnd,
    BoardTile,
    BoardView,
    LastHandView,
    SeatStats,
    YouView,
)
from engine_helpers import play, random_step, start

# ---------------------------------------------------------------- HandEnd, HandResult


def test_hand_end_values_are_the_view_reasons() -> None:
    assert [e.value for e in HandEnd] == ["domino", "closed", "target"]
    assert HandEnd("closed") is HandEnd.CLOSED and HandEnd.DOMINO == "domino"


def finish_a_hand(preset: str, players: int, seed: int) -> Match:
    m = Match.start(resolve_rules(preset, players), seed=seed)
    rng = random.Random(seed)
    while m.last is None:
        random_step(m, rng)
    return m


@pytest.mark.parametrize(
    ("preset", "players"), [("clasico", 4), ("parejas-111", 4), ("chipre", 5), ("pool", 3)]
)
def test_last_is_a_hand_result_that_matches_the_view(preset: str, players: int) -> None:
    for seed in range(6):
        m = finish_a_hand(preset, players, seed)
        last = m.last
        assert isinstance(last, HandResult) and isinstance(last.end, HandEnd)
        seen = m.last_hand()
        assert seen is not None
        assert last.number == seen["hand_number"] == 1
        assert last.end.value == seen["reason"]
        assert list(last.winners) == seen["winners"]
        assert {str(s): p for s, p in enumerate(last.points)} == seen["points"]
        for s in range(players):
            assert sorted(str(t) for t in last.hand(s)) == sorted(seen["hands"][str(s)])
        if last.winners:
            assert last.deciding_seat is not None and last.deciding_seat in last.winners
        with pytest.raises(dataclasses.FrozenInstanceError):
            last.number = 2  # type: ignore[misc]
        assert decode(encode(m)).last == last


def test_no_last_hand_before_one_ends_and_a_tie_has_no_deciding_seat() -> None:
    m = Match.start(resolve_rules("clasico", 3), seed=1)
    assert m.last is None
    tie = hand_result((3, HandEnd.CLOSED, (), (0, 0, 0), (1, 2, 4), -1))
    assert tie == HandResult(3, HandEnd.CLOSED, (), (0, 0, 0), (1, 2, 4), None)
    assert [str(t) for t in tie.hand(2)] == ["1-1"]


def test_a_domino_hand_result() -> None:
    m = start(
        "buho21", 2, [["6-6", "5-6"], ["4-6", "1-2"]], overrides={"hand_size": 2, "match": "single"}
    )
    play(m, 0, "6-6")
    play(m, 1, "4-6", "left")
    play(m, 0, "5-6")
    assert m.last == HandResult(
        number=1,
        end=HandEnd.DOMINO,
        winners=(0,),
        points=(0, 3),
        hands=(0, 1 << tile_id(1, 2)),
        deciding_seat=0,
    )


# ---------------------------------------------------------------- layouts


def test_one_layout_object_per_ruleset_layout() -> None:
    assert tuple(LAYOUTS) == LAYOUT
    assert LAYOUTS == {
        "line": LINE,
        "cross": CROSS,
        "star": STAR,
        "spinner": SPINNER,
        "trains": TRAINS,
    }
    assert all(isinstance(layout, Layout) for layout in LAYOUTS.values())
    assert {name: layout.names for name, layout in LAYOUTS.items()} == ARM_NAMES
    assert LINE.names == ("left", "right") and LINE.arms == 2
    assert CROSS.names == ("north", "east", "south", "west")
    assert STAR.names[4:] == ("northeast", "southeast", "southwest", "northwest")
    assert STAR.index["northwest"] == 7
    assert (LINE.simple, CROSS.simple, STAR.simple, SPINNER.simple) == (True, False, False, False)
    assert [layout.opens_with_double for layout in (LINE, CROSS, STAR, SPINNER)] == [
        False,
        True,
        True,
        False,
    ]
    assert SPINNER.names == ("left", "right", "north", "south")
    for name, layout in LAYOUTS.items():
        assert layout.name == name and repr(layout) == f"<Layout {name}>"
        assert Match.start(resolve_rules(_preset_of(name), 4), seed=0).layout is layout


def _preset_of(layout: str) -> str:
    return {
        "line": "clasico",
        "cross": "cruzado",
        "star": "chipre",
        "spinner": "all-fives",
        "trains": "tren-mexicano",
    }[layout]


def test_line_opens_both_ends_with_the_first_tile() -> None:
    ends, arm_len = LINE.empty()
    assert (ends, arm_len) == ([-1, -1], [0, 0])
    assert LINE.open_first(ends, arm_len, tile_id(3, 5)) == (0, 1) and ends == [3, 5]
    assert LINE.grow(ends, arm_len, 1, 2) == (0, 1) and ends == [3, 2] and arm_len == [0, 0]
    assert list(LINE.shown((0, 1))) == [0, 1]


def test_cross_opens_four_sides_and_no_arm_grows_until_all_are_covered() -> None:
    ends, arm_len = [-1] * 4, [0] * 4
    assert CROSS.open_first(ends, arm_len, tile_id(6, 6)) == (0, 1, 2, 3) and ends == [6] * 4
    assert CROSS.grow(ends, arm_len, 2, 1) == (0, 1, 3)
    assert CROSS.grow(ends, arm_len, 0, 4) == (1, 3)
    assert CROSS.grow(ends, arm_len, 3, 5) == (1,)
    assert CROSS.grow(ends, arm_len, 1, 0) == (0, 1, 2, 3)
    assert ends == [4, 0, 1, 5] and arm_len == [1, 1, 1, 1]
    assert CROSS.grow(ends, arm_len, 1, 3) == (0, 1, 2, 3) and arm_len[1] == 2
    assert list(CROSS.shown((1,))) == [0, 1, 2, 3]


def test_star_opens_the_diagonals_once_every_side_is_covered() -> None:
    ends, arm_len = [-1] * 8, [0] * 8
    assert STAR.open_first(ends, arm_len, tile_id(9, 9)) == (0, 1, 2, 3) and ends == [9] * 8
    assert STAR.grow(ends, arm_len, 0, 1) == (0, 1, 2, 3)
    assert STAR.grow(ends, arm_len, 0, 2) == (0, 1, 2, 3)  # a covered side may grow
    assert list(STAR.shown((0, 1, 2, 3))) == [0, 1, 2, 3]
    for arm in (1, 2, 3):
        opened = STAR.grow(ends, arm_len, arm, arm)
    assert opened == tuple(range(8)) and list(STAR.shown(opened)) == list(range(8))


@pytest.mark.parametrize("layout", ["cross", "star"])
def test_layouts_that_open_with_a_double_refuse_other_openings(layout: str) -> None:
    with pytest.raises(InvalidInput) as err:
        resolve_rules("cruzado", 4, {"layout": layout, "opening": "lot"})
    assert err.value.message == f"A {layout} opens with a double: opening lot is not possible."
    resolve_rules("clasico", 4, {"opening": "lot"})  # a line may open with anything


# ---------------------------------------------------------------- the move log


def test_log_codes_keep_their_stored_values() -> None:
    assert {c.name: c.value for c in LogCode} == {
        "PLAY": 0,
        "DRAW": 1,
        "PASS": 2,
        "LEAVE": 3,
        "HAND_OVER": 4,
        "TIMEOUT_PLAY": 5,
        "TIMEOUT_DRAW": 6,
        "TIMEOUT_PASS": 7,
        "TIMEOUT_FORFEIT_PLAY": 8,
        "TIMEOUT_FORFEIT_DRAW": 9,
        "TIMEOUT_FORFEIT_PASS": 10,
        "CEDE": 11,
        "AUTO_PLAY": 12,
        "AUTO_DRAW": 13,
        "AUTO_PASS": 14,
        "PREMOVE_PLAY": 15,
    }
    assert {0, 5, 8, 12, 15} == movelog.PLAY_CODES and {1, 6, 9, 13} == movelog.DRAW_CODES
    assert set(LogCode) - {LogCode.HAND_OVER} == movelog.SEATED


def test_one_name_per_meaning() -> None:
    """The move singletons are the only DRAW and PASS of the engine; log codes are LogCode's."""
    for module in (match_module, movelog):
        for name in ("DRAW_", "PASS_", "T_PLAY", "TF_PLAY", "N_CODES"):
            assert not hasattr(module, name)
    for name, singleton in (("DRAW", DRAW), ("PASS", PASS)):
        assert getattr(match_module, name, singleton) is singleton


def test_log_entries_hold_log_codes_also_after_decoding() -> None:
    m = Match.start(resolve_rules("clasico", 4), seed=5)
    rng = random.Random(5)
    for _ in range(30):
        random_step(m, rng)
    m.timeout(m.turn, "forfeit", 7)
    for held in (m, decode(encode(m))):
        codes = [e[0] for e in held.prev_log + held.log]
        assert all(type(c) is LogCode for c in codes)
        assert codes[-1] in movelog.TIMEOUT_FORFEIT
    last = m.moves(None)[-1]
    assert last["action"] == "timeout" and last["forfeit"] is True


# ---------------------------------------------------------------- Ruleset Literals


def literal_values(tp: object) -> list[object]:
    """The values a Literal (or a union of Literals and None) allows, in order."""
    if tp is type(None):
        return [None]
    if typing.get_origin(tp) is typing.Literal:
        return list(typing.get_args(tp))
    return [v for arg in typing.get_args(tp) for v in literal_values(arg)]


def test_choice_fields_are_literals_of_their_allowed_values() -> None:
    hints = typing.get_type_hints(Ruleset)
    for name, allowed in CHOICES.items():
        assert typing.get_origin(hints[name]) in (typing.Literal, types.UnionType, typing.Union)
        values = literal_values(hints[name])
        if name in ("teams", "in_play"):  # Teams | None, InPlay | None
            assert set(values) == set(allowed)
        else:
            assert tuple(values) == allowed
    assert literal_values(hints["unit"]) == [1, 10]


def test_choice_order_is_the_encoding_order() -> None:
    """An encoded state stores the index of each choice: the tuples never change order."""
    assert CHOICES == {
        "draw": ("until_playable", "one_then_pass", "none", "one_then_play"),
        "direction": ("clockwise", "counterclockwise"),
        "opening": ("highest_double", "double_six", "lot", "required_double", "pair_lot", "engine"),
        "no_double": ("heaviest", "reshuffle"),
        "next_round": ("previous_winner", "same_as_first", "winning_pair", "domino_winner"),
        "layout": ("line", "cross", "star", "spinner", "trains"),
        "teams": (None, "pairs"),
        "out_scoring": ("opponents", "all_others", "penalty", "win"),
        "block_scoring": ("difference", "opponents", "all_hands", "penalty", "win", "own_pips"),
        "block_winner": ("lowest_player", "lowest_team"),
        "tie": ("play_order", "none", "split"),
        "match": ("single", "target", "rounds"),
        "in_play": (None, "fives"),
        "target_check": ("hand_end", "every_score"),
    }


@pytest.mark.parametrize("pid", sorted(PRESETS))
def test_a_familys_rules_show_every_new_field_and_the_seed_presets_none(pid: str) -> None:
    """A ruleset's fields are its JSON: the families' presets (and a seed preset overridden into
    one) show all four new fields, at their old values too, in ``GET /rules`` and in a game; the
    seed presets' JSON stays what it was."""
    preset = PRESETS[pid]
    listed = preset.describe()["rules"]
    game = resolve_rules(pid, preset.min_players).to_json()
    family = pid in ("all-fives", "muggins", "cubano", "tren-mexicano")
    for shown in (listed, game):
        assert (set(EXTENSIONS) <= set(shown)) is family
        assert family or not set(EXTENSIONS) & set(shown)
        if family:
            assert {k: shown[k] for k in EXTENSIONS} == {k: game[k] for k in EXTENSIONS}
    if not family and preset.rules["layout"] == "line":
        spun = resolve_rules(pid, preset.min_players, {"layout": "spinner"}).to_json()
        assert {k: spun[k] for k in EXTENSIONS} == EXTENSIONS


# ---------------------------------------------------------------- TypedDicts


def keys(td: type) -> tuple[frozenset[str], frozenset[str]]:
    return td.__required_keys__, td.__optional_keys__  # type: ignore[attr-defined]


def test_views_have_the_keys_of_their_typed_dicts() -> None:
    m = finish_a_hand("pool", 3, 2)
    while m.status == "playing":
        random_step(m, random.Random(0))
    m2 = finish_a_hand("cruzado", 3, 1)
    m3 = finish_a_hand("cubano", 4, 1)  # a view with ``lead`` and ``you.can_cede``
    m4 = finish_a_hand("all-fives", 3, 1)  # the count: ``spinner``, ``counts``, ``scores``
    m5 = finish_a_hand("tren-mexicano", 3, 1)  # the station and its trains
    for match in (m, m2, m3, m4, m5):
        for seat in (None, *range(match.players)):
            seen = match.view(seat)
            required, optional = keys(MatchView)
            assert required <= seen.keys() <= required | optional
            assert ("you" in seen) is (seat is not None)
            assert list(seen) == [k for k in MatchView.__annotations__ if k in seen]
            board = seen["board"]
            counted = match.rules.in_play is not None  # the count's keys, only then
            station = match.rules.layout == "trains"  # the trains' keys, only then
            for shown, td in ((board, BoardView), *((end, BoardEnd) for end in board["ends"])):
                required, optional = keys(td)
                assert required <= shown.keys() <= required | optional
                extra = shown.keys() - required
                assert bool(extra & {"count", "counts", "spinner"}) == (counted and bool(extra))
                assert bool(extra & {"station", "owner", "marker"}) == station
            for tile in board["tiles"]:
                assert tile.keys() == BoardTile.__annotations__.keys()
            for stats in seen["seat_stats"]:
                assert list(stats) == list(SeatStats.__annotations__)
            if seat is not None:
                required, optional = keys(YouView)
                assert required <= seen["you"].keys() <= required | optional
                assert list(seen["you"]) == [k for k in YouView.__annotations__ if k in seen["you"]]
                assert ("can_cede" in seen["you"]) is ("lead" in seen)
            last = seen["last_hand"]
            required, optional = keys(LastHandView)
            assert required <= last.keys() <= required | optional
    assert m.result() == m.last_hand() and m2.result() is None


def test_move_records_have_the_keys_of_move_record() -> None:
    m = Match.start(resolve_rules("clasico", 4), seed=8)
    rng = random.Random(8)
    m.forfeit(2, 1)
    while m.hand_number == 1:
        if m.turn == 3:
            m.timeout(3, "auto", 2)
        else:
            random_step(m, rng)
    order = list(MoveRecord.__annotations__)
    required, optional = keys(MoveRecord)
    actions = set()
    for rec in m.moves(None) + m.moves(0) + m.previous_hand_moves:
        assert required <= rec.keys() <= required | optional
        assert list(rec) == [k for k in order if k in rec]
        actions.add(rec["action"])
    assert {"play", "leave", "hand_over", "timeout"} <= actions


def test_rules_json_lists_every_field_in_order() -> None:
    """Every field, in order; the families' fields only where a ruleset sets one of them (a
    seed preset's rules show as they always did)."""
    assert tuple(RulesJson.__annotations__) == FIELD_NAMES
    rules = resolve_rules("chipre", 7)
    seeds = tuple(name for name in FIELD_NAMES if name not in EXTENSIONS)
    assert tuple(rules.to_json()) == seeds
    assert rules.to_json() == {name: getattr(rules, name) for name in seeds}
    cubano = resolve_rules("cubano", 4)
    assert cubano.to_json() == {name: getattr(cubano, name) for name in FIELD_NAMES}
