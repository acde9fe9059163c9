"""Ruleset, presets and tiles: docs/rules.md (tiles, fields, presets, "In JSON")."""

from __future__ import annotations

import pytest
from domino.engine import (
    PRESETS,
    InvalidInput,
    Tile,
    full_set,
    parse_tile,
    resolve_rules,
)
from domino.engine.tiles import HEAVY_KEY, TILES, heaviest, mask_of

# ---------------------------------------------------------------- tiles


@pytest.mark.parametrize(("top", "size"), [(6, 28), (9, 55), (12, 91), (15, 136)])
def test_set_sizes(top: int, size: int) -> None:
    tiles = full_set(top)
    assert len(tiles) == size == len(set(tiles))
    assert all(t.a <= t.b <= top for t in tiles)


def test_tile_text_is_normalised_and_pips() -> None:
    t = parse_tile("5-3", 6)
    assert t == Tile(3, 5) == Tile(5, 3)
    assert str(t) == "3-5" and t.pips == 8
    assert str(parse_tile("0-0", 6)) == "0-0"


@pytest.mark.parametrize("text", ["7-7", "3", "a-b", "3-5-1", "", "-1-2", "3 5"])
def test_bad_tile_text_is_invalid_input(text: str) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_tile(text, 6)
    assert err.value.code == "invalid_request"


def test_tile_outside_a_bigger_set() -> None:
    assert str(parse_tile("9-9", 9)) == "9-9"
    with pytest.raises(InvalidInput):
        parse_tile("9-10", 9)


def test_heaviest_order() -> None:
    order = sorted(full_set(6), key=lambda t: HEAVY_KEY[t.id], reverse=True)
    assert [str(t) for t in order[:7]] == ["6-6", "5-6", "4-6", "5-5", "3-6", "4-5", "2-6"]
    no_doubles = [t for t in order if not t.is_double]
    assert [str(t) for t in no_doubles[:6]] == ["5-6", "4-6", "3-6", "4-5", "2-6", "3-5"]
    assert TILES[heaviest(mask_of([parse_tile("3-5", 6).id, parse_tile("2-6", 6).id]))] == Tile(
        2, 6
    )


# ---------------------------------------------------------------- presets

EXPECTED = {
    "clasico": ((3, 5), {"3": 6, "4": 6, "5": 5}, {"3": 1, "4": 1, "5": 1}),
    "dos-jugadores": ((2, 2), {"2": 7}, {"2": 0}),
    "ida-y-vuelta": ((2, 2), {"2": 7}, {"2": 0}),
    "parejas-111": ((4, 4), {"4": 7}, {"4": 0}),
    "infantil": ((2, 5), {"2": 13, "3": 8, "4": 6, "5": 5}, {"2": 2, "3": 4, "4": 4, "5": 3}),
    "multicolor-plus": ((2, 4), {"2": 7, "3": 5, "4": 5}, {"2": 0, "3": 0, "4": 0}),
    "buho21": ((2, 4), {"2": 7, "3": 7, "4": 7}, {"2": 0, "3": 0, "4": 0}),
    "pool": ((3, 5), {"3": 6, "4": 6, "5": 5}, {"3": 1, "4": 1, "5": 1}),
    "cruzado": ((3, 5), {"3": 6, "4": 6, "5": 5}, {"3": 1, "4": 1, "5": 1}),
    "chipre": (
        (4, 10),
        {"4": 13, "5": 11, "6": 9, "7": 7, "8": 6, "9": 6, "10": 5},
        {str(n): 0 for n in range(4, 11)},
    ),
    "cubano": ((4, 4), {"4": 10}, {"4": 15}),
    "all-fives": ((2, 4), {"2": 9, "3": 7, "4": 5}, {"2": 0, "3": 0, "4": 0}),
    "muggins": ((2, 4), {"2": 9, "3": 7, "4": 5}, {"2": 0, "3": 0, "4": 0}),
    "tren-mexicano": (
        (2, 8),
        {"2": 16, "3": 15, "4": 14, "5": 13, "6": 12, "7": 11, "8": 10},
        {str(n): 0 for n in range(2, 9)},
    ),
}


def test_the_presets_in_rules_md_order() -> None:
    assert list(PRESETS) == list(EXPECTED)


@pytest.mark.parametrize("pid", list(EXPECTED))
def test_describe_is_the_get_rules_entry(pid: str) -> None:
    d = PRESETS[pid].describe()
    (lo, hi), hands, reserve = EXPECTED[pid]
    assert {"id", "name", "source", "players", "rules"} <= set(d)
    assert d["id"] == pid and d["players"] == {"min": lo, "max": hi}
    assert d["rules"]["hand_size"] == hands
    assert d["rules"]["reserve"] == reserve
    fields = {
        "set",
        "hand_size",
        "reserve",
        "draw",
        "direction",
        "opening",
        "no_double",
        "next_round",
        "layout",
        "teams",
        "out_scoring",
        "block_scoring",
        "block_winner",
        "tie",
        "match",
        "target",
        "rounds",
        "unit",
        "stake",
    }
    assert fields <= set(d["rules"])
    # the pool sizes of the preset table: total - players * hand
    for n in range(lo, hi + 1):
        r = resolve_rules(pid, n)
        assert r.players == n and r.hand_size == hands[str(n)] and r.reserve == reserve[str(n)]


def test_preset_settings_table() -> None:
    r = resolve_rules("clasico", 4)
    assert (r.draw, r.reserve, r.opening, r.direction) == (
        "until_playable",
        1,
        "highest_double",
        "clockwise",
    )
    assert (r.out_scoring, r.block_scoring, r.block_winner, r.match, r.target) == (
        "opponents",
        "difference",
        "lowest_player",
        "target",
        100,
    )
    assert (r.tie, r.next_round, r.no_double, r.layout) == (
        "play_order",
        "previous_winner",
        "heaviest",
        "line",
    )
    r = resolve_rules("dos-jugadores", 2)
    assert (r.block_scoring, r.target, r.unit) == ("all_hands", 300, 1)
    r = resolve_rules("ida-y-vuelta", 2)
    assert (r.match, r.rounds) == ("rounds", 2)
    r = resolve_rules("parejas-111", 4)
    assert (r.teams, r.draw, r.out_scoring, r.block_scoring, r.target) == (
        "pairs",
        "none",
        "all_others",
        "all_hands",
        111,
    )
    r = resolve_rules("infantil", 3)
    assert (r.draw, r.out_scoring, r.block_scoring, r.match) == ("none", "win", "win", "single")
    r = resolve_rules("multicolor-plus", 3)
    assert (r.draw, r.block_scoring, r.no_double) == ("one_then_pass", "opponents", "heaviest")
    r = resolve_rules("buho21", 3)
    assert (r.direction, r.out_scoring, r.block_scoring, r.target) == (
        "counterclockwise",
        "penalty",
        "penalty",
        100,
    )
    r = resolve_rules("pool", 3)
    assert (r.stake, r.tie) == (1, "none")
    r = resolve_rules("cruzado", 3)
    assert (r.layout, r.no_double, r.next_round) == ("cross", "reshuffle", "same_as_first")
    r = resolve_rules("chipre", 6)
    assert (r.set, r.opening, r.layout, r.no_double, r.next_round) == (
        9,
        "required_double",
        "star",
        "reshuffle",
        "same_as_first",
    )


def test_buho21_modes_are_overrides() -> None:
    modes = PRESETS["buho21"].describe()["modes"]
    assert set(modes) == {"express", "rapido", "normal", "doble", "triple"}
    assert resolve_rules("buho21", 2, modes["express"]).match == "single"
    assert [
        resolve_rules("buho21", 2, modes[k]).target for k in ("rapido", "normal", "doble", "triple")
    ] == [50, 100, 200, 300]


def test_multicolor_pairs_optional_at_four() -> None:
    assert resolve_rules("multicolor-plus", 4, {"teams": "pairs"}).pairs
    with pytest.raises(InvalidInput):
        resolve_rules("multicolor-plus", 3, {"teams": "pairs"})


def test_rules_to_json_plain_numbers() -> None:
    j = resolve_rules("clasico", 5).to_json()
    assert j["hand_size"] == 5 and j["reserve"] == 1 and j["players"] == 5 and j["teams"] is None


def test_overrides_int_or_object_keyed_by_count() -> None:
    assert resolve_rules("clasico", 3, {"hand_size": 5}).hand_size == 5
    assert resolve_rules("clasico", 3, {"hand_size": {"3": 4, "4": 5}}).hand_size == 4
    assert resolve_rules("dos-jugadores", 2, {"unit": 10, "target": 30}).target == 30


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("nope", 2, None),
        ("clasico", 2, None),
        ("clasico", 6, None),
        ("clasico", 3, {"colour": "red"}),
        ("clasico", 3, {"draw": "sometimes"}),
        ("clasico", 3, {"set": 7}),
        ("clasico", 3, {"hand_size": 10}),  # 30 tiles from a 28-tile set
        ("clasico", 3, {"hand_size": {"4": 6}}),  # no value for 3
        ("clasico", 3, {"reserve": 11}),  # 10 left after the deal
        ("clasico", 3, {"teams": "pairs"}),
        ("clasico", 3, {"unit": 5}),
        ("clasico", 3, {"target": 0}),
        ("clasico", 3, {"target": True}),
        ("clasico", 3, {"match": "rounds"}),  # rounds missing
        ("clasico", 3, {"out_scoring": "penalty"}),  # penalty must be both
        ("cruzado", 3, {"opening": "lot"}),
        ("cruzado", 3, {"next_round": "previous_winner"}),
        ("chipre", 4, {"opening": "lot"}),
        ("cruzado", 3, {"no_double": "heaviest"}),
        ("clasico", 3, {"players": 4}),
        ("clasico", 3, "not an object"),
    ],
)
def test_impossible_rules_are_refused(preset: str, players: int, overrides: object) -> None:
    with pytest.raises(InvalidInput) as err:
        resolve_rules(preset, players, overrides)  # type: ignore[arg-type]
    assert err.value.code == "invalid_request" and err.value.message
