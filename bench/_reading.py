"""A what-if of bench/bots.py (``--reads``), never the product's: the expert's worlds weighted by
how likely the other seats' plays were, had each played as the strategist scores plays.

For every play another seat made this hand (with a choice), the world's hand of that seat then
is its hand in the world plus the tiles it has laid since; the play's likelihood is a softmax
(``beta``) of the strategist's score (``engine/bots.py`` ``_strategist``: mirrored here on
bitmasks, and tests/unit/test_bench_reading.py checks the mirror picks what the strategist
picks). ``dealt`` worlds are dealt from the seat's knowledge for each one kept, which is drawn
by those weights. docs/benchmarks.md (issue 24, cubano) has what it is worth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from domino.engine.match import Match
from domino.engine.movelog import KIND
from domino.engine.tiles import HIGH, LOW, PIPS, bits

_PLAY, _DRAW, _PASS = 0, 1, 2  # movelog.KIND's values


@dataclass(slots=True)
class Seen:
    """One play of another seat, with what the strategist's score of it reads from the table."""

    seat: int
    tile: int
    arm: int  # -1: the lead
    ends: dict[int, int] | None  # open arm -> its number before the play (None: the lead)
    heavy: float  # the weight of pips (heavier late in the hand)
    bonus: list[float]  # per number: what exposing it is worth given the seats' voids
    on_board: list[int]  # per number: tiles on the board that carry it
    in_hand: int  # the seat's tiles before the play
    laid_since: int  # the tiles the seat laid from this play on (bitmask)


def plays_seen(match: Match, seat: int, who: str) -> list[Seen]:
    """The plays of the seats ``who`` names (``opponents`` or ``all`` others) this hand."""
    rules = match.rules
    top, n = rules.set, match.players
    layout = match.layout
    ends, arm_len = layout.empty()
    open_arms: tuple[int, ...] = ()
    log = [entry for entry in match.log if KIND.get(entry[0]) is not None]
    counts = [h.bit_count() for h in match.hands]
    for code, s, _, _, _ in log:
        if KIND[code] == _PLAY:
            counts[s] += 1  # back to the deal
    # a lead the opening rule names (the highest double) says nothing of the rest of the hand
    free_lead = rules.opening in ("lot", "pair_lot") or match.hand_number > 1
    # the tiles one could draw then: now, plus those drawn since
    drawable = match.drawable() + sum(1 for entry in log if KIND[entry[0]] == _DRAW)
    on_board = [0] * (top + 1)
    voids: list[set[int]] = [set() for _ in range(n)]
    seen: list[Seen] = []
    for code, s, tid, arm, _ in log:
        kind = KIND[code]
        if kind == _PLAY:
            read = s != seat and (who == "all" or (s - seat) % 2 == 1)
            if read and (arm >= 0 or free_lead):
                seen.append(
                    _seen(match, s, tid, arm, ends, open_arms, counts, voids, on_board, drawable)
                )
            open_arms = layout.lay(ends, arm_len, tid, arm)
            on_board[LOW[tid]] += 1
            if HIGH[tid] != LOW[tid]:
                on_board[HIGH[tid]] += 1
            counts[s] -= 1
        elif open_arms and kind in (_DRAW, _PASS):
            voids[s] |= {ends[a] for a in open_arms}
        drawable -= kind == _DRAW
    laid = [0] * n
    later = iter(reversed(seen))
    current = next(later, None)
    for code, s, tid, _, _ in reversed(log):
        if KIND[code] == _PLAY:
            laid[s] |= 1 << tid
            if current is not None and current.tile == tid:
                current.laid_since = laid[s]
                current = next(later, None)
    return seen


def _seen(
    match: Match,
    s: int,
    tid: int,
    arm: int,
    ends: list[int],
    open_arms: tuple[int, ...],
    counts: list[int],
    voids: list[set[int]],
    on_board: list[int],
    drawable: int,
) -> Seen:
    """What the strategist's score of seat ``s``'s play reads from the table then."""
    n = match.players
    others = [c for i, c in enumerate(counts) if i != s]
    late = counts[s] <= 3 or min(others) <= 2 or (drawable == 0 and counts[s] <= 5)
    nxt = (s + (1 if match.rules.direction == "clockwise" else n - 1)) % n
    partner = (s + 2) % 4 if match.rules.teams == "pairs" else None
    bonus = []
    for x in range(match.rules.set + 1):
        b = 4.0 if x in voids[nxt] and nxt != partner else 0.0
        b += sum(1.5 for i in range(n) if i not in (s, nxt, partner) and x in voids[i])
        if partner is not None and x in voids[partner]:
            b -= 2.5
        bonus.append(b)
    return Seen(
        s,
        tid,
        arm,
        None if arm < 0 else {a: ends[a] for a in open_arms},
        1.5 if late else 0.3,
        bonus,
        list(on_board),
        counts[s],
        0,
    )


def score(seen: Seen, count: list[int], tile: int, arm: int | None, top: int) -> float:
    """The strategist's score of laying ``tile`` on ``arm`` (None: the lead) from a hand whose
    numbers ``count`` holds (engine/bots.py ``_strategist``, without the fives count)."""
    after = list(count)
    after[LOW[tile]] -= 1
    if HIGH[tile] != LOW[tile]:
        after[HIGH[tile]] -= 1
    if arm is None or seen.ends is None:
        exposed = [LOW[tile], HIGH[tile]]
        ends_after = list(exposed)
    else:
        pips = seen.ends[arm]
        new = HIGH[tile] if LOW[tile] == pips else LOW[tile]
        exposed = [new]
        ends_after = [v for a, v in seen.ends.items() if a != arm] + [new]
    value = seen.heavy * PIPS[tile] + (2.0 if LOW[tile] == HIGH[tile] else 0.0)
    for x in exposed:
        if after[x] >= 1:
            value += 1.5 * min(after[x], 3)
        if count[x] >= 4:
            value += 3.0
        value += seen.bonus[x]
        if top + 1 - seen.on_board[x] - count[x] == 0 and after[x] >= 1:
            value += 2.0
    if len(set(ends_after)) == 1 and count[ends_after[0]] >= 4:
        value += 4.0
    if not any(after[x] for x in set(ends_after)) and seen.in_hand > 1:
        value -= 3.0
    return value


def options(seen: Seen, hand: int) -> list[tuple[int, int | None]]:
    """The plays the hand had: (tile, arm), an arm per distinct open number a tile fits."""
    found: list[tuple[int, int | None]] = []
    rest = hand
    while rest:
        low = rest & -rest
        tile = low.bit_length() - 1
        rest ^= low
        if seen.ends is None:
            found.append((tile, None))
            continue
        numbers: set[int] = set()
        for arm, pips in seen.ends.items():
            if pips in (LOW[tile], HIGH[tile]) and pips not in numbers:
                numbers.add(pips)
                found.append((tile, arm))
    return found


def log_likelihood(seen: list[Seen], hands: list[int], top: int, beta: float) -> float:
    """log P(the plays seen | the world's ``hands``) under the strategist's scores."""
    total = 0.0
    for play in seen:
        hand = hands[play.seat] | play.laid_since
        choices = options(play, hand)
        if len(choices) < 2:
            continue
        count = [0] * (top + 1)
        rest = hand
        while rest:
            low = rest & -rest
            tile = low.bit_length() - 1
            rest ^= low
            count[LOW[tile]] += 1
            if HIGH[tile] != LOW[tile]:
                count[HIGH[tile]] += 1
        values = [beta * score(play, count, tile, arm, top) for tile, arm in choices]
        made = next(
            (
                i
                for i, (tile, arm) in enumerate(choices)
                if tile == play.tile and (arm is None or arm == play.arm)
            ),
            None,
        )
        if made is None:  # laid on an arm showing a number another arm shows too
            made = next(i for i, (tile, _) in enumerate(choices) if tile == play.tile)
        top_value = max(values)
        total += values[made] - top_value - math.log(sum(math.exp(v - top_value) for v in values))
    return total


def reading_observe(who: str, beta: float, dealt: int, observe: Any) -> Any:
    """``observe`` (the seat's knowledge) whose worlds are drawn, one from every ``dealt``, by
    the weights."""

    class Reading:
        def __init__(self, match: Match, seat: int) -> None:
            self.know = observe(match, seat)
            self.seen = plays_seen(match, seat, who)
            self.top = match.rules.set

        def __getattr__(self, name: str) -> Any:
            return getattr(self.know, name)

        def sample(self, rng: Any) -> tuple[list[int], list[int]]:
            if not self.seen:
                return self.know.sample(rng)
            worlds = [self.know.sample(rng) for _ in range(dealt)]
            logs = [log_likelihood(self.seen, hands, self.top, beta) for hands, _ in worlds]
            best = max(logs)
            return rng.choices(worlds, weights=[math.exp(v - best) for v in logs])[0]

    return Reading


def chain_observe(who: str, beta: float, steps: int, observe: Any) -> Any:
    """``observe`` whose worlds come from a Metropolis chain instead of ``dealt`` plain deals a
    kept world: it starts from one plain deal, and before each world it returns it proposes
    ``steps`` swaps of two unseen tiles between two holders (another seat's hand or the tiles out
    of play), each within the holders' voids and caps, kept with probability min(1, the likelihood's
    ratio). Only the hands of the seats read change the likelihood, so a swap costs the reading
    of at most two seats, not of every play in a fresh world."""

    class Chain:
        def __init__(self, match: Match, seat: int) -> None:
            self.know = observe(match, seat)
            self.top = match.rules.set
            self.by_seat: dict[int, list[Seen]] = {}
            for play in plays_seen(match, seat, who):
                self.by_seat.setdefault(play.seat, []).append(play)
            self.state: tuple[list[int], list[int]] | None = None
            self.logs: dict[int, float] = {}

        def __getattr__(self, name: str) -> Any:
            return getattr(self.know, name)

        def _log(self, s: int, hands: list[int]) -> float:
            seen = self.by_seat.get(s)
            return log_likelihood(seen, hands, self.top, beta) if seen else 0.0

        def sample(self, rng: Any) -> tuple[list[int], list[int]]:
            if not self.by_seat:
                return self.know.sample(rng)
            if self.state is None:
                hands, boneyard = self.know.sample(rng)
                self.state = (hands, boneyard)
                self.logs = {s: self._log(s, hands) for s in self.by_seat}
            hands, boneyard = self.state
            void = self.know.void
            holders = [s for s in range(len(hands)) if s != self.know.seat and hands[s]]
            if boneyard:
                holders.append(-1)  # the tiles out of play
            for _ in range(steps):
                h1, h2 = rng.sample(holders, 2)
                a = _pick(hands, boneyard, h1, rng)
                b = _pick(hands, boneyard, h2, rng)
                if (h2 >= 0 and void[h2] >> a & 1) or (h1 >= 0 and void[h1] >> b & 1):
                    continue
                moved = {h for h in (h1, h2) if h in self.by_seat}
                trial = list(hands)
                for h, out, into in ((h1, a, b), (h2, b, a)):
                    if h >= 0:
                        trial[h] = trial[h] ^ (1 << out) | (1 << into)
                if any(
                    (trial[h] & tiles).bit_count() > most
                    for h in (h1, h2)
                    if h >= 0
                    for tiles, most in self.know.caps[h]
                ):
                    continue  # a seat that drew may hold only so many of a number it lacked
                new = {s: self._log(s, trial) for s in moved}
                gain = sum(new[s] - self.logs[s] for s in moved)
                if gain >= 0 or rng.random() < math.exp(gain):
                    hands = trial
                    if h1 < 0 or h2 < 0:
                        boneyard = [b if t == a else a if t == b else t for t in boneyard]
                    self.logs.update(new)
            self.state = (hands, boneyard)
            return list(hands), list(boneyard)

    return Chain


def _pick(hands: list[int], boneyard: list[int], holder: int, rng: Any) -> int:
    """A random tile of ``holder`` (a seat, or -1: the tiles out of play)."""
    if holder < 0:
        return int(rng.choice(boneyard))
    return int(rng.choice(bits(hands[holder])))
