"""The pure dominoes rules engine: tiles, ruleset and presets, match state, scoring, encoding, bots.

No I/O, no clock, no logging: callers pass times in and persist ``encode(match)``.
See docs/engine.md and docs/rules.md (the rules this implements).
"""

from .bots import DEFAULT_LEVEL, LEVELS, choose_move
from .encoding import decode, encode
from .errors import (
    CannotCede,
    CannotDraw,
    CannotPass,
    DominoError,
    EndRequired,
    EngineError,
    GameNotInProgress,
    IllegalMove,
    InvalidInput,
    MustLeadOpeningTile,
    MustPlay,
    NotYourTurn,
    TileDoesNotMatch,
    TileNotInHand,
)
from .expert import DEFAULT_BUDGET_MS
from .forced import only_move
from .layouts import ARM_NAMES, LAYOUTS, Layout
from .match import ApplyResult, Match
from .movelog import LogCode, MoveRecord, redact_move
from .moves import CEDE, DRAW, PASS, Cede, Draw, Move, Pass, Play, validate_move
from .outcome import HandEnd, HandResult
from .rules import PRESETS, Preset, Ruleset, resolve_rules
from .tiles import Tile, full_set, parse_tile
from .views import MatchView

__all__ = [
    "ARM_NAMES",
    "CEDE",
    "DEFAULT_BUDGET_MS",
    "DEFAULT_LEVEL",
    "DRAW",
    "LAYOUTS",
    "LEVELS",
    "PASS",
    "PRESETS",
    "ApplyResult",
    "CannotCede",
    "CannotDraw",
    "CannotPass",
    "Cede",
    "DominoError",
    "Draw",
    "EndRequired",
    "EngineError",
    "GameNotInProgress",
    "HandEnd",
    "HandResult",
    "IllegalMove",
    "InvalidInput",
    "Layout",
    "LogCode",
    "Match",
    "MatchView",
    "Move",
    "MoveRecord",
    "MustLeadOpeningTile",
    "MustPlay",
    "NotYourTurn",
    "Pass",
    "Play",
    "Preset",
    "Ruleset",
    "Tile",
    "TileDoesNotMatch",
    "TileNotInHand",
    "choose_move",
    "decode",
    "encode",
    "full_set",
    "only_move",
    "parse_tile",
    "redact_move",
    "resolve_rules",
    "validate_move",
]
