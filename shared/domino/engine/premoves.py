"""Conditional pre-moves: "if the others make exactly these moves, I reply with this tile".

A line is ``{"if": [{"seat", "action", "tile"?, "end"?}], "then": {"tile", "end"?}}``: the exact
sequence of moves the other seats make from when the lines were stored until the owner's next
turn, then the owner's reply. When the owner comes on turn, the first line whose ``if`` equals
the moves made since and whose ``then`` is legal (one play: a tile that fits two ends must name
one) is played, logged ``premove``; then every line is cleared, as when none matches.

Comparing a move: the seat and the action (a timeout's ``move`` is its action) always; a play's
tile and end (an ``end`` left out matches a move whose end is null); a draw names no tile (the
drawer's tile is hidden). Any other record in between (a hand's end, a leave, a cede) matches no
line. Pure: lines and move records in, a play or None out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .moves import Play
from .tiles import TEXT

#: at most this many lines a player, each ``if`` at most this many moves
MAX_LINES = 20
MAX_IF = 12
#: the actions a line's ``if`` may name
ACTIONS = ("play", "draw", "pass")


def _action(record: Mapping[str, Any]) -> str | None:
    action = record["action"]
    if action == "timeout":
        return str(record.get("move"))
    return action if action in ACTIONS else None


def matches(condition: Sequence[Mapping[str, Any]], made: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the move records ``made`` are exactly the moves ``condition`` names."""
    if len(condition) != len(made):
        return False
    for want, record in zip(condition, made, strict=True):
        action = _action(record)
        if action is None or want["seat"] != record["seat"] or want["action"] != action:
            return False
        if action == "play" and (
            want.get("tile") != record.get("tile") or want.get("end") != record.get("end")
        ):
            return False
    return True


def reply(
    lines: Sequence[Mapping[str, Any]], made: Sequence[Mapping[str, Any]], legal: Sequence[Play]
) -> Play | None:
    """The play of the first line whose ``if`` is ``made`` and whose ``then`` is one of the
    ``legal`` plays (its end named when the tile fits more than one), else None."""
    for line in lines:
        if not matches(line["if"], made):
            continue
        then = line["then"]
        end = then.get("end")
        fits = [
            p for p in legal if TEXT[p.tile.id] == then["tile"] and (end is None or p.end == end)
        ]
        if len(fits) == 1:
            return fits[0]
    return None


__all__ = ["ACTIONS", "MAX_IF", "MAX_LINES", "matches", "reply"]
