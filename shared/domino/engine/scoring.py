"""Scoring a finished hand and deciding a match, as pure functions of the revealed hands.

p(x) = pips left in x's hand. A *side* is a seat, or a pair (seats 0+2, 1+3) with ``teams: pairs``.

Who wins the hand:
- dominó (``HandEnd.DOMINO``): the seat that played its last tile (and its partner);
- closed (``HandEnd.CLOSED``): ``lowest_player``: the lowest single hand (its pair with teams);
  ``lowest_team``: the pair with the lowest sum (no teams: the lowest player). Equal lowest values
  on different sides: ``tie: play_order`` takes the first of them in play order from the opener,
  ``tie: none`` gives no winner (nobody scores; a pool pot is split among the tied lowest seats).

What the winning side scores (``out_scoring`` after a dominó, ``block_scoring`` when closed):
- ``opponents``: Σ p(opponent); ``all_others``: Σ p(every other seat, partner included);
- ``difference``: Σ over opponents of p(opponent) - p(winning seat) (S0: 15/19/22 → 11);
- ``all_hands``: every pip left, own included (S3: 10 vs 25 → 35); ``win``: 1;
- ``penalty``: every seat off the winning side adds its own pips, the winning side adds 0.
- ``own_pips`` (closed hands, with ``penalty`` going out: Mexican Train): every seat adds its
  own pips, the lowest hand too.
``unit: 10`` rounds every seat's points of the hand half up to tens (``win`` stays 1);
``round_to: 5`` rounds the award once, after adding, to the nearest multiple of 5 (All Fives).
``tie: split``: equal lowest on different sides score nobody, except two of three single seats
tied below the third, who each score 5 * floor(R / 10), R the third's pips rounded to 5.
"""

from __future__ import annotations

from collections.abc import Sequence

from .outcome import HandEnd
from .rules import BlockScoring, OutScoring, Ruleset

_DOMINO = HandEnd.DOMINO
_new = object.__new__


def side_of(rules: Ruleset, seat: int) -> int:
    return seat % 2 if rules.teams == "pairs" else seat


def side_seats(rules: Ruleset, seat: int) -> tuple[int, ...]:
    if rules.teams == "pairs":
        return (seat % 2, seat % 2 + 2)
    return (seat,)


def to_unit(rules: Ruleset, points: int) -> int:
    """Points in the rules' unit: tens rounded half up."""
    if rules.unit == 10:
        return (points + 5) // 10
    return points


class HandOutcome:
    """``winners`` (seats of the winning side, ascending, [] when nobody wins), ``win_seat``
    (the seat that went out or the deciding lowest hand, None), ``points`` per seat (score change
    this hand, both seats of a pair show the pair's points except under penalty), ``pot_takers``.

    A plain slotted class, not a frozen dataclass: one is made at every hand's end, and a frozen
    dataclass takes about 0.6 us more to make. Treat it as read-only."""

    __slots__ = ("points", "pot_takers", "win_seat", "winners")

    winners: list[int]
    win_seat: int | None
    points: list[int]
    pot_takers: list[int]

    def __init__(
        self, winners: list[int], win_seat: int | None, points: list[int], pot_takers: list[int]
    ) -> None:
        self.winners = winners
        self.win_seat = win_seat
        self.points = points
        self.pot_takers = pot_takers


def closed_winner(
    rules: Ruleset, pips: Sequence[int], order: Sequence[int]
) -> tuple[int | None, list[int]]:
    """The deciding seat of a closed hand (None: a ``tie: none`` tie), and the tied lowest seats."""
    pairs = rules.teams == "pairs"
    value: Sequence[int] = pips
    if pairs and rules.block_winner == "lowest_team":
        value = [pips[s % 2] + pips[s % 2 + 2] for s in range(len(pips))]
    best = min(value)
    if value.count(best) == 1:  # the common case: one lowest value, no tie to break
        first = value.index(best)
        return first, [first]
    tied = [s for s in order if value[s] == best]
    first = tied[0]
    if len(tied) > 1:
        if rules.tie != "play_order":  # none, split: a tie between sides has no winner
            sides = {s % 2 for s in tied} if pairs else tied
            if len(sides) > 1:
                return None, tied
        if pairs and rules.block_winner == "lowest_team":
            side = first % 2
            members = [s for s in order if s % 2 == side]
            low = min(pips[s] for s in members)
            first = next(s for s in members if pips[s] == low)
    return first, tied


def score_hand(
    rules: Ruleset, pips: Sequence[int], end: HandEnd, out_seat: int | None, order: Sequence[int]
) -> HandOutcome:
    """Score one hand that ended as ``end`` (``out_seat``: the seat that went out).
    ``order`` is the play order from the hand's opener."""
    win_seat: int
    mode: OutScoring | BlockScoring
    if end == _DOMINO:
        assert out_seat is not None
        win_seat = out_seat
        mode = rules.out_scoring
    else:
        found, tied = closed_winner(rules, pips, order)
        if found is None:
            if rules.tie == "split":
                return _split(rules, pips, tied)
            return HandOutcome([], None, [0] * len(pips), sorted(tied))
        win_seat = found
        mode = rules.block_scoring
    pairs = rules.teams == "pairs"  # pairs are always four seats
    side = win_seat % 2
    winners = [side, side + 2] if pairs else [win_seat]
    tens = rules.unit == 10
    if mode == "all_others":
        value = sum(pips) - pips[win_seat]
    elif mode == "all_hands":
        value = sum(pips)
    elif mode == "win":  # one per hand, whatever the unit
        value = 1
        tens = False
    elif mode == "own_pips":
        return HandOutcome([win_seat], win_seat, list(pips), [win_seat])
    else:
        others = [1 - side, 3 - side] if pairs else [s for s in range(len(pips)) if s != win_seat]
        if mode == "penalty":
            points = [0] * len(pips)
            for s in others:
                points[s] = (pips[s] + 5) // 10 if tens else pips[s]
            return HandOutcome(winners, win_seat, points, winners)
        value = sum([pips[s] for s in others])
        if mode == "difference":
            value -= pips[win_seat] * len(others)
    if tens:
        value = (value + 5) // 10
    if rules.round_to:
        value = rounded(value, rules.round_to)
    if pairs:  # a list display: quicker than [0] * 4 and two stores
        points = [value, 0, value, 0] if side == 0 else [0, value, 0, value]
    else:
        points = [0] * len(pips)
        points[win_seat] = value
    # set the slots directly: the class call and its __init__ frame cost about 3 times as much
    out = _new(HandOutcome)
    out.winners = winners
    out.win_seat = win_seat
    out.points = points
    out.pot_takers = winners
    return out


def rounded(value: int, step: int) -> int:
    """``value`` to the nearest multiple of ``step`` (5: remainder 1-2 down, 3-4 up)."""
    return (value + step // 2) // step * step


def _split(rules: Ruleset, pips: Sequence[int], tied: Sequence[int]) -> HandOutcome:
    """``tie: split``: two of three single seats tied below the third share its hand (each
    scores 5 * floor(R / 10), R its pips rounded to 5); any other tie scores nobody."""
    n = len(pips)
    points = [0] * n
    if n == 3 and rules.teams is None and len(tied) == 2:
        (third,) = set(range(n)) - set(tied)
        share = 5 * (rounded(pips[third], rules.round_to or 5) // 10)
        for s in tied:
            points[s] = share
        return HandOutcome(sorted(tied), None, points, sorted(tied))
    return HandOutcome([], None, points, sorted(tied))


def side_totals(rules: Ruleset, scores: Sequence[int]) -> dict[int, int]:
    """Each side's match total (a pair's seats carry the same score)."""
    if rules.teams == "pairs":
        return {0: scores[0], 1: scores[1]}
    return dict(enumerate(scores))


def match_over(rules: Ruleset, scores: Sequence[int], hands_played: int) -> bool:
    if rules.match == "single":
        return True
    if rules.match == "rounds":
        return hands_played >= (rules.rounds or 1)
    return max(scores) >= (rules.target or 0)


def match_winners(
    rules: Ruleset, scores: Sequence[int], hand_winners: Sequence[int], forfeits: Sequence[int]
) -> tuple[list[int], bool]:
    """The seats that won the match and whether it is a draw.

    ``single`` (not penalty): the last hand's winners (none: a draw). ``target``: the side(s)
    that reached the target (penalty: the lowest total; equal lowest share). ``rounds``: the
    highest total, equal ones a draw (penalty: the lowest total, equal lowest share). A side
    with a forfeited seat never wins; then the best other side by total wins.
    """
    if (
        rules.match == "single"
        and hand_winners
        and not forfeits
        and rules.out_scoring != "penalty"  # ``rules.penalty``, without a property call
    ):
        return sorted(hand_winners), False
    n = len(scores)
    pairs = rules.teams == "pairs"
    barred = {s % 2 for s in forfeits} if pairs else set(forfeits)
    totals = {side: t for side, t in side_totals(rules, scores).items() if side not in barred}
    if not totals:
        return [], False
    if not rules.penalty:
        if rules.match == "single":
            if not hand_winners:
                return [], True
            sides = {s % 2 if pairs else s for s in hand_winners} - barred
            if sides:
                return sorted(s for s in range(n) if (s % 2 if pairs else s) in sides), False
        best = max(totals.values())
    else:
        best = min(totals.values())
    top = {side for side, t in totals.items() if t == best}
    if rules.match == "rounds" and len(top) > 1 and not rules.penalty:
        return [], True  # equal highest totals draw; equal lowest penalty totals share it
    return [s for s in range(n) if (s % 2 if pairs else s) in top], False
