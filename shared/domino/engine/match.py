"""The state of a whole match: the current hand, scores, chips, the move log; moves and views.

How a hand is played (RULES.md "A turn"):

1. The opener leads. Under ``highest_double`` the seat holding the highest double leads it
   (``double_six``: 6-6 first, else the highest double; ``required_double``: the set's top double,
   9-9 in Chipre). With no such double in any hand, ``no_double: heaviest`` makes the holder of the
   heaviest tile lead it, ``reshuffle`` deals again (``reshuffles`` counts the re-deals of the
   current hand). ``lot`` draws a seat that leads any tile. Later hands: ``previous_winner`` lets
   the last hand's winning seat lead any tile (after a hand with no winner the first-hand rule
   applies); ``same_as_first`` applies the opening rule again, forced lead included.
2. On your turn you play one tile that matches an open end, or draw, or pass. You must play if you
   can. You may draw only with no playable tile while the boneyard holds more than the reserve:
   ``until_playable`` keeps the turn after a draw (draw again or play), ``one_then_pass`` ends it.
   You may pass only when you can neither play nor draw.
3. The hand ends with a dominó (a seat plays its last tile) or closed: n passes in a row.
4. Scoring (see ``scoring``), then the match goes on with the next hand dealt at once, or ends.

Layouts: ``line`` has ends ``left``/``right`` (a first tile a-b opens left = a, right = b).
``cross``: the opening double opens ``north``, ``east``, ``south``, ``west``; while any of them is
uncovered only uncovered arms take a tile. ``star`` adds the diagonals ``northeast``,
``southeast``, ``southwest``, ``northwest``, which open once all four sides are covered; a covered
side may grow at any time.

Hidden information: hands of other seats, the boneyard order and the seed stay inside this object;
``view()`` and ``moves()`` reveal only what the asking seat may see. Drawn tiles are kept in the log
(the drawer sees them) and redacted for everyone else.

The move log: the state holds the current hand's moves and the previous hand's only (``log``,
``prev_log``). ``first_held_n`` is the ``n`` of the oldest move held; after a hand ends the caller
copies ``previous_hand_moves`` (full records, drawn tiles included: never send them unredacted,
use ``redact_move``) to its archive before the next hand ends.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable
from operator import add, getitem, itemgetter
from typing import Any

from .errors import (
    CannotDraw,
    CannotPass,
    EndRequired,
    GameNotInProgress,
    InvalidInput,
    MustLeadOpeningTile,
    MustPlay,
    NotYourTurn,
    TileDoesNotMatch,
    TileNotInHand,
)
from .moves import DRAW, PASS, Draw, Move, Pass, Play
from .rules import Ruleset
from .scoring import match_over, match_winners, score_hand
from .tiles import (
    DOUBLE,
    HEAVY_KEY,
    HIGH,
    LOW,
    MAX_TOP,
    PIP_BYTES,
    PIPS,
    SUIT,
    TEXT,
    TILES,
    Tile,
    bits,
    parse_tile,
    set_size,
    show,
    show_mask,
)

ARM_NAMES: dict[str, tuple[str, ...]] = {
    "line": ("left", "right"),
    "cross": ("north", "east", "south", "west"),
    "star": ("north", "east", "south", "west", "northeast", "southeast", "southwest", "northwest"),
}
ARM_INDEX: dict[str, dict[str, int]] = {
    k: {name: i for i, name in enumerate(v)} for k, v in ARM_NAMES.items()
}

# log entry codes
PLAY, DRAW_, PASS_, LEAVE, HAND_OVER = 0, 1, 2, 3, 4
T_PLAY, T_DRAW, T_PASS = 5, 6, 7  # timeout (auto) moves
TF_PLAY, TF_DRAW, TF_PASS = 8, 9, 10  # timeout with forfeit
N_CODES = 11
_KIND = {
    PLAY: 0,
    DRAW_: 1,
    PASS_: 2,
    T_PLAY: 0,
    T_DRAW: 1,
    T_PASS: 2,
    TF_PLAY: 0,
    TF_DRAW: 1,
    TF_PASS: 2,
}
_ACTION = {PLAY: "play", DRAW_: "draw", PASS_: "pass", LEAVE: "leave", HAND_OVER: "hand_over"}
_MOVE_NAME = ("play", "draw", "pass")


class _PerLayout(dict[str, Any]):
    """A table built for a layout the first time a game of that layout needs it (a cold start
    of a Lambda function pays only for the layouts it plays)."""

    def __init__(self, build: Callable[[str], Any]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, layout: str) -> Any:
        value = self[layout] = self._build(layout)
        return value


#: Play objects per (tile id, arm + 1) for every layout: shared, immutable
_PLAYS: dict[str, list[list[Play]]] = _PerLayout(
    lambda layout: [[Play(t, None)] + [Play(t, name) for name in ARM_NAMES[layout]] for t in TILES]
)

#: id(Play object) -> (tile id, arm, 1 << tile id, pips) for the shared Play objects of each
#: layout (the fast path of ``apply``); the ``DRAW`` and ``PASS`` singletons -> None
_PLAY_INFO: dict[str, dict[int, tuple[int, int, int, int] | None]] = _PerLayout(
    lambda layout: {
        id(DRAW): None,
        id(PASS): None,
        **{
            id(p): (t, arm - 1, 1 << t, PIPS[t])
            for t, row in enumerate(_PLAYS[layout])
            for arm, p in enumerate(row)
        },
    }
)

#: per layout, per arm: submask of one suit -> the Play objects it yields on that arm (bounded)
_LEGAL_CACHE: dict[str, tuple[dict[int, tuple[Play, ...]], ...]] = {
    layout: tuple({} for _ in names) for layout, names in ARM_NAMES.items()
}
#: entries per layout, over all its arms
_LEGAL_CACHE_MAX = 20_000

MAX_RESHUFFLES = 10_000


def _kit(rules: Ruleset) -> tuple:
    """What a ruleset fixes for the hot path: Play tables, seat order, tiles never drawn, and for
    ``_deal``: the set size, the slices of a shuffled set that make the hands, the tiles dealt,
    the doubles that make a seat opener (best first)."""
    n = rules.players
    h = rules.hand_size
    total = set_size(rules.set)
    step = 1 if rules.direction == "clockwise" else n - 1
    keep = 1 << 30 if rules.draw == "none" else rules.reserve
    layout = rules.layout
    orders = tuple(tuple((first + i * step) % n for i in range(n)) for first in range(n))
    return (
        _PLAYS[layout],
        _PLAY_INFO[layout],
        _LEGAL_CACHE[layout],
        step,
        tuple((s + step) % n for s in range(n)),
        layout == "line",
        keep,
        len(ARM_NAMES[layout]),
        orders,
        (
            total,
            tuple(slice(i, i + h) for i in range(0, n * h, h)),
            n * h,
            _WANTED[rules.opening, rules.set],
        ),
    )


_KITS: dict[tuple, tuple] = {}
#: the Ruleset object ``Match._blank`` saw last and its kit (a match deals and re-deals with one)
_LAST_KIT: tuple[Ruleset | None, tuple] = (None, ())
_BIT = tuple(1 << i for i in range(len(TILES)))
_BIT_LIST = list(_BIT)  # a list: its __getitem__ is quicker to call than a tuple's


def csprng_shuffle(total: int, head: int = 1) -> tuple[list[int], int]:
    """``0 .. total - 1`` in random order, and a random number of at least 128 bits (a lot).
    The order among the first ``head`` items is left alone (they make one hand, a set): they are
    a uniformly random subset, the rest a uniformly random order of the other items.

    A Fisher-Yates shuffle driven by one integer read from ``os.urandom`` (the CSPRNG behind
    ``secrets``) and consumed by ``divmod``: the integer holds at least 128 bits more than
    ``log2(total!)``, so each order is as likely as any other but for a relative bias below
    2**-128, and what is left of it (128 bits or more) is the lot. One system call per shuffle.
    Small steps are taken two at a time (``_fy_plan``): the same draws, the same order."""
    tiles = list(range(total))
    return tiles, _csprng_shuffle_in_place(tiles, head)


#: the largest k * (k - 1) whose step pair gets a table (``_fy_plan``)
_PAIR_MAX = 1024
_FY_PLANS: dict[tuple[int, int], tuple[int, range, tuple, int]] = {}


def _fy_plan(total: int, head: int) -> tuple[int, range, tuple, int]:
    """How ``_csprng_shuffle_in_place`` shuffles ``total`` items: bytes to read, the steps done
    one at a time (``i`` from ``total - 1`` down, each ``divmod(x, i + 1)``), then the steps done
    two at a time: ``(i, k * i, table)`` with ``k = i + 1`` and ``table[r] = (r % k, r // k)``,
    which is what ``divmod(x, k)`` then ``divmod(x // k, k - 1)`` take from ``x``, in one
    ``divmod(x, k * i)`` (the same draws, so the same order, for half the big-int divisions);
    then one last single step ``i`` (-1: none)."""
    stop = head - 1 if head > 0 else 0
    steps = list(range(total - 1, stop, -1))
    big = [i for i in steps if (i + 1) * i > _PAIR_MAX]
    small = steps[len(big) :]
    pairs = []
    while len(small) >= 2:
        i = small[0]
        k = i + 1
        pairs.append((i, k * i, tuple((r % k, r // k) for r in range(k * i))))
        del small[:2]
    nbytes = (math.factorial(total).bit_length() + 135) // 8
    single = range(total - 1, total - 1 - len(big), -1)
    return nbytes, single, tuple(pairs), small[0] if small else -1


def _csprng_shuffle_in_place(items: list[int], head: int) -> int:
    """``csprng_shuffle`` of any list, in place (the deal shuffles the tiles' bits): the lot."""
    total = len(items)
    plan = _FY_PLANS.get((total, head))
    if plan is None:
        plan = _FY_PLANS[total, head] = _fy_plan(total, head)
    nbytes, single, pairs, last = plan
    x = int.from_bytes(os.urandom(nbytes), "little")
    for i in single:
        x, j = divmod(x, i + 1)
        items[i], items[j] = items[j], items[i]
    for i, kk, table in pairs:
        x, r = divmod(x, kk)
        j, j2 = table[r]
        items[i], items[j] = items[j], items[i]
        i -= 1
        items[i], items[j2] = items[j2], items[i]
    if last >= 0:
        x, j = divmod(x, last + 1)
        items[last], items[j] = items[j], items[last]
    return x


def _wanted_doubles(opening: str, top: int) -> tuple[int, ...]:
    """The doubles that make a seat opener, best first."""
    if opening == "required_double":
        return (DOUBLE[top],)
    first = (DOUBLE[6],) if opening == "double_six" and top >= 6 else ()
    return first + tuple(DOUBLE[x] for x in range(top, -1, -1))


_WANTED = {
    (o, top): _wanted_doubles(o, top)
    for o in ("highest_double", "double_six", "required_double", "lot")
    for top in range(MAX_TOP + 1)
}

Entry = tuple[int, int, int, int, int]  # code, seat (-1), tile (-1), arm (-1: none), at


def validate_move(rules: Ruleset, move: Any) -> None:
    """Raise ``InvalidInput`` (400) for a move that no game of ``rules`` could ever accept: not a
    move, a tile outside the set, an end name the layout never has. ``Match.apply`` runs it first,
    before any 422 check; callers may run it before their own 403/412 checks."""
    cls = move.__class__
    if cls is Draw or cls is Pass:
        return
    if cls is Play:
        if not isinstance(move.tile, Tile):
            raise InvalidInput("a play needs a tile")
        if move.tile.b > rules.set:
            raise InvalidInput(f"that tile is not in the double-{rules.set} set")
        if move.end is not None and move.end not in ARM_INDEX[rules.layout]:
            names = ", ".join(ARM_NAMES[rules.layout])
            raise InvalidInput(f"unknown end for a {rules.layout} layout; ends are: {names}")
    else:
        raise InvalidInput("a move is a play, a draw or a pass")


def redact_move(record: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """A move record as ``viewer`` may see it: a drawn tile only for its drawer."""
    if (
        "tile" in record
        and record["seat"] != viewer
        and (record["action"] == "draw" or record.get("move") == "draw")
    ):
        record = dict(record)
        del record["tile"]
    return record


class ApplyResult:
    """What one accepted change did: ``drawn`` (the tile drawn, for the drawer only),
    ``hand_over`` / ``match_over``, and ``hand_number`` of the hand the move belonged to."""

    __slots__ = ("drawn", "hand_number", "hand_over", "match_over")

    def __init__(
        self, drawn: Tile | None, hand_over: bool, match_over: bool, hand_number: int
    ) -> None:
        self.drawn = drawn
        self.hand_over = hand_over
        self.match_over = match_over
        self.hand_number = hand_number

    def __repr__(self) -> str:
        return (
            f"ApplyResult(hand_over={self.hand_over}, match_over={self.match_over}, "
            f"hand_number={self.hand_number})"
        )


class Match:
    """A whole match: ``Match.start``, then ``apply``, ``forfeit``, ``timeout``."""

    __slots__ = (
        "_cache",
        "_dealing",
        "_info",
        "_keep",
        "_line",
        "_nxt",
        "_orders",
        "_plain",
        "_plays",
        "_step",
        "arm_len",
        "boneyard",
        "chips",
        "ends",
        "first_held_n",
        "forced",
        "forfeits",
        "hand_number",
        "hands",
        "is_draw",
        "last",
        "log",
        "match_winners_",
        "open_arms",
        "opener",
        "passes",
        "players",
        "pot",
        "prev_log",
        "reshuffles",
        "rules",
        "scores",
        "seed",
        "start_at",
        "status",
        "turn",
    )

    rules: Ruleset
    players: int
    seed: int | None
    status: str
    hand_number: int
    reshuffles: int
    opener: int
    turn: int | None
    forced: int
    passes: int
    hands: list[int]
    boneyard: list[int]  # top of the boneyard = last element
    ends: list[int]
    arm_len: list[int]
    open_arms: tuple[int, ...]
    scores: list[int]
    chips: list[int] | None
    pot: int
    forfeits: list[int]
    #: the last finished hand: number, reason (0 domino, 1 closed), winners, points per seat,
    #: hands (masks) at its end, deciding seat (-1: none)
    last: tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int] | None
    match_winners_: tuple[int, ...]
    is_draw: bool
    log: list[Entry]
    prev_log: list[Entry]
    first_held_n: int
    start_at: int
    _plays: list[list[Play]]
    _info: dict[int, tuple[int, int, int, int] | None]
    _cache: tuple[dict[int, tuple[Play, ...]], ...]
    _plain: ApplyResult
    _line: bool
    _keep: int
    _orders: tuple[tuple[int, ...], ...]
    _nxt: tuple[int, ...]
    _step: int
    _dealing: tuple[int, tuple[slice, ...], int, tuple[int, ...]]

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(
        cls, rules: Ruleset, *, seed: int | None = None, deal: dict | None = None, at: int = 0
    ) -> Match:
        """Deal hand 1 and find its opener. ``seed`` makes every shuffle of the match repeatable;
        ``deal`` (``{"hands": [[...] per seat], "boneyard": [... top first]}``) fixes the first
        deal (the boneyard may be left out: the remaining tiles then lie in id order)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidInput("seed must be an integer")
        m = cls._blank(rules)
        m.seed = seed
        m.start_at = at
        fixed = _check_deal(rules, deal) if deal is not None else None
        m._deal(fixed)
        return m

    @classmethod
    def _blank(cls, rules: Ruleset) -> Match:
        m = _new(cls)
        n = rules.players
        m.rules = rules
        m.players = n
        m.seed = None
        m.status = "playing"
        m.hand_number = 1
        m.reshuffles = 0
        m.opener = 0
        m.turn = 0
        m.forced = -1
        m.passes = 0
        m.hands = [0] * n
        m.boneyard = []
        m.scores = [0] * n
        m.chips = [0] * n if rules.stake is not None else None
        m.pot = 0
        m.forfeits = []
        m.last = None
        m.match_winners_ = ()
        m.is_draw = False
        m.log = []
        m.prev_log = []
        m.first_held_n = 1
        m.start_at = 0
        m._plain = _PLAIN_1
        global _LAST_KIT
        last = _LAST_KIT  # the ruleset object of the last call and its kit, one tuple (threads)
        if last[0] is rules:
            kit = last[1]
        else:
            key = (
                rules.layout,
                n,
                rules.direction,
                rules.draw,
                rules.reserve,
                rules.set,
                rules.hand_size,
                rules.opening,
            )
            found = _KITS.get(key)
            if found is None:
                found = _KITS[key] = _kit(rules)
            kit = found
            _LAST_KIT = (rules, kit)
        (
            m._plays,
            m._info,
            m._cache,
            m._step,
            m._nxt,
            m._line,
            m._keep,
            arms,
            m._orders,
            m._dealing,
        ) = kit
        m.ends = [-1] * arms
        m.arm_len = [0] * arms
        m.open_arms = ()
        return m

    def _reset_board(self) -> None:
        arms = len(ARM_NAMES[self.rules.layout])
        self.ends = [-1] * arms
        self.arm_len = [0] * arms
        self.open_arms = ()

    def _shuffle(self, hand: int, k: int, total: int) -> tuple[list[int], int]:
        """Deal ``k`` of hand ``hand``: the tile ids ``0 .. total - 1`` in shuffled order, and a
        random number for a lot. Unseeded: ``csprng_shuffle``. Seeded: tiles sorted by one 32-bit
        key each from SHAKE-256 of (seed, hand, k), one more key for the lot, so no RNG state is
        ever stored and every later shuffle is repeatable too (a seed deals what it always did)."""
        if self.seed is None:
            return csprng_shuffle(total, self.rules.hand_size)
        data = hashlib.shake_256(f"domino:{self.seed}:{hand}:{k}".encode()).digest(4 * total + 4)
        keys = memoryview(data).cast("I").tolist()
        return sorted(range(total), key=keys.__getitem__), keys[total]

    def _deal(self, fixed: tuple[list[int], list[int]] | None = None) -> None:
        """Deal the current hand (re-dealing while the opening rule asks for it), set the opener."""
        r = self.rules
        n = self.players
        total, slices, dealt_n, wanted = self._dealing
        self.reshuffles = 0
        while True:
            if self.seed is None:  # the same shuffle as ``csprng_shuffle``, of the tiles' bits
                items = _BIT_LIST[:total]
                x = _csprng_shuffle_in_place(items, r.hand_size)
                if fixed is not None and self.reshuffles == 0:
                    hands, rest = fixed
                else:
                    hands = list(map(sum, map(items.__getitem__, slices)))
                    rest = [b.bit_length() - 1 for b in items[dealt_n:]] if dealt_n < total else []
            else:
                tiles, x = self._shuffle(self.hand_number, self.reshuffles, total)
                if fixed is not None and self.reshuffles == 0:
                    hands, rest = fixed
                else:
                    dealt = itemgetter(*tiles)(_BIT_LIST)  # 1 << id per tile (28+ tiles)
                    hands = list(map(sum, map(dealt.__getitem__, slices)))
                    rest = tiles[dealt_n:]
            found = self._find_opener(hands, x, wanted, dealt_n == total)
            if found is not None:
                break
            self.reshuffles += 1
            if self.reshuffles > MAX_RESHUFFLES:
                raise InvalidInput("no deal satisfies the opening rule; change the rules")
        if self.hand_number != self._plain.hand_number:
            self._plain = ApplyResult(None, False, False, self.hand_number)
        self.hands = hands
        self.boneyard = rest[::-1]
        self.opener, self.forced = found
        self.turn = self.opener
        self.passes = 0
        if self.open_arms:
            self._reset_board()
        if r.stake is not None and self.chips is not None:
            for s in range(n):
                self.chips[s] -= r.stake
            self.pot += r.stake * n

    def _find_opener(
        self, hands: list[int], x: int, wanted: tuple[int, ...], all_dealt: bool
    ) -> tuple[int, int] | None:
        r = self.rules
        if self.hand_number > 1 and r.next_round == "previous_winner" and self.last is not None:
            win_seat = self.last[5]
            if self.last[2] and win_seat >= 0:
                return win_seat, -1
        if r.opening == "lot":
            return x % self.players, -1
        if all_dealt:  # every tile is in a hand: the best wanted double is held
            tid = wanted[0]
            bit = 1 << tid
            for s, m in enumerate(hands):
                if m & bit:
                    return s, tid
        held = 0
        for m in hands:
            held |= m
        for tid in wanted:
            if held >> tid & 1:
                return _holder(hands, tid), tid
        if r.no_double == "reshuffle":
            return None
        best = max(bits(held), key=HEAVY_KEY.__getitem__)
        return _holder(hands, best), best

    # ------------------------------------------------------------------ queries

    def _next(self, seat: int) -> int:
        return (seat + self._step) % self.players

    def play_order(self) -> list[int]:
        """Seats in play order from the current hand's opener."""
        return list(self._orders[self.opener])

    def _can_play(self, seat: int) -> bool:
        open_arms = self.open_arms  # empty only while the board is
        if not open_arms:
            return True
        hand = self.hands[seat]
        ends = self.ends
        if self._line:
            return bool(hand & (SUIT[ends[0]] | SUIT[ends[1]]))
        for a in open_arms:  # noqa: SIM110 (a plain loop is faster than any())
            if hand & SUIT[ends[a]]:
                return True
        return False

    def drawable(self) -> int:
        """Tiles that may still be drawn: boneyard - reserve, never below 0; 0 under ``none``."""
        left = len(self.boneyard) - self._keep
        return left if left > 0 else 0

    def legal_moves(self) -> list[Play]:
        """Every legal play of the seat on turn: a tile once per end it fits."""
        turn = self.turn
        if turn is None:
            return []
        hand = self.hands[turn]
        open_arms = self.open_arms  # empty only while the board is
        if not open_arms:
            plays = self._plays
            if self.forced >= 0:
                return [plays[self.forced][0]]
            return [plays[t][0] for t in bits(hand)]
        ends = self.ends
        if self._line:
            m = hand & SUIT[ends[0]]
            m1 = hand & SUIT[ends[1]]
            try:  # a subscript is quicker than .get(); a miss (KeyError) fills the cache
                if m:
                    if m1:
                        left, right = self._cache
                        return [*left[m], *right[m1]]
                    return [*self._cache[0][m]]
                if m1:
                    return [*self._cache[1][m1]]
                return []
            except KeyError:
                return [*(self._fill(m, 0) if m else ()), *(self._fill(m1, 1) if m1 else ())]
        cache = self._cache
        out: list[Play] = []
        for arm in open_arms:
            m = hand & SUIT[ends[arm]]
            if m:
                out += cache[arm].get(m) or self._fill(m, arm)
        return out

    def _fill(self, m: int, arm: int) -> tuple[Play, ...]:
        """The shared Play objects for the tiles of ``m`` on ``arm`` (cached while there is
        room)."""
        cache = self._cache[arm]
        got = cache.get(m)
        if got is None:
            got = tuple(self._plays[t][arm + 1] for t in bits(m))
            if len(cache) * len(self._cache) < _LEGAL_CACHE_MAX:
                cache[m] = got
        return got

    def can_draw(self) -> bool:
        """Whether the seat on turn may draw now."""
        turn = self.turn  # None once the match is over
        if turn is None or len(self.boneyard) <= self._keep:
            return False
        return not self._can_play(turn)

    def can_pass(self) -> bool:
        """Whether the seat on turn may pass now."""
        if self.turn is None or self.status != "playing":
            return False
        return not self._can_play(self.turn) and self.drawable() == 0

    # ------------------------------------------------------------------ changes

    def apply(self, seat: int, move: Move, at: int) -> ApplyResult:
        """Apply ``seat``'s move at time ``at`` (epoch seconds, from the caller).

        Checks, first failure raised: ``InvalidInput`` (``validate_move``, seat out of range), then
        game_not_in_progress, not_your_turn, and for a play tile_not_in_hand,
        must_lead_opening_tile, tile_does_not_match / end_required; for a draw must_play,
        cannot_draw; for a pass cannot_pass.
        """
        # fast path: a shared Play object (as ``legal_moves`` hands out) on an open end or as the
        # first tile, by the seat on turn (``turn`` is None once the match is over), and a pass
        # that is allowed; anything else (and every refusal) goes through the full checks
        if seat == self.turn:
            try:  # a subscript is quicker than .get(): DRAW and PASS are keys (None) too
                info = self._info[id(move)]
            except KeyError:  # any other object: the full checks
                return self._apply(seat, move, at, 0)
            if info is not None:
                tid, arm, b, pips = info
                hands = self.hands
                hand = hands[seat]
                open_arms = self.open_arms
                if arm in open_arms:  # never -1
                    ends = self.ends
                    e = ends[arm]
                    if not hand & SUIT[e] & b:  # not in hand or not matching: the full checks
                        return self._apply(seat, move, at, 0)
                    self.log.append((PLAY, seat, tid, arm, at))
                    if self._line:
                        ends[arm] = pips - e
                    else:
                        self._grow(arm, pips - e)
                elif (
                    not open_arms  # the first tile
                    and hand & b
                    and arm < 0
                    and (self.forced < 0 or self.forced == tid)
                ):
                    self.log.append((PLAY, seat, tid, -1, at))
                    self._place(tid, seat, -1)
                else:
                    return self._apply(seat, move, at, 0)
                self.passes = 0
                hand ^= b
                hands[seat] = hand
                if hand:
                    self.turn = self._nxt[seat]
                    return self._plain
                number = self.hand_number
                over = self._end_hand("domino", seat, at)
                return ApplyResult(None, True, over, number)
            elif (
                move.__class__ is Pass
                and len(self.boneyard) <= self._keep
                and not (
                    self.hands[seat] & (SUIT[self.ends[0]] | SUIT[self.ends[1]])
                    if self._line and self.open_arms
                    else self._can_play(seat)
                )
            ):
                self.log.append((PASS_, seat, -1, -1, at))
                self.passes += 1
                if self.passes >= self.players:
                    number = self.hand_number
                    over = self._end_hand("closed", None, at)
                    return ApplyResult(None, True, over, number)
                self.turn = self._nxt[seat]
                return self._plain
        return self._apply(seat, move, at, 0)

    def _check_turn(self, seat: int) -> None:
        """InvalidInput for a seat that does not exist; game_not_in_progress; not_your_turn."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidInput("no such seat")
        if self.status != "playing":
            raise GameNotInProgress("The game is not in progress.")
        if seat != self.turn:
            raise NotYourTurn(f"It is seat {self.turn}'s turn.")

    def _apply(self, seat: int, move: Move, at: int, code_shift: int) -> ApplyResult:
        validate_move(self.rules, move)
        self._check_turn(seat)
        hand_number = self.hand_number
        if isinstance(move, Play):
            tid = move.tile.id
            hand = self.hands[seat]
            if not hand >> tid & 1:
                raise TileNotInHand("That tile is not in your hand.")
            if not self.open_arms:  # the first tile
                if self.forced >= 0 and tid != self.forced:
                    raise MustLeadOpeningTile("You must lead the tile that made you the opener.")
                arm = -1
            else:
                arm = self._arm_for(tid, move.end)
            self.log.append((PLAY + code_shift, seat, tid, arm, at))
            self._place(tid, seat, arm)
            hand ^= 1 << tid
            self.hands[seat] = hand
            self.passes = 0
            if not hand:
                over = self._end_hand("domino", seat, at)
                return ApplyResult(None, True, over, hand_number)
            self.turn = (seat + self._step) % self.players
            return self._plain
        if isinstance(move, Draw):
            if self._can_play(seat):
                raise MustPlay("You hold a playable tile: you must play.")
            if self.drawable() <= 0:
                raise CannotDraw("There is nothing you may draw.")
            tid = self.boneyard.pop()
            self.hands[seat] |= 1 << tid
            self.passes = 0
            self.log.append((DRAW_ + code_shift, seat, tid, -1, at))
            if self.rules.draw == "one_then_pass":
                self.turn = (seat + self._step) % self.players
            return ApplyResult(TILES[tid], False, False, hand_number)
        # pass
        if self._can_play(seat) or self.drawable() > 0:
            raise CannotPass("You can play or draw: you may not pass.")
        self.log.append((PASS_ + code_shift, seat, -1, -1, at))
        self.passes += 1
        if self.passes >= self.players:
            over = self._end_hand("closed", None, at)
            return ApplyResult(None, True, over, hand_number)
        self.turn = (seat + self._step) % self.players
        return self._plain

    def _arm_for(self, tid: int, end: str | None) -> int:
        a, b = LOW[tid], HIGH[tid]
        ends = self.ends
        if end is not None:
            arm = ARM_INDEX[self.rules.layout][end]
            if arm not in self.open_arms or ends[arm] not in (a, b):
                raise TileDoesNotMatch("That tile does not fit that end.")
            return arm
        fits = [arm for arm in self.open_arms if ends[arm] == a or ends[arm] == b]
        if not fits:
            raise TileDoesNotMatch("That tile fits no open end.")
        if len(fits) > 1:
            raise EndRequired("That tile fits more than one end: name the end.")
        return fits[0]

    def _place(self, tid: int, seat: int, arm: int) -> None:
        """Lay a tile (already checked) and update the ends and the open arms (the log, and so
        ``board``, is the caller's)."""
        layout = self.rules.layout
        ends = self.ends
        if arm < 0:
            if layout == "line":
                ends[0], ends[1] = LOW[tid], HIGH[tid]
                self.open_arms = (0, 1)
            else:
                for i in range(len(ends)):
                    ends[i] = LOW[tid]
                self.open_arms = (0, 1, 2, 3)
            return
        p = ends[arm]
        if layout == "line":
            ends[arm] = PIPS[tid] - p
        else:
            self._grow(arm, PIPS[tid] - p)

    def _grow(self, arm: int, pips: int) -> None:
        """A cross or star arm took a tile and now shows ``pips``: update the open arms."""
        self.ends[arm] = pips
        layout = self.rules.layout
        arm_len = self.arm_len
        arm_len[arm] += 1
        sides_done = arm_len[0] and arm_len[1] and arm_len[2] and arm_len[3]
        if layout == "cross":
            self.open_arms = (
                (0, 1, 2, 3) if sides_done else tuple(i for i in range(4) if not arm_len[i])
            )
        else:
            self.open_arms = (0, 1, 2, 3, 4, 5, 6, 7) if sides_done else (0, 1, 2, 3)

    def _end_hand(self, reason: str, out_seat: int | None, at: int) -> bool:
        r = self.rules
        n = self.players
        hands = self.hands
        if r.set == 6:  # 28 tiles: four bytes
            p0, p1, p2, p3 = _PIP_BYTES_4
            pips = [p0[h & 255] + p1[h >> 8 & 255] + p2[h >> 16 & 255] + p3[h >> 24] for h in hands]
        else:
            size = (set_size(r.set) + 7) // 8
            pips = [sum(map(getitem, PIP_BYTES, h.to_bytes(size, "little"))) for h in hands]
        outcome = score_hand(r, pips, reason, out_seat, self._orders[self.opener])
        points = outcome.points
        scores = self.scores
        if r.teams == "pairs" and r.out_scoring == "penalty":
            for s in range(n):
                scores[s] += points[s % 2] + points[s % 2 + 2]
        else:
            scores[:] = map(add, scores, points)
        if r.stake is not None and self.chips is not None and outcome.pot_takers:
            share = self.pot // len(outcome.pot_takers)
            for s in outcome.pot_takers:
                self.chips[s] += share
            self.pot -= share * len(outcome.pot_takers)
        self.last = (
            self.hand_number,
            0 if reason == "domino" else 1,
            tuple(outcome.winners),
            tuple(points),
            tuple(hands),
            -1 if outcome.win_seat is None else outcome.win_seat,
        )
        self.log.append((HAND_OVER, -1, -1, -1, at))
        if r.match == "single" or match_over(r, scores, self.hand_number):
            winners = outcome.winners
            if winners and r.match == "single" and r.out_scoring != "penalty" and not self.forfeits:
                self.match_winners_ = tuple(sorted(winners))  # match_winners' first case
                self.is_draw = False
            else:
                won, draw = match_winners(r, scores, winners, self.forfeits)
                self.match_winners_ = tuple(won)
                self.is_draw = draw
            self.status = "finished"
            self.turn = None
            return True
        self.first_held_n += len(self.prev_log)
        self.prev_log = self.log
        self.log = []
        self.hand_number += 1
        self._deal()
        return False

    def forfeit(self, seat: int, at: int) -> None:
        """``seat``'s player left during play: a bot plays the seat from now on (the caller drives
        it), the seat is listed in ``result.forfeits`` and never wins (nor does its pair)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidInput("no such seat")
        if self.status != "playing":
            raise GameNotInProgress("The game is not in progress.")
        if seat in self.forfeits:
            return
        self.forfeits.append(seat)
        self.log.append((LEAVE, seat, -1, -1, at))

    def auto_move(self) -> Move:
        """The move a timeout makes: the first legal play, else draw, else pass."""
        legal = self.legal_moves()
        if legal:
            return legal[0]
        return DRAW if self.can_draw() else PASS

    def timeout(self, seat: int, mode: str, at: int, move: Move | None = None) -> ApplyResult:
        """The seat on turn ran out of time. ``auto``: ``move`` (default ``auto_move()``) is made
        for them and logged as action ``timeout``; ``forfeit``: the seat forfeits, then the move is
        made (pass a bot's choice as ``move``)."""
        if mode not in ("auto", "forfeit"):
            raise InvalidInput("on_timeout is 'auto' or 'forfeit'")
        self._check_turn(seat)
        if move is None:
            move = self.auto_move()
        validate_move(self.rules, move)
        shift = T_PLAY
        if mode == "forfeit":
            shift = TF_PLAY
            if seat not in self.forfeits:
                self.forfeits.append(seat)
        return self._apply(seat, move, at, shift)

    # ------------------------------------------------------------------ views

    @property
    def team_of(self) -> list[int | None]:
        return [s % 2 if self.rules.teams == "pairs" else None for s in range(self.players)]

    def last_hand(self) -> dict[str, Any] | None:
        """The last finished hand (every hand revealed), or None before the first one ends."""
        if self.last is None:
            return None
        number, reason, winners, points, hands, _ = self.last
        n = self.players
        over = self.status == "finished"
        out: dict[str, Any] = {
            "hand_number": number,
            "reason": "domino" if reason == 0 else "closed",
            "winners": list(winners),
            "points": {str(s): points[s] for s in range(n)},
            "hands": {str(s): show_mask(hands[s]) for s in range(n)},
            "match_over": over,
            "match_winners": list(self.match_winners_) if over else [],
        }
        if over:
            if self.is_draw:
                out["draw"] = True
            if self.forfeits:
                out["forfeits"] = sorted(self.forfeits)
        return out

    def result(self) -> dict[str, Any] | None:
        """The match result (the final ``last_hand``), or None while the match goes on."""
        return self.last_hand() if self.status == "finished" else None

    @property
    def board(self) -> list[tuple[int, int, int]]:
        """The tiles laid this hand in play order, as (tile id, seat, arm) (-1: the first tile):
        the plays of the current hand's log."""
        return [(tid, seat, arm) for code, seat, tid, arm, _ in self.log if _KIND.get(code) == 0]

    def board_view(self) -> dict[str, Any]:
        names = ARM_NAMES[self.rules.layout]
        tiles = [
            {"tile": TEXT[t], "seat": s, "end": None if a < 0 else names[a]}
            for t, s, a in self.board
        ]
        if not self.open_arms:
            ends: list[dict[str, Any]] = []
        elif self.rules.layout == "star":
            shown = range(8) if len(self.open_arms) == 8 else range(4)
            ends = [{"end": names[i], "pips": self.ends[i]} for i in shown]
        else:
            ends = [{"end": names[i], "pips": self.ends[i]} for i in range(len(names))]
        return {"tiles": tiles, "ends": ends}

    def legal_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.legal_moves()]

    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's part of the game view for ``seat`` (None: the public view, no ``you``)."""
        r = self.rules
        playing = self.status == "playing"
        last = self.last_hand()
        teams = self.team_of
        stake = r.stake is not None
        chips = self.chips
        out: dict[str, Any] = {
            "hand_number": self.hand_number,
            "opener": self.opener,
            "turn": self.turn if playing else None,
            "reshuffles": self.reshuffles,
            "pot": self.pot if stake else None,
            "board": self.board_view(),
            "boneyard": len(self.boneyard),
            "drawable": self.drawable(),
            "last_hand": last,
            "result": last if not playing else None,
            "seat_stats": [
                {
                    "seat": s,
                    "team": teams[s],
                    "tiles": self.hands[s].bit_count(),
                    "score": self.scores[s],
                    "chips": chips[s] if stake and chips else None,
                }
                for s in range(self.players)
            ],
        }
        if seat is not None:
            if not isinstance(seat, int) or not 0 <= seat < self.players:
                raise InvalidInput("no such seat")
            mine = playing and self.turn == seat
            out["you"] = {
                "seat": seat,
                "hand": show_mask(self.hands[seat]),
                "legal": self.legal_json() if mine else [],
                "can_draw": self.can_draw() if mine else False,
                "can_pass": self.can_pass() if mine else False,
                "drawn": None,
            }
        return out

    def hand_of(self, seat: int) -> list[Tile]:
        """``seat``'s tiles (for that seat, its bot, or tests)."""
        return [TILES[t] for t in bits(self.hands[seat])]

    # ------------------------------------------------------------------ move log

    def _record(self, e: Entry, n: int, hand_number: int) -> dict[str, Any]:
        code, seat, tid, arm, at = e
        rec: dict[str, Any] = {
            "n": n,
            "hand_number": hand_number,
            "seat": seat if seat >= 0 else None,
        }
        if code in _ACTION:
            rec["action"] = _ACTION[code]
        else:
            rec["action"] = "timeout"
            rec["move"] = _MOVE_NAME[_KIND[code]]
            if code >= TF_PLAY:
                rec["forfeit"] = True
        if tid >= 0:
            rec["tile"] = TEXT[tid]
        if _KIND.get(code) == 0:
            rec["end"] = None if arm < 0 else ARM_NAMES[self.rules.layout][arm]
        rec["at"] = at
        return rec

    def _held(self) -> list[dict[str, Any]]:
        n = self.first_held_n
        out = []
        cur = self.hand_number
        for e in self.prev_log:
            out.append(self._record(e, n, cur - 1))
            n += 1
        for e in self.log:
            out.append(self._record(e, n, cur))
            n += 1
        return out

    def moves(self, viewer: int | None, after: int = 0) -> list[dict[str, Any]]:
        """Held moves numbered above ``after`` as ``viewer`` may see them (API move objects)."""
        return [redact_move(rec, viewer) for rec in self._held() if rec["n"] > after]

    @property
    def next_n(self) -> int:
        """The ``n`` the next logged move will get."""
        return self.first_held_n + len(self.prev_log) + len(self.log)

    @property
    def previous_hand_moves(self) -> list[dict[str, Any]]:
        """Full records (drawn tiles included) of the previous hand, for the caller's archive."""
        held = self._held()
        return held[: len(self.prev_log)]

    # ------------------------------------------------------------------ misc

    def copy(self) -> Match:
        m = Match.__new__(Match)
        for name in Match.__slots__:
            setattr(m, name, getattr(self, name))
        m.hands = list(self.hands)
        m.boneyard = list(self.boneyard)
        m.ends = list(self.ends)
        m.arm_len = list(self.arm_len)
        m.scores = list(self.scores)
        m.chips = list(self.chips) if self.chips is not None else None
        m.forfeits = list(self.forfeits)
        m.log = list(self.log)
        m.prev_log = list(self.prev_log)
        return m

    def __repr__(self) -> str:
        return (
            f"<Match {self.status} hand {self.hand_number} turn {self.turn} players {self.players}>"
        )


def _mask(ids: list[int]) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def _holder(hands: list[int], tid: int) -> int:
    for s, m in enumerate(hands):
        if m >> tid & 1:
            return s
    raise AssertionError("tile not held")


def _check_deal(rules: Ruleset, deal: Any) -> tuple[list[int], list[int]]:
    """Validate a fixed first deal: one list per seat of the hand size, real distinct tiles that
    with the boneyard make up the whole set (boneyard left out: the rest, in id order)."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise InvalidInput("deal must be {'hands': [[tiles] per seat], 'boneyard': [tiles]}")
    n, h, top = rules.players, rules.hand_size, rules.set
    hands_in = deal["hands"]
    if len(hands_in) != n:
        raise InvalidInput(f"deal.hands must hold {n} hands")
    seen: set[int] = set()
    hands: list[int] = []
    for i, hand in enumerate(hands_in):
        if not isinstance(hand, list) or len(hand) != h:
            raise InvalidInput(f"deal.hands[{i}] must hold {h} tiles")
        ids = [parse_tile(t, top).id for t in hand]
        for t in ids:
            if t in seen:
                raise InvalidInput("the deal holds a tile twice")
            seen.add(t)
        hands.append(_mask(ids))
    total = set_size(top)
    bone_in = deal.get("boneyard")
    if bone_in is None:
        rest = [t for t in range(total) if t not in seen]
    else:
        if not isinstance(bone_in, list):
            raise InvalidInput("deal.boneyard must be a list of tiles")
        rest = [parse_tile(t, top).id for t in bone_in]
        for t in rest:
            if t in seen:
                raise InvalidInput("the deal holds a tile twice")
            seen.add(t)
        if len(seen) != total:
            raise InvalidInput(f"the deal must hold every tile of the double-{top} set once")
    return hands, rest


__all__ = ["ARM_NAMES", "ApplyResult", "Match", "redact_move", "show", "validate_move"]


_new = object.__new__
_PIP_BYTES_4 = PIP_BYTES[:4]
_PLAIN_1 = ApplyResult(None, False, False, 1)
