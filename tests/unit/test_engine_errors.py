"""Domain errors as types: one IllegalMove subclass per code, raised by the engine with the
messages the API answers byte for byte."""

from __future__ import annotations

import pickle

import pytest
from domino.engine import (
    DRAW,
    CannotCede,
    CannotDraw,
    CannotPass,
    DominoError,
    EndRequired,
    EngineError,
    GameNotInProgress,
    IllegalMove,
    InvalidInput,
    Match,
    MustLeadOpeningTile,
    MustPlay,
    NotYourTurn,
    Play,
    TileDoesNotMatch,
    TileNotInHand,
    choose_move,
    parse_tile,
    resolve_rules,
)
from domino.engine.errors import ILLEGAL_MOVES
from engine_helpers import draw, pass_, play, start

C3 = [  # clasico, 3 players: seat 1 holds 6-6
    ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
    ["6-6", "5-6", "3-4", "0-3", "2-3", "3-3"],
    ["1-3", "0-4", "1-4", "2-4", "4-4", "0-5"],
]

CODES = {
    GameNotInProgress: "game_not_in_progress",
    NotYourTurn: "not_your_turn",
    TileNotInHand: "tile_not_in_hand",
    MustLeadOpeningTile: "must_lead_opening_tile",
    TileDoesNotMatch: "tile_does_not_match",
    EndRequired: "end_required",
    MustPlay: "must_play",
    CannotDraw: "cannot_draw",
    CannotPass: "cannot_pass",
    CannotCede: "cannot_cede",
}


def test_hierarchy_and_codes() -> None:
    assert issubclass(EngineError, DominoError) and issubclass(DominoError, Exception)
    assert issubclass(InvalidInput, EngineError) and InvalidInput.code == "invalid_request"
    assert issubclass(IllegalMove, EngineError)
    for cls, code in CODES.items():
        assert issubclass(cls, IllegalMove) and cls.code == code
    assert set(ILLEGAL_MOVES) == set(CODES)
    assert tuple(cls.code for cls in ILLEGAL_MOVES) == IllegalMove.CODES
    assert len(set(IllegalMove.CODES)) == len(IllegalMove.CODES) == 10


@pytest.mark.parametrize("cls", [InvalidInput, *CODES])
def test_message_str_repr_and_pickle(cls: type[EngineError]) -> None:
    err = cls("Something is wrong.")
    assert err.message == str(err) == "Something is wrong."
    assert err.args == ("Something is wrong.",)
    assert repr(err) == f"{cls.__name__}(code={cls.code!r}, message='Something is wrong.')"
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls and back.message == err.message and back.code == cls.code


def raised(fn: object, *args: object) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        fn(*args)  # type: ignore[operator]
    return info.value


def test_the_engine_raises_the_subclass_of_each_code_with_its_message() -> None:
    m = start("clasico", 3, C3)
    seen = [
        raised(play, m, 0, "0-0"),
        raised(play, m, 1, "0-0"),
        raised(play, m, 1, "5-6"),
    ]
    play(m, 1, "6-6")
    seen += [raised(play, m, 2, "1-3"), raised(play, m, 2, "1-3", "left"), raised(pass_, m, 2)]
    m2 = start("clasico", 3, C3, boneyard_top=["0-6"])
    play(m2, 1, "6-6")
    draw(m2, 2)
    seen += [raised(draw, m2, 2), raised(play, m2, 2, "0-6")]
    m3 = start("clasico", 3, C3, overrides={"draw": "none"})
    play(m3, 1, "6-6")
    seen.append(raised(draw, m3, 2))
    m4 = start(
        "buho21", 2, [["6-6", "5-6"], ["4-6", "1-2"]], overrides={"hand_size": 2, "match": "single"}
    )
    play(m4, 0, "6-6")
    play(m4, 1, "4-6", "left")
    play(m4, 0, "5-6")
    seen += [raised(m4.apply, 1, DRAW, 0), raised(m4.forfeit, 1, 0)]
    got = [(type(e), e.code, e.message) for e in seen]
    assert got == [
        (NotYourTurn, "not_your_turn", "It is seat 1's turn."),
        (TileNotInHand, "tile_not_in_hand", "That tile is not in your hand."),
        (
            MustLeadOpeningTile,
            "must_lead_opening_tile",
            "You must lead with the tile that made you the opener.",
        ),
        (TileDoesNotMatch, "tile_does_not_match", "That tile fits no open end."),
        (TileDoesNotMatch, "tile_does_not_match", "That tile does not fit that end."),
        (CannotPass, "cannot_pass", "You can play or draw, so you cannot pass."),
        (MustPlay, "must_play", "You hold a tile you can play: you must play it."),
        (EndRequired, "end_required", "That tile fits more than one end: say which end."),
        (CannotDraw, "cannot_draw", "There is nothing you can draw."),
        (GameNotInProgress, "game_not_in_progress", "The game is not in progress."),
        (GameNotInProgress, "game_not_in_progress", "The game is not in progress."),
    ]


def test_bots_raise_the_same_types() -> None:
    m = Match.start(resolve_rules("clasico", 3), seed=4)
    other = (m.turn + 1) % 3
    with pytest.raises(NotYourTurn, match=rf"^It is seat {m.turn}'s turn\.$"):
        choose_move(m, other, "random")
    with pytest.raises(InvalidInput) as info:
        choose_move(m, m.turn, "genius")
    assert info.value.message == "bot_level must be one of: random, greedy, strategist, expert."


def test_invalid_input_is_not_an_illegal_move() -> None:
    m = start("clasico", 3, C3)
    with pytest.raises(InvalidInput) as info:
        m.apply(1, Play(parse_tile("6-6", 6), "north"), 0)
    assert not isinstance(info.value, IllegalMove)
    assert info.value.message == "A line layout has no such end; its ends are: left, right."
