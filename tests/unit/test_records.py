"""What a game item keeps besides the match: the marks a socket's resume reads."""

from __future__ import annotations

from domino.store.records import MARKS, GameRecord, from_item, pack_marks, to_item, unpack_marks


def record(version: int) -> GameRecord:
    return GameRecord(
        id="g" * 22, version=version, status="playing", preset="clasico", config={}, seats=[]
    )


def test_marks_keep_the_last_writes_next_move_numbers_through_the_item() -> None:
    game = record(1)
    game.mark(1)
    for version, n in ((2, 1), (3, 4), (200, 130), (70_000, 69_999)):
        game.version = version
        game.mark(n)
    again = from_item(to_item(game))
    assert again.marks == [(1, 1), (2, 1), (3, 4), (200, 130), (70_000, 69_999)]
    assert again.next_n_at(200) == 130 and again.next_n_at(4) is None
    assert unpack_marks(pack_marks(again.marks)) == again.marks


def test_marks_are_bounded_and_small() -> None:
    game = record(1)
    for version in range(1, 500):
        game.version = version
        game.mark(version + version // 7)
    assert len(game.marks) == MARKS and game.marks[0][0] == 500 - MARKS
    assert game.next_n_at(499 - MARKS) is None and game.next_n_at(499) == 499 + 499 // 7
    assert len(pack_marks(game.marks)) <= 2 * MARKS + 4  # a byte a step, the first pair more
    assert "mk" not in to_item(record(1))  # an item without marks has no attribute
