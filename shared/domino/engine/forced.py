"""Moves made for a seat: the first legal one (what a timeout plays), and the one thing a seat
on turn can do when there is only one (``auto_forced`` players have it made for them at once:
docs/api.md "Correspondence comfort").

One thing means one legal play and no draw, pass or cede beside it, or no play and a draw, or
no play, no draw and a pass. A tile that fits two ends is two things (the boards differ),
except on a line whose two ends show one number (mirror images, as the expert reckons too).
Pure: reads a match's public surface only."""

from __future__ import annotations

from typing import Protocol

from .fives import Count
from .layouts import Layout
from .moves import DRAW, PASS, Move, Play


class OnTurn(Protocol):
    """What is read of a match (``Match``'s public surface)."""

    @property
    def layout(self) -> Layout: ...
    @property
    def ends(self) -> list[int]: ...
    @property
    def open_arms(self) -> tuple[int, ...]: ...
    @property
    def count(self) -> Count | None: ...
    def legal_moves(self) -> list[Play]: ...
    def can_draw(self) -> bool: ...
    def can_pass(self) -> bool: ...
    def can_cede(self) -> bool: ...


def only_move(match: OnTurn) -> Move | None:
    """The seat on turn's only possible move, or None when it has a choice (or nothing)."""
    legal = match.legal_moves()
    if match.can_cede():
        return None
    if legal:
        if match.can_draw() or len({p.tile.id for p in legal}) > 1:
            return None
        return legal[0] if len(legal) == 1 or _mirrored(match) else None
    if match.can_draw():
        return DRAW
    return PASS if match.can_pass() else None


def _mirrored(match: OnTurn) -> bool:
    """Whether the two ends of a line show the same number, with nothing counted during play:
    a tile laid on either makes boards that are mirror images, one thing to do."""
    arms = match.open_arms
    return (
        match.layout.simple
        and match.count is None
        and len(arms) == 2
        and match.ends[arms[0]] == match.ends[arms[1]]
    )


def first_move(match: OnTurn) -> Move:
    """The move a timeout makes for the seat on turn: the first legal play, else draw, else
    pass."""
    legal = match.legal_moves()
    if legal:
        return legal[0]
    return DRAW if match.can_draw() else PASS


__all__ = ["OnTurn", "first_move", "only_move"]
