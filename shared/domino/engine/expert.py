"""The ``expert`` bot: it reads the hands from the table, then plays each choice out many times.

Perfect-information Monte Carlo ("determinized" sampling):

1. **What the seat knows** (``observe``): its own hand, the board, how many tiles every other
   seat holds, the boneyard's size, and the public log of this hand. A seat that passed, or drew,
   while the open ends showed some numbers held none of them then. Tiles it drew later may hold
   them again, so each such fact becomes a cap: at most ``draws since - plays of those numbers
   since`` of its tiles carry the numbers; a cap of 0 is a plain void.
2. **A world** (``Knowledge.sample``): the unseen tiles dealt at random into the other hands and
   the boneyard, every hand its size and within its voids and caps.
3. **Each candidate play in each world** is played to the hand's end by a fast rollout policy (the
   strategist's main rules on bitmasks: keep a number you hold at the open end, shed heavy tiles,
   play doubles early) for every seat, and scored with the preset's own scoring.
4. The play with the best average, over the same worlds for every candidate, is chosen. The value
   is the seat's side's points minus the others' (penalty scoring: the other way round), plus a
   bonus for winning the hand.

It sees nothing its seat may not: ``observe`` reads the seat's own hand, counts, the board and the
log's public fields (a drawn tile's identity is never read), and every world is dealt from that
alone. Given the same seed and sample count it makes the same choice; in production it runs on a
time budget (anytime: it stops on the budget with the best so far, after at least one world).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import add

from . import fives
from .deal import WANTED
from .kit import PLAY_INFO, FastTable
from .match import Match
from .movelog import KIND
from .moves import DRAW, PASS, Move, Play
from .outcome import HandEnd
from .scoring import HandOutcome, score_hand
from .tiles import HEAVY_KEY, HIGH, LOW, PIPS, SUIT, bits, pips_by_seat, set_size

#: the default time budget per move, in milliseconds of wall clock (Lambda at 512 MB gets 512/1769
#: of a vCPU: about 14.5 ms of a whole core; docs/engine.md "How the expert thinks")
DEFAULT_BUDGET_MS = 50.0
#: points a won hand is worth on top of its points (a hand won by 1 point beats one lost by 1)
WIN_BONUS = 10.0
#: tries to deal a world within every void and cap before the caps are dropped
_TRIES = 30

_PLAY_KIND, _DRAW_KIND = 0, 1  # movelog.KIND's values for a play and a draw


@dataclass(slots=True)
class Knowledge:
    """What one seat knows of the hand in play, and how to deal worlds consistent with it."""

    seat: int
    players: int
    mine: int  # the seat's own tiles (bitmask)
    unseen: list[int]  # tile ids in other hands or the boneyard, ascending
    counts: list[int]  # tiles in each hand (the seat's own included)
    boneyard: int  # tiles in the boneyard
    void: list[int] = field(default_factory=list)  # per seat: tiles it cannot hold (bitmask)
    caps: list[list[tuple[int, int]]] = field(default_factory=list)  # per seat: (tiles, at most)
    order: list[int] = field(init=False)  # the other hands in the order ``sample`` deals them

    def __post_init__(self) -> None:
        unseen = _mask(self.unseen)
        # the tightest hands first (fewest spare tiles they may hold), the loosest take the rest
        self.order = sorted(
            (s for s in range(self.players) if s != self.seat and self.counts[s]),
            key=lambda s: (unseen & ~self.void[s]).bit_count() - self.counts[s],
        )

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """A world: every hand (bitmasks; the seat's own as it is) and the boneyard (top last)."""
        others = self.order
        pool = list(self.unseen)
        for relax in (0, 1, 2):  # 0: voids and caps, 1: voids only, 2: nothing (never expected)
            for _ in range(_TRIES if relax < 2 else 1):
                rng.shuffle(pool)
                dealt = self._deal(pool, others, relax)
                if dealt is not None:
                    return dealt
        raise AssertionError("unreachable: a world with no constraints always deals")

    def _deal(
        self, pool: list[int], order: list[int], relax: int
    ) -> tuple[list[int], list[int]] | None:
        hands = [0] * self.players
        hands[self.seat] = self.mine
        taken = 0
        for s in order:
            need = self.counts[s]
            void = self.void[s] if relax < 2 else 0
            caps = [[m, c] for m, c in self.caps[s]] if relax == 0 else []
            hand = 0
            for t in pool:
                b = 1 << t
                if taken & b or void & b:
                    continue
                if caps:
                    over = False
                    for cap in caps:
                        if cap[0] & b and cap[1] <= 0:
                            over = True
                            break
                    if over:
                        continue
                    for cap in caps:
                        if cap[0] & b:
                            cap[1] -= 1
                hand |= b
                need -= 1
                if not need:
                    break
            if need:
                return None
            hands[s] = hand
            taken |= hand
        boneyard = [t for t in pool if not taken >> t & 1]
        return hands, boneyard


def _mask(ids: Sequence[int]) -> int:
    m = 0
    for t in ids:
        m |= 1 << t
    return m


def observe(match: Match, seat: int) -> Knowledge:
    """What ``seat`` knows now: its hand, the counts, the board and the public log of this hand.

    The log is read field by field: the kind of move, who made it, and for plays the tile and the
    arm (public). A drawn tile's identity is never read. The opening tile tells what no hand was
    dealt (``unheld_at_deal``)."""
    n = match.players
    top = match.rules.set
    layout = match.layout  # the board replayed from the log, for the open numbers at each event
    ends, arm_len = layout.empty()
    open_arms: tuple[int, ...] = ()
    board = 0
    plays: list[tuple[int, int, int]] = []  # (index, seat, tile)
    draws: list[tuple[int, int]] = []  # (index, seat)
    events: list[tuple[int, int, int]] = []  # (index, seat, tiles with an open number then)
    for i, (code, who, tid, arm, _at) in enumerate(match.log):
        kind = KIND.get(code)
        if kind is None:
            continue
        if kind == _PLAY_KIND:
            open_arms = layout.lay(ends, arm_len, tid, arm)
            board |= 1 << tid
            plays.append((i, who, tid))
            continue
        if kind == _DRAW_KIND:
            draws.append((i, who))
        if who != seat and open_arms:
            numbers = 0
            for a in open_arms:
                numbers |= SUIT[ends[a]]
            events.append((i, who, numbers))
    unheld = unheld_at_deal(match)
    if unheld:  # as if every other seat had passed on those tiles before the first move
        events[:0] = [(-1, s, unheld) for s in range(n) if s != seat]
    mine = match.hands[seat]
    everything = (1 << set_size(top)) - 1
    unseen_mask = everything & ~mine & ~board
    return knowledge_from(match, seat, unseen_mask, events, draws, plays)


def knowledge_from(
    match: Match,
    seat: int,
    unseen_mask: int,
    events: Sequence[tuple[float, int, int]],
    draws: Sequence[tuple[float, int]],
    plays: Sequence[tuple[float, int, int]],
) -> Knowledge:
    """``seat``'s knowledge from the facts a hand's log gave: ``events`` (log index, seat, tiles
    it held none of then), ``draws`` (index, seat) and ``plays`` (index, seat, tile). Each fact
    caps the tiles of it the seat holds now at the draws since less the plays of them since; a
    cap of 0 is a void."""
    n = match.players
    void = [0] * n
    caps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    counts = [h.bit_count() for h in match.hands]  # public: every seat's tile count
    for i, who, numbers in events:
        drawn_since = sum(1 for j, s in draws if s == who and j >= i)
        played_since = sum(1 for j, s, t in plays if s == who and j > i and numbers >> t & 1)
        cap = drawn_since - played_since
        if cap <= 0:
            void[who] |= numbers
        elif cap < counts[who]:
            caps[who].append((numbers & unseen_mask, cap))
    for s in range(n):  # a cap within a void says nothing more
        caps[s] = [(m & ~void[s], c) for m, c in caps[s] if m & ~void[s]]
    return Knowledge(
        seat=seat,
        players=n,
        mine=match.hands[seat],
        unseen=bits(unseen_mask),
        counts=counts,
        boneyard=len(match.boneyard),
        void=void,
        caps=caps,
    )


def unheld_at_deal(match: Match) -> int:
    """Tiles the opening shows no hand was dealt (a bitmask). The opener had to lead ``forced``:
    the best double the rules want that any hand held, so every better one lay in the boneyard;
    or, with none of those doubles held, the heaviest tile dealt, so no hand held a heavier one.
    A previous winner's or a lot's lead (``forced`` -1) shows nothing."""
    forced = match.forced
    if forced < 0:
        return 0
    wanted = WANTED[match.rules.opening, match.rules.set]
    if forced in wanted:
        return _mask(wanted[: wanted.index(forced)])
    key = HEAVY_KEY[forced]
    heavier = [t for t in range(set_size(match.rules.set)) if HEAVY_KEY[t] > key]
    return _mask(wanted) | _mask(heavier)


class _Table:
    """The public part of a match's hand in play, where every world starts, and what a rollout
    needs of the rules. Read from the match's public surface; the match itself is never played."""

    __slots__ = (
        "arm_len",
        "count",
        "draw_ends_turn",
        "ends",
        "info",
        "keep",
        "layout",
        "nxt",
        "open_arms",
        "order",
        "passes",
        "players",
        "rules",
        "turn",
    )

    def __init__(self, match: Match) -> None:
        rules = match.rules
        self.rules = rules
        self.players = match.players
        self.layout = match.layout
        #: what the shared Play objects of ``legal_moves`` are (tile id, arm, bit, pips)
        self.info: FastTable = PLAY_INFO[rules.layout]
        self.nxt = match.next_seats
        self.keep = match.kept
        self.draw_ends_turn = rules.draw == "one_then_pass"
        self.order = match.play_order()  # the hand's play order, for its scoring
        self.ends = list(match.ends)
        self.arm_len = list(match.arm_len)
        self.open_arms = match.open_arms
        self.turn = match.turn
        self.passes = match.passes
        #: ``in_play`` rules: the hand's count (its points set aside: a rollout counts its own)
        self.count = match.count.copy() if match.count is not None else None
        if self.count is not None:
            self.count.points = [0] * match.players


def _table(match: Match) -> _Table:
    """The table every world of ``match``'s hand in play starts from."""
    return _Table(match)


def _line_outcome(
    table: _Table, hands: list[int], boneyard: list[int], seat: int, play: Play
) -> HandOutcome:
    """``seat`` lays ``play`` on ``table`` (a line) in the world (``hands``, ``boneyard``; not
    changed), then the hand is played out by the rollout policy (``_play_line``)."""
    tid, arm, bit, pips = table.info[play.fast_key]  # type: ignore[misc]
    hands = list(hands)
    hand = hands[seat] ^ bit
    hands[seat] = hand
    e0, e1 = table.ends[0], table.ends[1]
    if arm < 0:  # the first tile
        e0, e1 = LOW[tid], HIGH[tid]
    elif arm:
        e1 = pips - e1
    else:
        e0 = pips - e0
    if not hand:
        return _score(table, hands, HandEnd.DOMINO, seat)
    return _play_line(table, hands, list(boneyard), e0, e1, table.nxt[seat], 0)


def _layout_outcome(
    table: _Table, hands: list[int], boneyard: list[int], seat: int, play: Play
) -> HandOutcome:
    """``_line_outcome`` for any layout (its ``lay`` and ``grow``): ``_play_out`` plays it out."""
    tid, arm, bit, _pips = table.info[play.fast_key]  # type: ignore[misc]
    hands = list(hands)
    hand = hands[seat] ^ bit
    hands[seat] = hand
    ends = list(table.ends)
    arm_len = list(table.arm_len)
    open_arms = table.layout.lay(ends, arm_len, tid, arm)
    if not hand:
        return _score(table, hands, HandEnd.DOMINO, seat)
    return _play_out(table, hands, list(boneyard), ends, arm_len, open_arms, table.nxt[seat], 0)


def _fives_outcome(
    table: _Table, hands: list[int], boneyard: list[int], seat: int, play: Play
) -> HandOutcome:
    """``_layout_outcome`` for rules that score during play (``fives.play_out``): the value
    counts the points every seat makes from this play on, the award included."""
    assert table.count is not None
    tid, arm, bit, _pips = table.info[play.fast_key]  # type: ignore[misc]
    hands = list(hands)
    hand = hands[seat] ^ bit
    hands[seat] = hand
    ends = list(table.ends)
    arm_len = list(table.arm_len)
    layout = table.layout
    open_arms = layout.lay(ends, arm_len, tid, arm)
    count = table.count.copy()
    count.laid_tile(tid, arm)
    made = fives.scored(count.count(ends, arm_len, open_arms))
    if made:
        count.credit(seat, made)
    rules = table.rules
    if not hand:
        return fives.hand_outcome(rules, hands, HandEnd.DOMINO, seat, table.order, count)
    return fives.play_out(
        rules,
        layout,
        table.nxt,
        table.keep,
        table.order,
        hands,
        list(boneyard),
        ends,
        arm_len,
        open_arms,
        count,
        table.nxt[seat],
        0,
    )


def _play_from(table: _Table, hands: list[int], boneyard: list[int]) -> HandOutcome:
    """The hand played out in a world from the table as it is (the seat on turn first; the
    board holds a tile): for benchmarks and tests of the rollouts."""
    assert table.turn is not None and table.open_arms
    hands, boneyard = list(hands), list(boneyard)
    if table.layout.simple:
        e0, e1 = table.ends[0], table.ends[1]
        return _play_line(table, hands, boneyard, e0, e1, table.turn, table.passes)
    ends, arm_len = list(table.ends), list(table.arm_len)
    return _play_out(
        table, hands, boneyard, ends, arm_len, table.open_arms, table.turn, table.passes
    )


def _play_line(
    w: _Table, hands: list[int], boneyard: list[int], e0: int, e1: int, seat: int, passes: int
) -> HandOutcome:
    """The hand played out from ``seat`` on turn, the line's ends showing ``e0`` and ``e1``.

    The rollout policy, for every seat: the strategist's main rules on bitmasks. Of the legal
    plays in ``legal_moves`` order (the left end's tiles, then the right's, each ascending) the
    first with the best ``4 * tiles left of the number it shows + pips + 6 for a double``; with
    none, draw (the turn passes after it under ``one_then_pass``), else pass. The moves are the
    ones ``Match.apply`` would make of them (tests/unit/test_expert.py plays them on a match)."""
    keep = w.keep
    nxt = w.nxt
    draw_ends_turn = w.draw_ends_turn
    players = w.players
    while True:
        hand = hands[seat]
        m0 = hand & SUIT[e0]
        m1 = hand & SUIT[e1]
        if m0 or m1:
            best_score = -1
            best_tile = best_arm = best_new = 0
            for arm, m, e in ((0, m0, e0), (1, m1, e1)):
                while m:
                    low = m & -m
                    m ^= low
                    t = low.bit_length() - 1
                    new = PIPS[t] - e
                    score = (
                        4 * ((hand ^ low) & SUIT[new]).bit_count()
                        + PIPS[t]
                        + (6 if LOW[t] == HIGH[t] else 0)
                    )
                    if score > best_score:
                        best_score, best_tile, best_arm, best_new = score, low, arm, new
            hand ^= best_tile
            hands[seat] = hand
            if best_arm:
                e1 = best_new
            else:
                e0 = best_new
            passes = 0
            if not hand:
                return _score(w, hands, HandEnd.DOMINO, seat)
            seat = nxt[seat]
        elif len(boneyard) > keep:
            hands[seat] = hand | 1 << boneyard.pop()
            passes = 0
            if draw_ends_turn:
                seat = nxt[seat]
        else:
            passes += 1
            if passes >= players:
                return _score(w, hands, HandEnd.CLOSED, None)
            seat = nxt[seat]


def _play_out(
    w: _Table,
    hands: list[int],
    boneyard: list[int],
    ends: list[int],
    arm_len: list[int],
    open_arms: tuple[int, ...],
    seat: int,
    passes: int,
) -> HandOutcome:
    """``_play_line`` on any layout: the plays tried arm by arm in ``open_arms`` order, each
    arm's tiles ascending (as ``legal_moves`` lists them), an arm grown by the layout's
    ``grow``. ``hands``, ``boneyard``, ``ends`` and ``arm_len`` are played out."""
    keep = w.keep
    nxt = w.nxt
    draw_ends_turn = w.draw_ends_turn
    players = w.players
    grow = w.layout.grow
    while True:
        hand = hands[seat]
        best_score = -1
        best_tile = best_arm = best_new = 0
        for arm in open_arms:
            e = ends[arm]
            m = hand & SUIT[e]
            while m:
                low = m & -m
                m ^= low
                t = low.bit_length() - 1
                new = PIPS[t] - e
                score = (
                    4 * ((hand ^ low) & SUIT[new]).bit_count()
                    + PIPS[t]
                    + (6 if LOW[t] == HIGH[t] else 0)
                )
                if score > best_score:
                    best_score, best_tile, best_arm, best_new = score, low, arm, new
        if best_score >= 0:
            hand ^= best_tile
            hands[seat] = hand
            open_arms = grow(ends, arm_len, best_arm, best_new)
            passes = 0
            if not hand:
                return _score(w, hands, HandEnd.DOMINO, seat)
            seat = nxt[seat]
        elif len(boneyard) > keep:
            hands[seat] = hand | 1 << boneyard.pop()
            passes = 0
            if draw_ends_turn:
                seat = nxt[seat]
        else:
            passes += 1
            if passes >= players:
                return _score(w, hands, HandEnd.CLOSED, None)
            seat = nxt[seat]


def _score(w: _Table, hands: list[int], end: HandEnd, out_seat: int | None) -> HandOutcome:
    pips = pips_by_seat(hands, w.rules.set)
    return score_hand(w.rules, pips, end, out_seat, w.order)


def _weights(match: Match, seat: int) -> list[float]:
    """Per seat, the weight of its points of a hand in the value of a rollout for ``seat``."""
    rules = match.rules
    n = match.players
    sign = -1.0 if rules.out_scoring == "penalty" else 1.0
    w = [0.0] * n
    if rules.teams == "pairs":
        if sign > 0:  # both seats of a pair show the pair's points: count one of each
            w[seat] = 1.0
            w[(seat + 1) % n] = -1.0
        else:
            for s in range(n):
                w[s] = -1.0 if s % 2 == seat % 2 else 1.0
        return w
    for s in range(n):
        w[s] = sign * (1.0 if s == seat else -1.0 / (n - 1))
    return w


def _candidates(match: Match) -> list[Play]:
    """The legal plays, one of each pair a symmetric board makes the same (both ends of a line on
    one number)."""
    legal = match.legal_moves()
    if (
        match.layout.simple
        and match.count is None  # a count tells the two ends apart (a double at one of them)
        and len(match.open_arms) == 2
        and match.ends[0] == match.ends[1]
    ):
        seen: set[int] = set()
        out = []
        for p in legal:
            if p.tile.id not in seen:
                seen.add(p.tile.id)
                out.append(p)
        return out
    return legal


@dataclass(frozen=True, slots=True)
class Thought:
    """A decision and what it took: the move, the worlds played out, each candidate's average
    value (empty when there was nothing to choose)."""

    move: Move
    worlds: int = 0
    values: tuple[tuple[Play, float], ...] = ()


def expert_move(
    match: Match,
    seat: int,
    rng: random.Random,
    *,
    samples: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Move:
    """The expert's move for ``seat`` (on turn). ``samples`` fixes the number of worlds
    (deterministic for a given ``rng``); otherwise worlds are dealt until ``budget_ms`` of wall
    clock has passed (at least one world)."""
    return think(match, seat, rng, samples=samples, budget_ms=budget_ms).move


def think(
    match: Match,
    seat: int,
    rng: random.Random,
    *,
    samples: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Thought:
    """``expert_move`` with its workings (``Thought``), for benchmarks and curious players."""
    candidates = _candidates(match)
    if not candidates:
        return Thought(DRAW if match.can_draw() else PASS)
    if len(candidates) == 1:
        return Thought(candidates[0])
    deadline = deadline_of(samples, budget_ms)
    know = observe(match, seat)
    table = _table(match)
    weights = _weights(match, seat)
    line = match.layout.simple
    outcome_of = (
        _fives_outcome if match.count is not None else (_line_outcome if line else _layout_outcome)
    )

    def value(hands: list[int], boneyard: list[int], play: Play) -> float:
        return _value(outcome_of(table, hands, boneyard, seat, play), seat, weights)

    return search(candidates, know, rng, value, samples, deadline)


def deadline_of(samples: int | None, budget_ms: float | None) -> float | None:
    """When a search must end (``perf_counter``), counted from now; None with a fixed number of
    worlds (``samples``)."""
    if samples is not None:
        return None
    return time.perf_counter() + (DEFAULT_BUDGET_MS if budget_ms is None else budget_ms) / 1000


def search(
    candidates: Sequence[Play],
    know: Knowledge,
    rng: random.Random,
    value: Callable[[list[int], list[int], Play], float],
    samples: int | None,
    deadline: float | None,
) -> Thought:
    """The anytime loop of every expert: a world at a time (``know.sample``), each candidate
    played out in it (``value``, which must not change the world it is given), until
    ``samples`` worlds, or the ``deadline`` after at least one world; the best average wins.
    A world the deadline cuts short is dropped, so every candidate is averaged over the same
    worlds."""
    clock = time.perf_counter
    totals = [0.0] * len(candidates)
    worlds = 0
    while samples is None or worlds < samples:
        hands, boneyard = know.sample(rng)
        values = []
        for play in candidates:
            values.append(value(hands, boneyard, play))
            if deadline is not None and worlds and clock() >= deadline:
                break  # out of time: this world, unfinished, is dropped
        else:
            totals = list(map(add, totals, values))
            worlds += 1
            if deadline is None or clock() < deadline:
                continue
        break
    best = max(range(len(candidates)), key=totals.__getitem__)
    averages = tuple((play, total / worlds) for play, total in zip(candidates, totals, strict=True))
    return Thought(candidates[best], worlds, averages)


def _value(outcome: HandOutcome, seat: int, weights: list[float]) -> float:
    points = outcome.points
    value = 0.0
    for s, wt in enumerate(weights):
        if wt:
            value += wt * points[s]
    winners = outcome.winners
    if winners:
        value += WIN_BONUS if seat in winners else -WIN_BONUS
    return value


__all__ = [
    "DEFAULT_BUDGET_MS",
    "Knowledge",
    "Thought",
    "deadline_of",
    "expert_move",
    "observe",
    "search",
    "think",
]
