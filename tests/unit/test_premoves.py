"""Conditional pre-moves in the engine (engine/premoves.py): a line matches exactly the moves
made since, and its reply is played only when it is legal, and logged ``premove``."""

from __future__ import annotations

from domino.engine import Match, resolve_rules
from domino.engine.premoves import matches, reply

from tests.deals import PREMOVE_DEAL


def led() -> Match:
    m = Match.start(resolve_rules("dos-jugadores", 2), deal=PREMOVE_DEAL, at=0)
    m.apply(1, m.legal_moves()[0], 0)  # seat 1 leads 6-6
    return m


def test_a_line_matches_exactly_the_moves_made() -> None:
    made = led().moves(0)
    assert matches([{"seat": 1, "action": "play", "tile": "6-6"}], made)
    assert not matches([{"seat": 1, "action": "play", "tile": "6-6", "end": "left"}], made)
    assert not matches([{"seat": 1, "action": "draw"}], made)
    assert not matches([], made)
    assert not matches(
        [{"seat": 1, "action": "play", "tile": "6-6"}, {"seat": 1, "action": "pass"}], made
    )
    assert matches([], [])


def test_a_draw_matches_without_its_tile_and_a_hand_over_matches_nothing() -> None:
    draw = {"n": 3, "hand_number": 1, "seat": 1, "action": "draw", "tile": "2-5", "at": 0}
    assert matches([{"seat": 1, "action": "draw"}], [draw])
    timeout = {"n": 4, "hand_number": 1, "seat": 1, "action": "timeout", "move": "pass", "at": 0}
    assert matches([{"seat": 1, "action": "pass"}], [timeout])
    over = {"n": 5, "hand_number": 1, "seat": None, "action": "hand_over", "at": 0}
    assert not matches([{"seat": 1, "action": "pass"}], [over])


def test_the_first_matching_line_with_a_legal_reply_is_played_and_logged() -> None:
    m = led()
    made = m.moves(0)
    lines = [
        {"if": [{"seat": 1, "action": "draw"}], "then": {"tile": "5-6"}},  # no match
        {"if": [{"seat": 1, "action": "play", "tile": "6-6"}], "then": {"tile": "4-5"}},  # no fit
        {
            "if": [{"seat": 1, "action": "play", "tile": "6-6"}],
            "then": {"tile": "5-6", "end": "left"},
        },
    ]
    play = reply(lines, made, m.legal_moves())
    assert play is not None and str(play.tile) == "5-6"
    m.apply_premove(0, play, 9)
    record = m.moves(1)[-1]
    assert (record["seat"], record["tile"], record.get("premove")) == (0, "5-6", True)
    assert m.turn == 1


def test_a_reply_that_fits_two_ends_must_name_one() -> None:
    m = led()  # 6-6 alone: 5-6 fits the left end and the right one
    made, legal = m.moves(0), m.legal_moves()
    condition = [{"seat": 1, "action": "play", "tile": "6-6"}]
    assert reply([{"if": condition, "then": {"tile": "5-6"}}], made, legal) is None
    named = reply([{"if": condition, "then": {"tile": "5-6", "end": "right"}}], made, legal)
    assert named is not None and (str(named.tile), named.end) == ("5-6", "right")
