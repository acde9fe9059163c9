"""The ``expert`` on a trains layout (Mexican Train): expert.py's determinized search, played out
on the station.

1. **What the seat knows** (``observe``): its own hand, the station (every train, the markers,
   the doubles waiting), every hand's size, the boneyard's, and the round's public log. A seat
   that drew with nothing to play, or passed, held no tile that fitted a train open to it then
   (the log's marker bit says whether the drawn tile fitted either); as in expert.py each such
   fact is a cap on the tiles it may hold now, a void when it has drawn nothing since.
2. **A world** deals the unseen tiles (the engine search's draws included) into the other hands
   and the boneyard within those voids and caps (``expert.Knowledge``).
3. **Each candidate** (a tile on a train) is laid in each world and the round played on by a
   fast policy for every seat (bots.py's trains advice on bitmasks: satisfy a double, a double
   only with a tile to follow it, the marker off one's own train, heavy tiles first) for
   ``horizon`` turns or to the round's end.
4. **The value** is the round's penalty from the seat's side: the pips the others hold (their
   mean) less its own, where the round ended or stopped; a round won is worth ``WIN_BONUS`` more.
   Stopping short of the end keeps a rollout cheap (a double-twelve round is long) and its
   value steadier: pips in hand are what the round will charge.

The same worlds serve every candidate; the best average is played. Pure: no I/O, no clock but the
budget's.
"""

from __future__ import annotations

import random

from .expert import (
    DEFAULT_BUDGET_MS,
    WIN_BONUS,
    Knowledge,
    Thought,
    deadline_of,
    knowledge_from,
    search,
)
from .layouts import TRAINS
from .match import Match
from .movelog import KIND
from .moves import DRAW, PASS, Move, Play
from .tiles import DOUBLE, HIGH, LOW, PIPS, SUIT, set_size
from .trains import TrainsState

#: turns a rollout plays past the candidate, per seat at the table (then the hands are counted)
HORIZON_ROUNDS = 3

_PLAY_KIND, _DRAW_KIND, _PASS_KIND = 0, 1, 2  # movelog.KIND's values


def observe(match: Match, seat: int) -> Knowledge:
    """What ``seat`` knows of the round in play (``expert.Knowledge``), from the public log."""
    trains = match.trains
    assert trains is not None
    n = match.players
    state = TrainsState(n)
    state.new_round(trains.engine, trains.search_passes)
    ends, arm_len = TRAINS.empty()
    TRAINS.open_station(ends, LOW[trains.engine])
    board = 1 << trains.engine
    plays: list[tuple[float, int, int]] = []  # (index, seat, tile)
    draws: list[tuple[float, int]] = []  # (index, seat)
    events: list[tuple[float, int, int]] = []  # (index, seat, tiles it could not hold then)
    for i, (code, who, tid, arm, _at) in enumerate(match.log):
        kind = KIND.get(code)
        if kind is None:
            continue
        if kind == _PLAY_KIND:
            board |= 1 << tid
            plays.append((i, who, tid))
            TRAINS.grow(ends, arm_len, arm, PIPS[tid] - ends[arm])
            state.laid(who, tid, arm)
            continue
        if who != seat:
            fitting = _fitting(state, who, ends)
            # a draw that marked: the drawn tile fitted nothing either (the fact holds after it)
            events.append((i + 0.5 if kind == _DRAW_KIND and arm == 1 else i, who, fitting))
        if kind == _DRAW_KIND:
            draws.append((i, who))
            if state.of != who:
                state.new_turn(who)
            state.drew = True
            if arm == 1:
                state.marked |= 1 << who
                state.new_turn(-1)
        else:
            state.passed(who)
    unseen_mask = ((1 << set_size(match.rules.set)) - 1) & ~match.hands[seat] & ~board
    return knowledge_from(match, seat, unseen_mask, events, draws, plays)


def _fitting(state: TrainsState, seat: int, ends: list[int]) -> int:
    """The tiles that would have been legal for ``seat`` now (a bitmask), whatever its hand."""
    if state.pending:
        mask = SUIT[ends[state.pending[0][0]]]
        if state.of == seat and state.doubles:  # another double on a train open to it
            for a in state.open_to(seat):
                mask |= 1 << DOUBLE[ends[a]]
        return mask
    mask = 0
    for a in state.open_to(seat):
        mask |= SUIT[ends[a]]
    return mask


class _Station:
    """The public round in play where every world starts."""

    __slots__ = ("arm_len", "ends", "horizon", "keep", "nxt", "players", "seat", "state", "w")

    def __init__(self, match: Match, seat: int) -> None:
        trains = match.trains
        assert trains is not None
        self.state = trains
        self.ends = list(match.ends)
        self.arm_len = list(match.arm_len)
        self.nxt = match.next_seats
        self.keep = match.kept
        self.players = n = match.players
        self.seat = seat
        self.horizon = HORIZON_ROUNDS * n
        # the round's penalty seen from ``seat``: its own pips against the others' mean
        self.w = [1.0 / (n - 1)] * n
        self.w[seat] = -1.0


def _policy(state: TrainsState, seat: int, hand: int, ends: list[int]) -> tuple[int, int]:
    """bots.py's trains advice on bitmasks: the first best (tile, arm) of ``state.legal``, or
    (-1, -1) with nothing to play."""
    best = (-1, -1)
    best_score = -1e9
    marked = state.marked >> seat & 1
    for t, arm in state.legal(seat, hand, ends):
        score = float(PIPS[t])
        if LOW[t] == HIGH[t]:
            score += 8.0 if hand & ~(1 << t) & SUIT[LOW[t]] else -6.0
        if arm == seat:
            score += 5.0 if marked else -1.0
        if score > best_score:
            best, best_score = (t, arm), score
    return best


def _rollout(
    w: _Station, seat: int, tid: int, arm: int, hands: list[int], bone: list[int]
) -> float:
    """``seat`` lays ``tid`` on ``arm`` in the world (``hands`` kept, ``bone`` played out), then
    every seat plays the policy for ``w.horizon`` turns or to the round's end: the value for
    the searching seat."""
    state = w.state.copy()
    ends = list(w.ends)
    arm_len = list(w.arm_len)
    hands = list(hands)
    TRAINS.grow(ends, arm_len, arm, PIPS[tid] - ends[arm])
    hands[seat] ^= 1 << tid
    goes_on = state.laid(seat, tid, arm)
    out = seat  # it went out
    if hands[seat]:
        out = play_on(w, state, hands, bone, ends, arm_len, seat, goes_on, w.horizon)
    value = 0.0
    weights = w.w
    for s, hand in enumerate(hands):
        value += weights[s] * _pips(hand)
    if out >= 0:
        value += WIN_BONUS if out == w.seat else -WIN_BONUS / (w.players - 1)
    return value


def play_on(
    w: _Station,
    state: TrainsState,
    hands: list[int],
    bone: list[int],
    ends: list[int],
    arm_len: list[int],
    seat: int,
    goes_on: bool,
    turns: int,
    passes: int = 0,
) -> int:
    """The round played on by the policy from ``seat`` (whose turn goes on when ``goes_on``)
    for up to ``turns`` more turns: the moves ``Match.apply`` would make of them (the state, the
    hands, the boneyard (top last) and the board change in place). Returns the seat that went
    out, or -1 (blocked, or stopped). ``passes``: the passes in a row so far."""
    nxt = w.nxt
    keep = w.keep
    players = w.players
    while True:
        if not goes_on:
            if turns <= 0:
                return -1
            seat = nxt[seat]
            turns -= 1
        hand = hands[seat]
        t, a = _policy(state, seat, hand, ends)
        if t >= 0:
            TRAINS.grow(ends, arm_len, a, PIPS[t] - ends[a])
            hand ^= 1 << t
            hands[seat] = hand
            goes_on = state.laid(seat, t, a)
            passes = 0
            if not hand:
                return seat
        elif len(bone) > keep and not (state.of == seat and state.drew):
            hands[seat] = hand | 1 << bone.pop()
            goes_on = state.drawn(seat, hands[seat], ends)
            passes = 0
        else:
            state.passed(seat)
            goes_on = False
            passes += 1
            if passes >= players:
                return -1


def _pips(hand: int) -> int:
    total = 0
    while hand:
        low = hand & -hand
        hand ^= low
        total += PIPS[low.bit_length() - 1]
    return total


def think(
    match: Match,
    seat: int,
    rng: random.Random,
    *,
    samples: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Thought:
    """``expert.think`` on a trains layout."""
    candidates = match.legal_moves()
    if not candidates:
        return Thought(DRAW if match.can_draw() else PASS)
    if len(candidates) == 1:
        return Thought(candidates[0])
    deadline = deadline_of(samples, budget_ms)
    know = observe(match, seat)
    station = _Station(match, seat)
    index = TRAINS.index
    moves = {p: (p.tile.id, index[str(p.end)]) for p in candidates}

    def value(hands: list[int], boneyard: list[int], play: Play) -> float:
        tid, arm = moves[play]
        return _rollout(station, seat, tid, arm, hands, list(boneyard))

    return search(candidates, know, rng, value, samples, deadline)


def expert_move(
    match: Match,
    seat: int,
    rng: random.Random,
    *,
    samples: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Move:
    """The expert's move on a trains layout (``think``'s choice)."""
    return think(match, seat, rng, samples=samples, budget_ms=budget_ms).move


__all__ = ["HORIZON_ROUNDS", "expert_move", "observe", "think"]
