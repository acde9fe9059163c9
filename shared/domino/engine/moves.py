"""Moves: play a tile on an end, draw one tile from the boneyard, pass. Small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

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
