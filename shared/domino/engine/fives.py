"""All Fives' count (``in_play: fives``): points scored during play, after every tile.

After every tile laid, the open ends are totalled (docs/rules.md "All Fives and Muggins"):

- a board of one tile counts both its halves once (6-4: 10, 5-5: 10, 0-0: 0);
- otherwise each open end counts the pips it shows, doubled when the tile at that end is a
  double (a double at the end of an arm counts both halves; the next tile beyond it makes it an
  ordinary inner tile); a spinner with a free side is the end tile of that side; ``north`` and
  ``south`` count 0 until their first tile.

A count of 5, 10, ... 35 scores exactly that for the seat that laid the tile (its pair); 0 and
other counts score nothing. Only the count after the play matters, never the change: covering
the spinner's second side removes its two halves.

``Count`` is what a match keeps of the current hand for it (which end tiles are doubles, how many
tiles lie, the points each seat made); ``trail`` replays a hand's log for the move records and
``last_hand``. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .layouts import Layout
from .outcome import HandEnd
from .rules import Ruleset
from .scoring import HandOutcome, score_hand
from .tiles import HIGH, LOW, PIPS, SUIT, pips_by_seat

#: whether each tile (by id) is a double
IS_DOUBLE: tuple[bool, ...] = tuple(low == high for low, high in zip(LOW, HIGH, strict=True))


def scored(count: int) -> int:
    """What a count scores: itself when it is a positive multiple of 5, else nothing."""
    return count if count and not count % 5 else 0


def end_counts(
    ends: Sequence[int],
    arm_len: Sequence[int],
    arms: Iterable[int],
    tips: int,
    laid: int,
) -> list[int]:
    """Each of ``arms``' share of the count (``tips``: a bit per arm whose end tile is a double;
    ``laid``: tiles on the board)."""
    if laid == 1:  # one tile: its two halves, once (the lead shows one on each of two ends)
        return [ends[arm] if arm < 2 else 0 for arm in arms]
    out = []
    for arm in arms:
        if arm >= 2 and not arm_len[arm]:
            out.append(0)  # north and south count nothing until their first tile
            continue
        pips = ends[arm]
        out.append(pips + pips if tips >> arm & 1 else pips)
    return out


class Count:
    """The count's state for the current hand, and the points each seat made in it.

    ``tips``: a bit per arm whose end tile is a double; ``laid``: tiles on the board;
    ``points``: the in-play points of the hand per seat (both seats of a pair show the pair's).
    """

    __slots__ = ("laid", "pairs", "points", "tips")

    def __init__(self, players: int, pairs: bool) -> None:
        self.pairs = pairs
        self.tips = 0
        self.laid = 0
        self.points = [0] * players

    def reset(self) -> None:
        """A new hand: an empty board, no points yet."""
        self.tips = 0
        self.laid = 0
        self.points = [0] * len(self.points)

    def copy(self) -> Count:
        other = Count.__new__(Count)
        other.pairs, other.tips, other.laid = self.pairs, self.tips, self.laid
        other.points = list(self.points)
        return other

    def laid_tile(self, tid: int, arm: int) -> None:
        """Tile ``tid`` was laid on ``arm`` (-1: the first tile)."""
        self.laid += 1
        if arm < 0:
            self.tips = 3 if IS_DOUBLE[tid] else 0
        elif IS_DOUBLE[tid]:
            self.tips |= 1 << arm
        else:
            self.tips &= ~(1 << arm)

    def count(self, ends: Sequence[int], arm_len: Sequence[int], open_arms: Iterable[int]) -> int:
        """The count of the board as it lies now."""
        return sum(end_counts(ends, arm_len, open_arms, self.tips, self.laid))

    def lay(
        self,
        tid: int,
        arm: int,
        seat: int,
        ends: Sequence[int],
        arm_len: Sequence[int],
        open_arms: Iterable[int],
    ) -> int:
        """``seat`` laid ``tid`` on ``arm``, the board now ``ends``, ``arm_len``, ``open_arms``:
        the points the play made (0: none), credited to the hand's ``points``."""
        self.laid_tile(tid, arm)
        made = scored(self.count(ends, arm_len, open_arms))
        if made:
            self.credit(seat, made)
        return made

    def credit(self, seat: int, points: int) -> list[int]:
        """``points`` made by ``seat``'s play: the seats they go to (its pair's, with pairs)."""
        seats = [seat % 2, seat % 2 + 2] if self.pairs else [seat]
        for s in seats:
            self.points[s] += points
        return seats


def add_points(rules: Ruleset, scores: list[int], seat: int, made: int) -> bool:
    """Add the ``made`` points of ``seat``'s play to its side's ``scores`` (a pair's on both
    its seats); whether that ends the match at once (``target_check: every_score``: the side
    reached the target)."""
    if rules.teams == "pairs":
        scores[seat % 2] += made
        scores[seat % 2 + 2] += made
    else:
        scores[seat] += made
    return (
        rules.target_check == "every_score"
        and rules.match == "target"
        and scores[seat] >= (rules.target or 0)
    )


def no_award(rules: Ruleset, seat: int | None, players: int) -> HandOutcome:
    """The outcome of a hand a score during play ended at the target: ``seat``'s side won it,
    nobody is awarded anything more."""
    assert seat is not None
    side = [seat % 2, seat % 2 + 2] if rules.teams == "pairs" else [seat]
    return HandOutcome(side, seat, [0] * players, [])


def after_play(
    layout: Layout,
    ends: Sequence[int],
    arm_len: Sequence[int],
    count: Count,
    tid: int,
    arm: int,
) -> int:
    """The count if ``tid`` were laid on ``arm`` (-1: the first tile) now; nothing changes."""
    ends2, arm_len2 = list(ends), list(arm_len)
    open2 = layout.lay(ends2, arm_len2, tid, arm)
    trial = count.copy()
    trial.laid_tile(tid, arm)
    return trial.count(ends2, arm_len2, open2)


def threat(
    layout: Layout,
    ends: Sequence[int],
    arm_len: Sequence[int],
    count: Count,
    tid: int,
    arm: int,
    unseen: int,
) -> int:
    """The most any tile of ``unseen`` (a bitmask) could score laid right after ``tid`` is
    laid on ``arm``: what a play leaves the next player."""
    ends2, arm_len2 = list(ends), list(arm_len)
    open2 = layout.lay(ends2, arm_len2, tid, arm)
    after = count.copy()
    after.laid_tile(tid, arm)
    worst = 0
    for a in open2:
        m = unseen & SUIT[ends2[a]]
        while m:
            low = m & -m
            m ^= low
            worst = max(
                worst, scored(after_play(layout, ends2, arm_len2, after, low.bit_length() - 1, a))
            )
    return worst


def trail(layout: Layout, plays: Iterable[tuple[int, int]]) -> list[int]:
    """The count after each of a hand's plays ``(tile id, arm)``, replayed from an empty
    board."""
    ends, arm_len = layout.empty()
    count = Count(1, False)
    out = []
    for tid, arm in plays:
        open_arms = layout.lay(ends, arm_len, tid, arm)
        count.laid_tile(tid, arm)
        out.append(count.count(ends, arm_len, open_arms))
    return out


def play_out(
    rules: Ruleset,
    layout: Layout,
    nxt: Sequence[int],
    keep: int,
    order: Sequence[int],
    hands: list[int],
    boneyard: list[int],
    ends: list[int],
    arm_len: list[int],
    open_arms: tuple[int, ...],
    count: Count,
    seat: int,
    passes: int,
) -> HandOutcome:
    """One world's hand played out from ``seat`` on turn (the expert's rollout, for rules that
    score during play): every seat lays the tile that makes the most points now, ties to the
    expert's usual preference (a number it holds more of left open, heavy tiles, doubles); with
    none, it draws, else passes. ``hands``, ``boneyard``, ``ends``, ``arm_len`` and ``count``
    are played out. The outcome's ``points`` are the hand-end award plus ``count.points``."""
    players = len(hands)
    while True:
        hand = hands[seat]
        best_score = -1
        best_tile = best_arm = -1
        for arm in open_arms:
            e = ends[arm]
            m = hand & SUIT[e]
            while m:
                low = m & -m
                m ^= low
                t = low.bit_length() - 1
                made = scored(after_play(layout, ends, arm_len, count, t, arm))
                new = PIPS[t] - e
                score = (
                    64 * made
                    + 4 * ((hand ^ low) & SUIT[new]).bit_count()
                    + PIPS[t]
                    + (6 if LOW[t] == HIGH[t] else 0)
                )
                if score > best_score:
                    best_score, best_tile, best_arm = score, t, arm
        if best_tile >= 0:
            hand ^= 1 << best_tile
            hands[seat] = hand
            open_arms = layout.lay(ends, arm_len, best_tile, best_arm)
            count.laid_tile(best_tile, best_arm)
            made = scored(count.count(ends, arm_len, open_arms))
            if made:
                count.credit(seat, made)
            passes = 0
            if not hand:
                return hand_outcome(rules, hands, HandEnd.DOMINO, seat, order, count)
            seat = nxt[seat]
        elif len(boneyard) > keep:
            hands[seat] = hand | 1 << boneyard.pop()
            passes = 0
        else:
            passes += 1
            if passes >= players:
                return hand_outcome(rules, hands, HandEnd.CLOSED, None, order, count)
            seat = nxt[seat]


def hand_outcome(
    rules: Ruleset,
    hands: list[int],
    end: HandEnd,
    out_seat: int | None,
    order: Sequence[int],
    count: Count,
) -> HandOutcome:
    """The hand scored as it ended, its ``points`` the award plus ``count.points``."""
    outcome = score_hand(rules, pips_by_seat(hands, rules.set), end, out_seat, order)
    points = [a + b for a, b in zip(outcome.points, count.points, strict=True)]
    return HandOutcome(outcome.winners, outcome.win_seat, points, outcome.pot_takers)


__all__ = [
    "IS_DOUBLE",
    "Count",
    "add_points",
    "after_play",
    "end_counts",
    "hand_outcome",
    "no_award",
    "play_out",
    "scored",
    "threat",
    "trail",
]
