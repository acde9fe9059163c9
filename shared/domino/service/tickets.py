"""Quick match's tickets and the pure rules of who may meet whom (docs/api.md#quick-match).

A ticket asks to be seated with strangers. Tickets meet only in the same **queue** (preset,
players, ranked, turn timeout and ``on_timeout`` equal). Ranked tickets meet when their ratings
differ by no more than both windows, a window being ``100 + 10 x seconds waited``; unranked
ones in arrival order; the oldest ticket that can be matched goes first. No I/O here: the
matcher (``matchmaking.py``) reads the queue, asks these functions and writes.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from domino.engine import LEVELS
from domino.store.tickets import Ticket

#: the documented ratings of the bot levels, measured by bench/ratings.py's round robin of
#: whole matches (docs/decisions.md "Quick match"); backfill seats the level closest to the
#: people's mean rating
BOT_RATINGS: dict[str, int] = {"random": 600, "greedy": 736, "strategist": 1361, "expert": 1952}
assert set(BOT_RATINGS) == set(LEVELS)


Blocked = Callable[[str, str], bool]


def _never(_a: str, _b: str) -> bool:
    return False


def may_meet(a: Ticket, b: Ticket, now: float, blocked: Blocked = _never) -> bool:
    if a.player == b.player or a.queue != b.queue or blocked(a.player, b.player):
        return False
    if not a.ranked:
        return True
    gap = abs(a.rating - b.rating)
    return gap <= a.window(now) and gap <= b.window(now)


def _group_around(
    anchor: Ticket, waiting: Sequence[Ticket], size: int, now: float, blocked: Blocked
) -> list[Ticket]:
    """``anchor`` and the oldest tickets that may meet it and each other, at most ``size``."""
    group = [anchor]
    for ticket in waiting:
        if len(group) == size:
            break
        if ticket is not anchor and all(may_meet(ticket, g, now, blocked) for g in group):
            group.append(ticket)
    return group


def full_group(
    waiting: Sequence[Ticket], now: float, blocked: Blocked = _never
) -> list[Ticket] | None:
    """The first game of people the queue can make (``waiting``: oldest first): the oldest
    ticket that can be matched, with the oldest that may meet it and each other."""
    for anchor in waiting:
        group = _group_around(anchor, waiting, anchor.players, now, blocked)
        if len(group) == anchor.players:
            return group
    return None


def bot_group(
    waiting: Sequence[Ticket], now: float, blocked: Blocked = _never
) -> list[Ticket] | None:
    """The people a game with bots seats: the oldest ticket past its ``wait_s``, with the
    tickets that may meet it (never a full table: that is ``full_group``'s)."""
    for anchor in waiting:
        if anchor.wants_bots(now):
            return _group_around(anchor, waiting, anchor.players - 1, now, blocked)
    return None


def bot_level_for(people: Sequence[Ticket]) -> str:
    """The level whose documented rating lies closest to the people's mean."""
    mean = sum(t.rating for t in people) / len(people)
    return min(BOT_RATINGS, key=lambda level: (abs(BOT_RATINGS[level] - mean), level))


def seat_order(people: Sequence[Ticket], pairs: bool) -> list[Ticket]:
    """Who sits where. With pairs (seats 0+2 against 1+3) the best-rated person sits with the
    worst-rated; a game of people alone is otherwise seated in a shuffled order (``secrets``),
    so that arriving first chooses nothing."""
    shuffled = list(people)
    secrets.SystemRandom().shuffle(shuffled)
    if not pairs or len(people) != 4:
        return shuffled
    ranked = sorted(shuffled, key=lambda t: -t.rating)  # a stable sort: ties stay shuffled
    best, second, third, worst = ranked
    return [best, second, worst, third]
