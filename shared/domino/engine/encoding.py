"""Compact binary form of a ``Match``: ``encode(match) -> bytes``, ``decode(data) -> Match``.

A version byte, then one little-endian bit stream. Fixed-width fields use the fewest bits the
game allows (a tile id of double-6 takes 5 bits, a seat of 4 players 3 bits, a hand is a bitmask of
the set); numbers are bit-level varints (6 value bits + 1 continuation bit per group, signed ones
zig-zag coded). The board is not stored: it is rebuilt from the current hand's plays in the log.
Times in the log are varint deltas from the previous move (the first from ``start_at``).

Layout (version 1): rules · seed · status, hand number, reshuffles, opener, turn, forced lead,
passes · hands · boneyard · scores · chips/pot · forfeits · last hand · log (start time, first n,
previous hand's moves, current hand's moves). Version 2 is version 1 with the ruleset's
``EXTENSIONS`` after its other fields (a mask of those off their old values, then their values):
a game whose rules leave them all at their old values is written as version 1, byte for byte
what it was before they existed. ``WITH_LOT`` added to either version: a dev deal fixed every lot
of the match (``Match.lot``), whose seat follows the log.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .errors import InvalidInput
from .layouts import LAYOUTS
from .match import Match
from .movelog import BY_VALUE, DRAW_CODES, MARKING, PLAY_CODES, SEATED, Entry
from .outcome import HandEnd, HandEnded
from .rules import CHOICES, EXTENSIONS, FIELD_NAMES, Ruleset, check_rules
from .tiles import SETS, set_size

VERSION = 1
#: the version of a match whose rules set a field of ``EXTENSIONS``
EXTENDED = 2
#: added to the version byte: the seat every lot draws follows the log (dev deals only)
WITH_LOT = 4
_CHOICE_FIELDS = tuple(name for name in FIELD_NAMES if name in CHOICES and name not in EXTENSIONS)
#: how a hand ended: 0 dominó, 1 closed, 2 the target reached mid-hand (one bit, two where the
#: rules score during play, the only games a hand can end so)
_END_BIT = {HandEnd.DOMINO: 0, HandEnd.CLOSED: 1, HandEnd.TARGET: 2}
_END_OF_BIT = (HandEnd.DOMINO, HandEnd.CLOSED, HandEnd.TARGET)


class _Writer:
    __slots__ = ("acc", "pos")

    def __init__(self) -> None:
        self.acc = 0
        self.pos = 0

    def put(self, value: int, width: int) -> None:
        if width:
            self.acc |= value << self.pos
            self.pos += width

    def uvar(self, value: int) -> None:
        while True:
            chunk = value & 63
            value >>= 6
            if value:
                self.put(chunk | 64, 7)
            else:
                self.put(chunk, 7)
                return

    def svar(self, value: int) -> None:
        self.uvar(value * 2 if value >= 0 else -value * 2 - 1)

    def opt(self, value: int | None) -> None:
        self.uvar(0 if value is None else value + 1)

    def data(self, version: int = VERSION) -> bytes:
        return bytes([version]) + self.acc.to_bytes((self.pos + 7) // 8, "little")


class _Reader:
    __slots__ = ("acc", "end", "pos")

    def __init__(self, data: bytes) -> None:
        self.acc = int.from_bytes(data, "little")
        self.pos = 0
        self.end = len(data) * 8

    def get(self, width: int) -> int:
        if self.pos + width > self.end:
            raise InvalidInput("truncated game state")
        v = (self.acc >> self.pos) & ((1 << width) - 1)
        self.pos += width
        return v

    def uvar(self) -> int:
        value = 0
        shift = 0
        while True:
            chunk = self.get(7)
            value |= (chunk & 63) << shift
            shift += 6
            if not chunk & 64:
                return value
            if shift > 700:
                raise InvalidInput("corrupt game state")

    def svar(self) -> int:
        v = self.uvar()
        return v >> 1 if not v & 1 else -(v >> 1) - 1

    def opt(self) -> int | None:
        v = self.uvar()
        return None if v == 0 else v - 1


def _widths(rules: Ruleset) -> tuple[int, int, int, int]:
    """Bits for a tile id, a seat (value ``players`` = none), an arm (+1) and a pass count."""
    n = rules.players
    return (
        (set_size(rules.set) - 1).bit_length(),
        n.bit_length(),
        LAYOUTS[rules.layout].arms.bit_length(),
        n.bit_length(),
    )


def _put_rules(w: _Writer, r: Ruleset) -> None:
    w.put(SETS.index(r.set), 2)
    w.uvar(r.players)
    w.uvar(r.hand_size)
    w.uvar(r.reserve)
    for name in _CHOICE_FIELDS:
        w.put(CHOICES[name].index(getattr(r, name)), 3)
    w.opt(r.target)
    w.opt(r.rounds)
    w.put(0 if r.unit == 1 else 1, 1)
    w.opt(r.stake)
    if r.extended:
        _put_extensions(w, r)


def _put_extensions(w: _Writer, r: Ruleset) -> None:
    """The ``EXTENSIONS`` off their old values: a mask of them (bit i: the i-th field, so a
    field added later leaves every earlier item readable), then each one's value."""
    present = [name for name, old in EXTENSIONS.items() if getattr(r, name) != old]
    w.uvar(sum(1 << i for i, name in enumerate(EXTENSIONS) if name in present))
    for name in present:
        value = getattr(r, name)
        if name in CHOICES:
            w.uvar(CHOICES[name].index(value))
        else:
            w.opt(value)


def _get_extensions(rd: _Reader, values: dict[str, Any]) -> None:
    mask = rd.uvar()
    if mask >> len(EXTENSIONS):
        raise InvalidInput("corrupt game state")  # a field this code does not know
    for i, name in enumerate(EXTENSIONS):
        if mask >> i & 1:
            if name in CHOICES:
                values[name] = CHOICES[name][rd.uvar()]
            else:
                values[name] = rd.opt()


def _get_rules(rd: _Reader, version: int) -> Ruleset:
    values: dict[str, Any] = {
        "set": SETS[rd.get(2)],
        "players": rd.uvar(),
        "hand_size": rd.uvar(),
        "reserve": rd.uvar(),
    }
    for name in _CHOICE_FIELDS:
        idx = rd.get(3)
        if idx >= len(CHOICES[name]):
            raise InvalidInput("corrupt game state")
        values[name] = CHOICES[name][idx]
    values["target"] = rd.opt()
    values["rounds"] = rd.opt()
    values["unit"] = 10 if rd.get(1) else 1
    values["stake"] = rd.opt()
    if version == EXTENDED:
        _get_extensions(rd, values)
    return _ruleset(tuple(values.items()))


@lru_cache(maxsize=256)
def _ruleset(fields: tuple[tuple[str, Any], ...]) -> Ruleset:
    """Rulesets are immutable and few: one checked instance per distinct encoding."""
    rules = Ruleset(**dict(fields))
    check_rules(rules)
    return rules


def encode(m: Match) -> bytes:
    """The match as compact bytes (see the module doc)."""
    r = m.rules
    n = m.players
    tw, sw, aw, pw = _widths(r)
    total = set_size(r.set)
    w = _Writer()
    _put_rules(w, r)
    if m.seed is None:
        w.put(0, 1)
    else:
        w.put(1, 1)
        w.svar(m.seed)
    finished = m.status != "playing"
    w.put(1 if finished else 0, 1)
    w.uvar(m.hand_number)
    w.uvar(m.reshuffles)
    trains = m.trains
    if trains is not None:  # the round's search for its engine (the station is its number's)
        w.uvar(trains.search_passes)
    w.put(m.opener, sw)
    if not finished:
        w.put(m.turn if m.turn is not None else n, sw)
    w.put(m.forced + 1, tw + 1)
    w.put(m.passes, pw)
    for h in m.hands:
        w.put(h, total)
    w.put(len(m.boneyard), tw + 1)
    for t in m.boneyard:
        w.put(t, tw)
    for s in m.scores:
        w.svar(s)
    if m.chips is not None:
        for c in m.chips:
            w.svar(c)
        w.uvar(m.pot)
    w.put(sum(1 << s for s in m.forfeits), n)
    # the order of forfeits is kept: it is rarely more than one seat
    for s in m.forfeits:
        w.put(s, sw)
    ended = m.ended
    if ended is None:
        w.put(0, 1)
    else:
        w.put(1, 1)
        number, end, winners, points, hands, win_seat = ended
        w.uvar(m.hand_number - number)
        w.put(_END_BIT[end], 2 if r.in_play else 1)
        w.put(sum(1 << s for s in winners), n)
        w.put(win_seat + 1, sw)
        for p in points:
            w.svar(p)
        for h in hands:
            w.put(h, total)
        if finished:
            w.put(sum(1 << s for s in m.match_winners_), n)
            w.put(1 if m.is_draw else 0, 1)
    w.svar(m.start_at)
    w.uvar(m.first_held_n)
    prev_at = m.start_at
    for log in (m.prev_log, m.log):
        w.uvar(len(log))
        for code, seat, tid, arm, at in log:
            w.put(code, 4)
            if code in SEATED:
                w.put(seat, sw)
            if code in PLAY_CODES:
                w.put(tid, tw)
                w.put(arm + 1, aw)
            elif code in DRAW_CODES:
                w.put(tid, tw)
            if trains is not None and code in MARKING:  # whether it marked the seat's train
                w.put(1 if arm == 1 else 0, 1)
            w.svar(at - prev_at)
            prev_at = at
    version = EXTENDED if r.extended else VERSION
    if m.lot >= 0:
        w.uvar(m.lot)
        version += WITH_LOT
    return w.data(version)


def decode(data: bytes) -> Match:
    """The match ``encode`` produced (``InvalidInput`` for bytes it could not have produced)."""
    if not isinstance(data, bytes | bytearray) or not data:
        raise InvalidInput("empty game state")
    if data[0] & ~WITH_LOT not in (VERSION, EXTENDED):
        raise InvalidInput("unknown game state version {version}", version=data[0])
    try:
        return _decode(bytes(data[1:]), data[0])
    except (IndexError, KeyError, ValueError, TypeError) as exc:
        raise InvalidInput("corrupt game state") from exc


def _decode(body: bytes, version: int) -> Match:
    rd = _Reader(body)
    r = _get_rules(rd, version & ~WITH_LOT)
    n = r.players
    tw, sw, aw, pw = _widths(r)
    total = set_size(r.set)
    seed = rd.svar() if rd.get(1) else None
    finished = bool(rd.get(1))
    hand_number = rd.uvar()
    reshuffles = rd.uvar()
    trains = r.layout == "trains"
    search_passes = rd.uvar() if trains else 0
    opener = rd.get(sw)
    turn: int | None = None
    if not finished:
        turn = rd.get(sw)
        if turn >= n:
            turn = None
    forced = rd.get(tw + 1) - 1
    passes = rd.get(pw)
    hands = [rd.get(total) for _ in range(n)]
    boneyard = [rd.get(tw) for _ in range(rd.get(tw + 1))]
    scores = [rd.svar() for _ in range(n)]
    chips = None
    pot = 0
    if r.stake is not None:
        chips = [rd.svar() for _ in range(n)]
        pot = rd.uvar()
    count = rd.get(n).bit_count()
    forfeits = [rd.get(sw) for _ in range(count)]
    ended: HandEnded | None = None
    match_winners: tuple[int, ...] = ()
    is_draw = False
    if rd.get(1):
        number = hand_number - rd.uvar()
        end = _END_OF_BIT[rd.get(2 if r.in_play else 1)]
        wmask = rd.get(n)
        win_seat = rd.get(sw) - 1
        points = tuple(rd.svar() for _ in range(n))
        last_hands = tuple(rd.get(total) for _ in range(n))
        ended = (
            number,
            end,
            tuple(s for s in range(n) if wmask >> s & 1),
            points,
            last_hands,
            win_seat,
        )
        if finished:
            mw = rd.get(n)
            match_winners = tuple(s for s in range(n) if mw >> s & 1)
            is_draw = bool(rd.get(1))
    start_at = rd.svar()
    first_held_n = rd.uvar()
    prev_at = start_at
    logs: list[list[Entry]] = []
    for _ in range(2):
        log: list[Entry] = []
        for _ in range(rd.uvar()):
            code = BY_VALUE[rd.get(4)]  # no such code: IndexError, "corrupt game state"
            seat = rd.get(sw) if code in SEATED else -1
            tid = arm = -1
            if code in PLAY_CODES:
                tid = rd.get(tw)
                arm = rd.get(aw) - 1
            elif code in DRAW_CODES:
                tid = rd.get(tw)
            if trains and code in MARKING:
                arm = 1 if rd.get(1) else -1
            prev_at += rd.svar()
            log.append((code, seat, tid, arm, prev_at))
        logs.append(log)
    lot = rd.uvar() if version & WITH_LOT else -1
    if not -1 <= lot < n:
        raise InvalidInput("corrupt game state")
    if rd.end - rd.pos >= 8:
        raise InvalidInput("trailing bytes in game state")
    return Match.restore(
        r,
        seed=seed,
        status="finished" if finished else "playing",
        hand_number=hand_number,
        reshuffles=reshuffles,
        opener=opener,
        turn=turn,
        forced=forced,
        passes=passes,
        hands=hands,
        boneyard=boneyard,
        scores=scores,
        chips=chips,
        pot=pot,
        forfeits=forfeits,
        ended=ended,
        match_winners=match_winners,
        is_draw=is_draw,
        start_at=start_at,
        first_held_n=first_held_n,
        prev_log=logs[0],
        log=logs[1],
        search_passes=search_passes,
        lot=lot,
    )


__all__ = ["EXTENDED", "VERSION", "WITH_LOT", "decode", "encode"]
