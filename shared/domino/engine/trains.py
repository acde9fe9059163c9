"""Mexican Train (``layout: trains``): the station, personal trains, markers, doubles that must be
satisfied and turns of several tiles (docs/rules.md "Tren mexicano").

- **The station**: round r's engine is the double (13 - r)-(13 - r). The deal shuffles every tile,
  the engine included; its holder sets it in the station and plays first. When nobody holds it,
  every seat in play order from seat 0 draws one tile from the boneyard, pass after pass; after
  the pass in which the engine was drawn, its drawer sets it (``search_passes`` counts the
  passes; these draws are part of the deal, not moves).
- **Trains**: one per seat (``train-k``, arm k) and the Mexican train (arm ``MEXICAN``). A seat
  may lay on its own train and the Mexican train always, on another seat's only while it
  carries a marker.
- **Markers**: a seat's train is marked when a drawn tile cannot be played or when it passes,
  and the marker comes off only when it lays a tile on its own train.
- **Doubles**: after a double the seat plays again. Doubles nobody has satisfied are kept oldest
  first; while any exists the only legal plays are tiles on the oldest one (whoever's train it
  lies on), except that a seat that laid a double this turn may lay another double. A turn is
  one non-double, or one or more doubles then at most one non-double.
- **Drawing** (``one_then_play``): with no legal play, one tile per turn: if it plays it must be
  laid now; if not, the turn ends and the train is marked. With no legal play and no draw
  left, the seat passes (marked).

``TrainsState`` is what a match keeps of the round beyond the board (its ``ends`` and
``arm_len``); ``Match`` asks these functions what is legal and what a move does, and keeps the
turn, the hands and the log itself. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .errors import (
    CannotCede,
    CannotDraw,
    CannotPass,
    EndRequired,
    MustPlay,
    MustSatisfyDouble,
    TileDoesNotMatch,
    TileNotInHand,
)
from .layouts import MEXICAN, TRAINS
from .moves import Draw, Move, Pass, Play
from .tiles import DOUBLE, HIGH, LOW, PIPS, SUIT, bits

#: the highest engine: round 1's (12-12), round 13's is 0-0
FIRST_ENGINE = 12


def engine_of(hand_number: int) -> int:
    """The tile id of round ``hand_number``'s engine: 12-12, 11-11, ... 0-0."""
    return DOUBLE[max(FIRST_ENGINE - (hand_number - 1), 0)]


class TrainsState:
    """The round beyond its board: the station, the markers, the doubles not yet satisfied, and
    what the seat on turn has done this turn.

    ``engine`` (the station's tile id), ``search_passes``, ``marked`` (a bit per seat),
    ``pending`` ((arm, tile id, seat) oldest first), ``doubles`` (the doubles laid this turn),
    ``drew`` (whether the seat on turn drew this turn), ``of`` (the seat whose turn these two
    describe, -1: none yet)."""

    __slots__ = ("doubles", "drew", "engine", "marked", "of", "pending", "players", "search_passes")

    def __init__(self, players: int) -> None:
        self.players = players
        self.engine = -1
        self.search_passes = 0
        self.marked = 0
        self.pending: list[tuple[int, int, int]] = []
        self.doubles: list[int] = []
        self.drew = False
        self.of = -1

    def new_round(self, engine: int, search_passes: int) -> None:
        self.engine, self.search_passes = engine, search_passes
        self.marked = 0
        self.pending = []
        self.new_turn(-1)

    def new_turn(self, seat: int) -> None:
        self.doubles = []
        self.drew = False
        self.of = seat

    def copy(self) -> TrainsState:
        other = TrainsState.__new__(TrainsState)
        other.players, other.engine, other.search_passes = (
            self.players,
            self.engine,
            self.search_passes,
        )
        other.marked, other.pending, other.doubles = (
            self.marked,
            list(self.pending),
            list(self.doubles),
        )
        other.drew, other.of = self.drew, self.of
        return other

    # ------------------------------------------------------------------ where a seat may lay

    def open_to(self, seat: int) -> list[int]:
        """The trains ``seat`` may lay on, doubles aside: its own, the Mexican, marked ones."""
        out = [arm for arm in range(self.players) if arm == seat or self.marked >> arm & 1]
        out.append(MEXICAN)
        return out

    def legal(self, seat: int, hand: int, ends: Sequence[int]) -> list[tuple[int, int]]:
        """Every legal play of ``seat`` holding ``hand``, as (tile id, arm), arm by arm."""
        doubles_laid = self.of == seat and bool(self.doubles)
        out: list[tuple[int, int]] = []
        if self.pending:
            arm = self.pending[0][0]
            out += [(t, arm) for t in bits(hand & SUIT[ends[arm]])]
            if doubles_laid:  # another double anywhere open to it instead
                for a in self.open_to(seat):
                    out += [
                        (t, a)
                        for t in bits(hand & SUIT[ends[a]])
                        if LOW[t] == HIGH[t] and (t, a) not in out
                    ]
            return out
        for a in self.open_to(seat):
            out += [(t, a) for t in bits(hand & SUIT[ends[a]])]
        return out

    def can_draw(self, seat: int, hand: int, ends: Sequence[int], boneyard: int) -> bool:
        return (
            boneyard > 0
            and not (self.of == seat and self.drew)
            and not self.legal(seat, hand, ends)
        )

    def arm_for(self, seat: int, hand: int, ends: Sequence[int], tid: int, end: int | None) -> int:
        """The arm a play of ``tid`` on ``end`` (None: not named) goes on, or the refusal:
        ``MustSatisfyDouble`` for a tile that fits a train open to the seat while a double
        waits elsewhere, ``TileDoesNotMatch``, ``EndRequired``."""
        legal = [a for t, a in self.legal(seat, hand, ends) if t == tid]
        if end is not None:
            if end in legal:
                return end
            return self._refusal(seat, ends, tid, end)
        if len(legal) == 1:
            return legal[0]
        if legal:
            raise EndRequired("That tile fits more than one train: say which.")
        return self._refusal(seat, ends, tid, None)

    def _refusal(self, seat: int, ends: Sequence[int], tid: int, end: int | None) -> int:
        waiting = self.pending[0][0] if self.pending else None
        if end is not None:
            if end != waiting and end not in self.open_to(seat):
                raise TileDoesNotMatch("That train is not open to you.")
            if waiting is not None and end != waiting:
                raise MustSatisfyDouble("A double waits to be satisfied: play on it first.")
            raise TileDoesNotMatch("That tile does not fit that train.")
        if waiting is not None and any(
            ends[a] in (LOW[tid], HIGH[tid]) for a in self.open_to(seat)
        ):
            raise MustSatisfyDouble("A double waits to be satisfied: play on it first.")
        raise TileDoesNotMatch("That tile fits no train open to you.")

    # ------------------------------------------------------------------ what a move does

    def laid(self, seat: int, tid: int, arm: int) -> bool:
        """``seat`` laid ``tid`` on ``arm`` (checked): the markers and the doubles change;
        whether the turn goes on (a double)."""
        if self.of != seat:
            self.new_turn(seat)
        if arm == seat:
            self.marked &= ~(1 << seat)
        if self.pending and self.pending[0][0] == arm and LOW[tid] != HIGH[tid]:
            self.pending.pop(0)  # satisfied
        if LOW[tid] == HIGH[tid]:
            self.pending.append((arm, tid, seat))
            self.doubles.append(tid)
            return True
        self.new_turn(-1)
        return False

    def drawn(self, seat: int, hand: int, ends: Sequence[int]) -> bool:
        """``seat`` drew (``hand`` now holds the tile): whether it plays (the turn goes on);
        if not, the seat's train is marked and the turn ends."""
        if self.of != seat:
            self.new_turn(seat)
        self.drew = True
        if self.legal(seat, hand, ends):
            return True
        self.marked |= 1 << seat
        self.new_turn(-1)
        return False

    def passed(self, seat: int) -> None:
        """``seat`` passed: its train is marked (it may have been already)."""
        self.marked |= 1 << seat
        self.new_turn(-1)


#: what ``train_move`` did: 0 a play, 1 a draw, 2 a pass (``movelog.KIND``'s numbers)
PLAYED, DREW, PASSED = 0, 1, 2


class Table(Protocol):
    """What a move changes of a match: its hands, boneyard (top last) and board, in place
    (``Match``'s public lists; ``kept``: boneyard tiles never drawn)."""

    @property
    def hands(self) -> list[int]: ...
    @property
    def boneyard(self) -> list[int]: ...
    @property
    def ends(self) -> list[int]: ...
    @property
    def arm_len(self) -> list[int]: ...
    @property
    def kept(self) -> int: ...


def train_move(
    state: TrainsState, table: Table, seat: int, move: Move
) -> tuple[int, int, int, bool]:
    """Make ``seat``'s move (its turn, checked) on ``table`` (its hands, boneyard and board
    change). Returns what it did (``PLAYED``, ``DREW``, ``PASSED``), the tile (-1: none), the
    arm (a play's; for a draw or a pass 1 when it marked the seat's train, as every pass does,
    else -1: what the log keeps), and whether the seat's turn goes on."""
    hands, boneyard, ends, arm_len, keep = (
        table.hands,
        table.boneyard,
        table.ends,
        table.arm_len,
        table.kept,
    )
    hand = hands[seat]
    if isinstance(move, Play):
        tid = move.tile.id
        if not hand >> tid & 1:
            raise TileNotInHand("That tile is not in your hand.")
        end = None if move.end is None else TRAINS.index[move.end]
        arm = state.arm_for(seat, hand, ends, tid, end)
        TRAINS.grow(ends, arm_len, arm, PIPS[tid] - ends[arm])
        hands[seat] = hand ^ 1 << tid
        return PLAYED, tid, arm, state.laid(seat, tid, arm)
    if isinstance(move, Draw):
        if state.legal(seat, hand, ends):
            raise MustPlay("You hold a tile you can play: you must play it.")
        if len(boneyard) <= keep or (state.of == seat and state.drew):
            raise CannotDraw("There is nothing you can draw.")
        tid = boneyard.pop()
        hands[seat] = hand | 1 << tid
        goes_on = state.drawn(seat, hands[seat], ends)
        return DREW, tid, -1 if goes_on else 1, goes_on
    if isinstance(move, Pass):
        if state.legal(seat, hand, ends) or state.can_draw(seat, hand, ends, len(boneyard) - keep):
            raise CannotPass("You can play or draw, so you cannot pass.")
        state.passed(seat)  # a pass marks the train, as a draw that cannot be played does
        return PASSED, -1, 1, False
    raise CannotCede("Only the seat offered the lead may cede it, before any tile.")


def search(hands: list[int], boneyard: list[int], engine: int, players: int) -> tuple[int, int]:
    """Set the station: the engine's holder (taken from its hand), after the search passes when
    the boneyard holds it (``boneyard`` top last; ``hands`` drawn into). Returns the opener and
    the passes."""
    passes = 0
    bit = 1 << engine
    while True:
        for seat, hand in enumerate(hands):
            if hand & bit:
                hands[seat] = hand ^ bit
                return seat, passes
        if not boneyard:
            raise AssertionError("the engine is in no hand and not in the boneyard")
        passes += 1
        for seat in range(players):  # a whole pass, in play order from seat 0
            if boneyard:
                hands[seat] |= 1 << boneyard.pop()


def replay(
    state: TrainsState,
    ends: list[int],
    arm_len: list[int],
    entries: Sequence[tuple[int, int, int, int]],
) -> None:
    """Rebuild a round's state from its moves ``entries`` ((kind, seat, tile id, arm): kind 0 a
    play, 1 a draw, 2 a pass, as ``movelog.KIND`` numbers them; a draw's arm 1: it marked the
    seat's train), on an empty board opened at ``state.engine``."""
    TRAINS.open_station(ends, LOW[state.engine])
    for kind, seat, tid, arm in entries:
        if kind == 0:
            TRAINS.grow(ends, arm_len, arm, PIPS[tid] - ends[arm])
            state.laid(seat, tid, arm)
        elif kind == 1:
            if state.of != seat:
                state.new_turn(seat)
            state.drew = True
            if arm == 1:
                state.marked |= 1 << seat
                state.new_turn(-1)
        elif kind == 2:
            state.passed(seat)


__all__ = [
    "DREW",
    "FIRST_ENGINE",
    "MEXICAN",
    "PASSED",
    "PLAYED",
    "TrainsState",
    "engine_of",
    "replay",
    "search",
    "train_move",
]
