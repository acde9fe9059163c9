"""The move log: what the match keeps of each move, and the API move records made from it.

The match holds the current hand's moves and the previous hand's only (``Match.log``,
``Match.prev_log``), numbered from ``Match.first_held_n``. After a hand ends the caller copies
``previous_hand_moves`` (full records, drawn tiles included: never send them unredacted, use
``redact_move``) to its archive before the next hand ends.

An entry is a tuple ``(code, seat, tile id, arm, at)``: a ``LogCode``, the seat (-1: none, for
``HAND_OVER``), the tile (-1: none), the arm a tile was laid on (-1: the first tile, or not a
play), and the caller's time. A record is the API's move object::

    {"n", "hand_number", "seat", "action", "move"?, "forfeit"?, "tile"?, "end"?, "at"}

``action`` is ``play``, ``draw``, ``pass``, ``leave``, ``hand_over``, ``timeout`` or ``cede``; a
timeout adds ``"move": "play" | "draw" | "pass"`` and, in forfeit mode, ``"forfeit": true``.
``hand_over`` has ``seat: null``. A forced move made for a player who asked for that
(``auto_forced``) is their own with ``"auto": true``; a pre-move's reply with
``"premove": true``. A drawn tile is in the record for its
drawer only (``redact_move``). Under ``in_play: fives`` a play (a timeout's too) adds
``count``, the count of the board after it, and ``scored``, the points it made (``fives``).
"""

from enum import IntEnum
from typing import Any, Literal, NotRequired, Protocol, TypedDict, TypeVar

from . import fives
from .layouts import Layout
from .rules import Ruleset
from .tiles import TEXT


class LogCode(IntEnum):
    """What a log entry records. The values are stored in encoded states: never renumber."""

    PLAY = 0
    DRAW = 1
    PASS = 2
    #: the seat forfeited (left the game)
    LEAVE = 3
    #: the hand ended (after the move that ended it)
    HAND_OVER = 4
    #: moves made for a seat whose time ran out (``on_timeout: auto``)
    TIMEOUT_PLAY = 5
    TIMEOUT_DRAW = 6
    TIMEOUT_PASS = 7
    #: the same in ``forfeit`` mode: the seat forfeited, then the move was made
    TIMEOUT_FORFEIT_PLAY = 8
    TIMEOUT_FORFEIT_DRAW = 9
    TIMEOUT_FORFEIT_PASS = 10
    #: the seat offered the lead handed it to its partner (``opening: pair_lot``)
    CEDE = 11
    #: the one thing the seat could do, made for its player at once (``auto_forced``)
    AUTO_PLAY = 12
    AUTO_DRAW = 13
    AUTO_PASS = 14
    #: a conditional pre-move's reply, played for its player when a line matched (``premoves``)
    PREMOVE_PLAY = 15


#: (code, seat or -1, tile id or -1, arm or -1, at)
Entry = tuple[LogCode, int, int, int, int]

#: the codes a move is logged with, as (play, draw, pass): a move of the seat's own, a timeout
#: move, a timeout move in forfeit mode
MoveCodes = tuple[LogCode, LogCode, LogCode]
OWN: MoveCodes = (LogCode.PLAY, LogCode.DRAW, LogCode.PASS)
TIMEOUT: MoveCodes = (LogCode.TIMEOUT_PLAY, LogCode.TIMEOUT_DRAW, LogCode.TIMEOUT_PASS)
TIMEOUT_FORFEIT: MoveCodes = (
    LogCode.TIMEOUT_FORFEIT_PLAY,
    LogCode.TIMEOUT_FORFEIT_DRAW,
    LogCode.TIMEOUT_FORFEIT_PASS,
)
#: a forced move made for a player who asked for it (``auto_forced``): their own, ``auto``
AUTO: MoveCodes = (LogCode.AUTO_PLAY, LogCode.AUTO_DRAW, LogCode.AUTO_PASS)
#: a pre-move's reply (always a play: a line's ``then`` names a tile); its draw and pass codes
#: are the seat's own, never used
PREMOVE: MoveCodes = (LogCode.PREMOVE_PLAY, LogCode.DRAW, LogCode.PASS)
#: every triple of move codes
_MOVE_CODES = (OWN, TIMEOUT, TIMEOUT_FORFEIT, AUTO, PREMOVE)

MoveName = Literal["play", "draw", "pass"]
Action = Literal["play", "draw", "pass", "leave", "hand_over", "timeout", "cede"]
_MOVE_NAMES: tuple[MoveName, MoveName, MoveName] = ("play", "draw", "pass")

#: the move (0 play, 1 draw, 2 pass) of each code that records one
KIND: dict[int, int] = {code: kind for codes in _MOVE_CODES for kind, code in enumerate(codes)}
#: the codes of the tiles laid (the board is the plays of the current hand's log)
PLAY_CODES: frozenset[int] = frozenset(codes[0] for codes in _MOVE_CODES)
#: the codes of the tiles drawn
DRAW_CODES: frozenset[int] = frozenset(codes[1] for codes in _MOVE_CODES)
#: the codes of the draws and passes: on a trains layout they may mark the seat's train (their
#: entry's arm is 1 when they did)
MARKING: frozenset[int] = DRAW_CODES | frozenset(codes[2] for codes in _MOVE_CODES)
#: the codes with a seat (all but ``HAND_OVER``)
SEATED: frozenset[int] = frozenset(LogCode) - {LogCode.HAND_OVER}
#: every code by its value (decoding)
BY_VALUE: tuple[LogCode, ...] = tuple(LogCode)
#: the record's ``action`` of the codes that are not timeouts
_ACTION: dict[int, Action] = {
    LogCode.PLAY: "play",
    LogCode.DRAW: "draw",
    LogCode.PASS: "pass",
    LogCode.LEAVE: "leave",
    LogCode.HAND_OVER: "hand_over",
    LogCode.CEDE: "cede",
    LogCode.AUTO_PLAY: "play",
    LogCode.AUTO_DRAW: "draw",
    LogCode.AUTO_PASS: "pass",
    LogCode.PREMOVE_PLAY: "play",
}
_FORFEIT: frozenset[int] = frozenset(TIMEOUT_FORFEIT)
_AUTO: frozenset[int] = frozenset(AUTO)


class Held(Protocol):
    """What the records are made from: ``Match``'s public log attributes, read-only (this module
    does not import ``match``: ``Match.moves`` and ``Match.previous_hand_moves`` call it)."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def first_held_n(self) -> int: ...
    @property
    def log(self) -> list[Entry]: ...
    @property
    def prev_log(self) -> list[Entry]: ...


class MoveRecord(TypedDict):
    """One move as the API shows it (keys in this order)."""

    n: int
    hand_number: int
    seat: int | None
    action: Action
    move: NotRequired[MoveName]
    forfeit: NotRequired[bool]
    tile: NotRequired[str]
    end: NotRequired[str | None]
    #: ``in_play: fives``, plays only: the count after the play, and the points it made
    count: NotRequired[int]
    scored: NotRequired[int]
    #: trains: a draw or a pass that marked the seat's train
    marked: NotRequired[bool]
    #: the one thing the seat could do, made for its player at once (``auto_forced``)
    auto: NotRequired[bool]
    #: a conditional pre-move's reply, played when its line matched
    premove: NotRequired[bool]
    at: int


def record(
    entry: Entry, n: int, hand_number: int, names: tuple[str, ...], count: int | None = None
) -> MoveRecord:
    """The record of log entry ``entry``, numbered ``n``, on a board with end ``names``;
    ``count``: the count after a play (``in_play`` rules only)."""
    code, seat, tid, arm, at = entry
    rec: dict[str, Any] = {
        "n": n,
        "hand_number": hand_number,
        "seat": seat if seat >= 0 else None,
    }
    if code in _ACTION:
        rec["action"] = _ACTION[code]
    else:
        rec["action"] = "timeout"
        rec["move"] = _MOVE_NAMES[KIND[code]]
        if code in _FORFEIT:
            rec["forfeit"] = True
    if tid >= 0:
        rec["tile"] = TEXT[tid]
    if code in MARKING and arm == 1:  # trains: the move marked the seat's train
        rec["marked"] = True
    if code in PLAY_CODES:
        rec["end"] = None if arm < 0 else names[arm]
        if count is not None:
            rec["count"] = count
            rec["scored"] = fives.scored(count)
    if code in _AUTO:
        rec["auto"] = True
    elif code == LogCode.PREMOVE_PLAY:
        rec["premove"] = True
    rec["at"] = at
    # built key by key, in the API's key order ("at" last): a TypedDict literal would need every
    # required key at once, and cast() would cost a call per record
    return rec  # type: ignore[return-value]


def held(m: Held) -> list[MoveRecord]:
    """Every move the match holds (the previous hand's, then the current hand's), full."""
    names = m.layout.names
    n = m.first_held_n
    out = []
    cur = m.hand_number
    for log, number in ((m.prev_log, cur - 1), (m.log, cur)):
        counts = _counts(m, log)
        for i, e in enumerate(log):
            out.append(record(e, n, number, names, counts[i] if counts else None))
            n += 1
    return out


def _counts(m: Held, log: list[Entry]) -> list[int | None]:
    """``in_play`` rules: the count after each play of a hand's ``log``, by position (None for
    the other entries); empty otherwise."""
    if m.rules.in_play is None:
        return []
    at = [i for i, e in enumerate(log) if e[0] in PLAY_CODES]
    trail = fives.trail(m.layout, [(log[i][2], log[i][3]) for i in at])
    counts: list[int | None] = [None] * len(log)
    for i, count in zip(at, trail, strict=True):
        counts[i] = count
    return counts


def moves(m: Held, viewer: int | None, after: int = 0) -> list[MoveRecord]:
    """Held moves numbered above ``after`` as ``viewer`` may see them (None: the public)."""
    return [redact_move(rec, viewer) for rec in held(m) if rec["n"] > after]


def previous_hand_moves(m: Held) -> list[MoveRecord]:
    """Full records (drawn tiles included) of the previous hand, for the caller's archive."""
    return held(m)[: len(m.prev_log)]


_Record = TypeVar("_Record", MoveRecord, dict[str, Any])


def redact_move(record: _Record, viewer: int | None) -> _Record:
    """A move record as ``viewer`` may see it: a drawn tile only for its drawer (a copy without
    ``tile`` for anyone else; the record itself when nothing is hidden)."""
    if (
        "tile" in record
        and record["seat"] != viewer
        and (record["action"] == "draw" or record.get("move") == "draw")
    ):
        record = record.copy()
        del record["tile"]
    return record


__all__ = [
    "AUTO",
    "DRAW_CODES",
    "KIND",
    "MARKING",
    "OWN",
    "PLAY_CODES",
    "PREMOVE",
    "SEATED",
    "TIMEOUT",
    "TIMEOUT_FORFEIT",
    "Entry",
    "Held",
    "LogCode",
    "MoveCodes",
    "MoveRecord",
    "held",
    "moves",
    "previous_hand_moves",
    "record",
    "redact_move",
]
