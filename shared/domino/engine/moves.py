"""Moves: play a tile on an end, draw one tile from the boneyard, pass. Small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from .errors import InvalidInput
from .layouts import LAYOUTS
from .rules import Ruleset
from .tiles import Tile


class PlayJson(TypedDict):
    """A play as JSON (``you.legal`` of a view)."""

    tile: str
    end: str | None


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on the end named ``end`` (None: the first tile, or the only end it fits)."""

    tile: Tile
    end: str | None = None

    def to_json(self) -> PlayJson:
        return {"tile": str(self.tile), "end": self.end}


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top tile of the boneyard (only with no playable tile and something drawable)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (only when you can neither play nor draw)."""


Move = Play | Draw | Pass

DRAW = Draw()
PASS = Pass()


def validate_move(rules: Ruleset, move: Any) -> None:
    """Raise ``InvalidInput`` (400) for a move that no game of ``rules`` could ever accept: not a
    move, a tile outside the set, an end name the layout never has. ``Match.apply`` runs it first,
    before any 422 check; callers may run it before their own 403/412 checks."""
    cls = move.__class__
    if cls is Draw or cls is Pass:
        return
    if cls is Play:
        if not isinstance(move.tile, Tile):
            raise InvalidInput("A play needs a tile.")
        if move.tile.b > rules.set:
            raise InvalidInput("That tile is not in the double-{set} set.", set=rules.set)
        layout = LAYOUTS[rules.layout]
        if move.end is not None and move.end not in layout.index:
            raise InvalidInput(
                "A {layout} layout has no such end; its ends are: {ends}.",
                layout=layout.name,
                ends=list(layout.names),
            )
    else:
        raise InvalidInput("A move is a play, a draw or a pass.")


__all__ = ["DRAW", "PASS", "Draw", "Move", "Pass", "Play", "PlayJson", "validate_move"]
