"""Moves: play a tile on an end, draw one tile from the boneyard, pass, cede the lead. Small
immutable values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, NotRequired, TypedDict

from .errors import InvalidInput
from .layouts import LAYOUTS
from .rules import Ruleset
from .tiles import Tile


class PlayJson(TypedDict):
    """A play as JSON (``you.legal`` of a view)."""

    tile: str
    end: str | None
    #: ``in_play: fives``: the points the play would make now
    scores: NotRequired[int]


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on the end named ``end`` (None: the first tile, or the only end it fits)."""

    tile: Tile
    end: str | None = None
    #: where ``Match.apply``'s fast path finds this object in a kit's table (``kit.FastTable``):
    #: set once on the shared objects ``legal_moves`` hands out; 0 on any other Play (slower path)
    fast_key: int = field(default=0, init=False, compare=False, repr=False)

    def to_json(self) -> PlayJson:
        return {"tile": str(self.tile), "end": self.end}


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top tile of the boneyard (only with no playable tile and something drawable)."""

    fast_key: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing (only when you can neither play nor draw)."""

    fast_key: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class Cede:
    """Hand the lead to your partner (``opening: pair_lot``): only the seat offered it, once,
    before the hand's first tile."""

    fast_key: ClassVar[int] = 0


Move = Play | Draw | Pass | Cede

DRAW = Draw()
PASS = Pass()
CEDE = Cede()


def validate_move(rules: Ruleset, move: Any) -> None:
    """Raise ``InvalidInput`` (400) for a move that no game of ``rules`` could ever accept: not a
    move, a tile outside the set, an end name the layout never has. ``Match.apply`` runs it first,
    before any 422 check; callers may run it before their own 403/412 checks."""
    cls = move.__class__
    if cls is Draw or cls is Pass or cls is Cede:
        return
    if cls is Play:
        if not isinstance(move.tile, Tile):
            raise InvalidInput("A play needs a tile.")
        if move.tile.b > rules.set:
            raise InvalidInput("That tile is not in the double-{set} set.", set=rules.set)
        layout = LAYOUTS[rules.layout]
        names = layout.names
        if layout.name == "trains":  # the trains of this game's seats, and the Mexican train
            names = (*names[: rules.players], names[-1])
        if move.end is not None and move.end not in names:
            raise InvalidInput(
                "A {layout} layout has no such end; its ends are: {ends}.",
                layout=layout.name,
                ends=list(names),
            )
    else:
        raise InvalidInput("A move is a play, a draw, a pass or a cede.")


__all__ = [
    "CEDE",
    "DRAW",
    "PASS",
    "Cede",
    "Draw",
    "Move",
    "Pass",
    "Play",
    "PlayJson",
    "validate_move",
]
