"""Forced moves (engine/forced.py): the one thing a seat on turn can do, when there is only
one, and ``Match.apply_forced`` logging it as the seat's own with ``auto``."""

from __future__ import annotations

import pytest
from domino.engine import DRAW, PASS, InvalidInput, Match, resolve_rules
from domino.engine.forced import only_move
from domino.engine.tiles import parse_tile

from tests.deals import DOS_DEAL


def dos() -> Match:
    return Match.start(resolve_rules("dos-jugadores", 2), deal=DOS_DEAL, at=0)


def test_the_opening_tile_the_rules_impose_is_forced_and_logged_auto() -> None:
    m = dos()
    assert m.turn == 1
    move = only_move(m)
    assert move is not None and move.tile == parse_tile("6-6", 6)
    m.apply_forced(1, 5)
    record = m.moves(None)[-1]
    assert (record["action"], record["tile"], record.get("auto")) == ("play", "6-6", True)
    assert m.turn == 0


def test_a_draw_with_nothing_to_play_then_one_tile_on_mirrored_ends_are_forced() -> None:
    m = dos()
    m.apply_forced(1, 0)
    assert only_move(m) is DRAW  # seat 0 holds no 6
    m.apply_forced(0, 0)  # draws 4-6: it fits either end of 6-6, one thing on a line
    played = only_move(m)
    assert played is not None and played.tile == parse_tile("4-6", 6)
    m.apply_forced(0, 0)
    assert only_move(m) is None  # seat 1 has four 6s to choose from: a choice
    with pytest.raises(InvalidInput):
        m.apply_forced(1, 0)
    moves = m.moves(1)
    assert [(r["action"], r.get("tile"), r.get("auto")) for r in moves] == [
        ("play", "6-6", True),
        ("draw", None, True),  # seat 1 does not see what seat 0 drew
        ("play", "4-6", True),
    ]
    assert m.moves(0)[1]["tile"] == "4-6"


def test_a_pass_with_nothing_else_is_forced_and_a_cede_is_a_choice() -> None:
    m = Match.start(resolve_rules("parejas-111", 4), seed=3)
    seen_pass = False
    while m.status == "playing" and m.hand_number == 1:
        if not m.legal_moves() and not m.can_draw():
            assert only_move(m) is PASS
            seen_pass = True
            m.apply_forced(m.turn, 0)
            assert m.moves(None)[-1].get("auto") is True
            continue
        m.apply(m.turn, m.legal_moves()[0], 0)
    assert seen_pass
    cubano = Match.start(resolve_rules("cubano", 4), deal={"lot": 1}, at=0)
    assert cubano.can_cede() and only_move(cubano) is None


def test_an_auto_move_survives_encoding_byte_for_byte() -> None:
    from domino.engine import decode, encode

    m = dos()
    m.apply_forced(1, 7)
    again = decode(encode(m))
    assert encode(again) == encode(m)
    assert again.moves(None) == m.moves(None)
