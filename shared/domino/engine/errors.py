"""Domain errors: one type per case, each with the API error code it answers with.

``DominoError`` is the base of every domain error of the product (other layers derive their own
from it); ``EngineError`` is the base of the engine's. ``InvalidInput`` is malformed or impossible
input (HTTP 400 ``invalid_request``); ``IllegalMove`` is a well-formed request the rules refuse now
(HTTP 422), raised as the subclass of its code::

    try:
        match.apply(seat, move, at)
    except NotYourTurn as err:
        err.code, err.message, err.params  # "not_your_turn", "It is seat 2's turn.", {"seat": 2}

A message is an English sentence made from a template and its ``params``
(``NotYourTurn("It is seat {seat}'s turn.", seat=2)``): the API sends ``params`` so that apps
translate by code, and translates the template itself for ``Accept-Language`` (api/messages.py
holds a translation of every template). A message never names a hidden tile (it names no tile at
all).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar


class DominoError(Exception):
    """Base of every domain error: ``code`` is the API error code, ``message`` a sentence for
    people (``str(error)`` is the message too), ``template`` that sentence before ``params``
    filled it in."""

    code: ClassVar[str] = "domino_error"

    def __init__(self, message: str, **params: Any) -> None:
        self.template = message
        self.params = params
        self.message = fill(message, params)
        super().__init__(self.message)

    def say(self, translate: Callable[[str], str]) -> str:
        """The message in another language: ``translate`` maps an English template to its
        translation (or returns it unchanged)."""
        return fill(translate(self.template), self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


def fill(template: str, params: dict[str, Any]) -> str:
    """``template`` with its ``{name}`` fields filled in from ``params`` (lists joined by
    commas)."""
    if not params:
        return template
    shown = {
        k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in params.items()
    }
    return template.format(**shown)


class EngineError(DominoError):
    """Base of the rules engine's errors."""

    code: ClassVar[str] = "engine_error"


class InvalidInput(EngineError):
    """Malformed or impossible input: a bad tile text, an unknown end name, a seat that does not
    exist, an impossible ruleset, a corrupt encoded state (HTTP 400)."""

    code: ClassVar[str] = "invalid_request"


class IllegalMove(EngineError):
    """A well-formed move the rules refuse now (HTTP 422): always raised as one of the
    subclasses below, whose ``code`` is one of ``IllegalMove.CODES``."""

    code: ClassVar[str] = "illegal_move"
    #: the codes of the subclasses (set below, once they exist)
    CODES: ClassVar[tuple[str, ...]] = ()


class GameNotInProgress(IllegalMove):
    """The match is over: no move is accepted."""

    code: ClassVar[str] = "game_not_in_progress"


class NotYourTurn(IllegalMove):
    """Another seat is on turn."""

    code: ClassVar[str] = "not_your_turn"


class TileNotInHand(IllegalMove):
    """The played tile is not in the player's hand."""

    code: ClassVar[str] = "tile_not_in_hand"


class MustLeadOpeningTile(IllegalMove):
    """The opener led another tile than the one that made them the opener."""

    code: ClassVar[str] = "must_lead_opening_tile"


class TileDoesNotMatch(IllegalMove):
    """The tile fits no open end (or not the named one, or that arm is not open yet)."""

    code: ClassVar[str] = "tile_does_not_match"


class MustSatisfyDouble(IllegalMove):
    """Trains: a play away from the oldest double nobody has satisfied yet."""

    code: ClassVar[str] = "must_satisfy_double"


class EndRequired(IllegalMove):
    """The tile fits more than one open end and the play names none."""

    code: ClassVar[str] = "end_required"


class MustPlay(IllegalMove):
    """A draw while holding a playable tile."""

    code: ClassVar[str] = "must_play"


class CannotDraw(IllegalMove):
    """A draw with nothing drawable (or under ``draw: none``)."""

    code: ClassVar[str] = "cannot_draw"


class CannotPass(IllegalMove):
    """A pass while the seat can play or draw."""

    code: ClassVar[str] = "cannot_pass"


class CannotCede(IllegalMove):
    """A cede by a seat not offered the lead, after a tile is laid, a second time, or in a
    game whose opening offers no lead (``opening: pair_lot`` does)."""

    code: ClassVar[str] = "cannot_cede"


#: every rule refusal, in the order ``IllegalMove.CODES`` lists their codes
ILLEGAL_MOVES: tuple[type[IllegalMove], ...] = (
    NotYourTurn,
    GameNotInProgress,
    TileNotInHand,
    MustLeadOpeningTile,
    TileDoesNotMatch,
    EndRequired,
    MustPlay,
    CannotDraw,
    CannotPass,
    CannotCede,
)
IllegalMove.CODES = tuple(cls.code for cls in ILLEGAL_MOVES)

__all__ = [
    "ILLEGAL_MOVES",
    "CannotCede",
    "CannotDraw",
    "CannotPass",
    "DominoError",
    "EndRequired",
    "EngineError",
    "GameNotInProgress",
    "IllegalMove",
    "InvalidInput",
    "MustLeadOpeningTile",
    "MustPlay",
    "MustSatisfyDouble",
    "NotYourTurn",
    "TileDoesNotMatch",
    "TileNotInHand",
]
