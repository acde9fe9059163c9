"""The board's drawing (no I/O): tiles facing the way they were laid, doubles across, arms."""

from __future__ import annotations

from domino_cli.board import draw_board


def board(*plays: tuple[str, str | None], ends: dict[str, int]) -> dict[str, object]:
    return {
        "tiles": [{"tile": tile, "seat": 0, "end": end} for tile, end in plays],
        "ends": [{"end": end, "pips": pips} for end, pips in ends.items()],
    }


def test_a_line_reads_from_its_left_end_to_its_right_end() -> None:
    line = board(
        ("6-6", None), ("4-6", "right"), ("3-6", "left"), ("3-3", "left"), ("2-4", "right"),
        ends={"left": 3, "right": 2},
    )  # fmt: skip
    assert draw_board(line, "line") == [
        "┌3┐     ┌6┐",
        "│─│[3|6]│─│[6|4][4|2]",
        "└3┘     └6┘",
        "ends: left 3 · right 2",
    ]


def test_a_long_line_wraps_to_the_width() -> None:
    line = board(("1-2", None), ("2-3", "right"), ("3-4", "right"), ends={"left": 1, "right": 4})
    assert draw_board(line, "line", width=10)[:2] == ["[1|2][2|3]", "[3|4]"]


def test_a_cross_is_drawn_by_arm() -> None:
    cross = board(
        ("6-6", None), ("4-6", "north"), ("3-6", "east"), ("3-3", "east"), ("2-4", "north"),
        ends={"north": 2, "east": 3, "south": 6, "west": 6},
    )  # fmt: skip
    assert draw_board(cross, "cross") == [
        "       ┌6┐",
        "centre │─│",
        "       └6┘",
        "north  [6|4][4|2]  → 2",
        "            ┌3┐",
        "east   [6|3]│─│",
        "            └3┘  → 3",
        "south  ·  → 6",
        "west   ·  → 6",
    ]


def test_a_star_shows_its_diagonals_closed_until_the_sides_are_covered() -> None:
    star = board(
        ("9-9", None), ("5-9", "south"), ends={"north": 9, "east": 9, "south": 5, "west": 9}
    )
    drawn = draw_board(star, "star")
    assert "south     [9|5]  → 5" in drawn
    assert "northwest ·  (not open yet)" in drawn


def test_an_empty_board() -> None:
    assert draw_board({"tiles": [], "ends": []}, "line") == ["(the board is empty)"]


def test_a_spinner_is_its_line_then_its_north_and_south_arms_and_the_count() -> None:
    spinner = board(
        ("5-5", None), ("2-5", "left"), ("3-5", "right"), ("5-6", "north"), ("4-5", "south"),
        ends={"left": 2, "right": 3, "north": 6, "south": 4},
    )  # fmt: skip
    spinner |= {"spinner": "5-5", "count": 15}
    assert draw_board(spinner, "spinner") == [
        "     ┌5┐",
        "[2|5]│─│[5|3]",
        "     └5┘",
        "spinner 5-5",
        "north [5|6]  → 6",
        "south [5|4]  → 4",
        "ends: left 2 · right 3 · count 15",
    ]


def test_trains_are_the_station_then_a_row_a_train_with_markers_and_waiting_doubles() -> None:
    station = {
        "station": "12-12",
        "search_passes": 0,
        "tiles": [
            {"tile": "5-12", "seat": 0, "end": "train-0"},
            {"tile": "5-5", "seat": 0, "end": "train-0"},
            {"tile": "9-12", "seat": 1, "end": "mexican"},
        ],
        "ends": [
            {"end": "train-0", "owner": 0, "pips": 5, "tiles": 2, "open": False, "marker": False},
            {"end": "train-1", "owner": 1, "pips": 12, "tiles": 0, "open": True, "marker": True},
            {"end": "mexican", "owner": None, "pips": 9, "tiles": 1, "open": True, "marker": False},
        ],
        "pending": [{"tile": "5-5", "end": "train-0", "seat": 0}],
        "this_turn": {"seat": 0, "doubles": ["5-5"], "drew": False},
    }
    lines = draw_board(station, "trains")
    assert lines[0] == "station 12-12"
    assert "train-0" in lines[2] and "[12|5]" in lines[2] and lines[3].endswith("→ 5  ! 5-5")
    assert any(line.startswith("train-1*") and line.endswith("→ 12") for line in lines)
    assert any(line.startswith("mexican") and "[12|9]" in line for line in lines)
    assert lines[-1] == "this turn: 5-5"
