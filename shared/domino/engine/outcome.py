"""How a hand ended: ``HandEnd`` and the finished hand's ``HandResult`` (``Match.last``); what
one accepted change did: ``ApplyResult`` (``Match.apply``).

As python-chess's ``Termination`` and ``Outcome``: an enum for how it ended, a frozen dataclass
for what it gave. The view's ``last_hand`` object is built from it (``views.last_hand``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .tiles import TILES, Tile, bits


class HandEnd(StrEnum):
    """How a hand ended; the value is the view's ``last_hand.reason``."""

    #: a seat played its last tile (dominó)
    DOMINO = "domino"
    #: every seat passed once in a row: nobody could play or draw (tranque)
    CLOSED = "closed"
    #: a score during play reached the match's target (``target_check: every_score``)
    TARGET = "target"


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand, every hand revealed.

    ``number``: the hand's number (1 for the first hand of the match). ``end``: how it ended.
    ``winners``: the seats of the winning side, ascending in a pair ((0, 2) or (1, 3)), empty when
    nobody won (a ``tie: none`` tie). ``points``: each seat's score change this hand (both seats of
    a pair show the pair's points, except under ``penalty``). ``hands``: each seat's tiles left, as
    bitmasks of tile ids (``hand(seat)`` gives the tiles). ``deciding_seat``: the seat that went
    out, or the lowest hand that decided a closed hand (None when nobody won).
    """

    number: int
    end: HandEnd
    winners: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[int, ...]
    deciding_seat: int | None

    def hand(self, seat: int) -> list[Tile]:
        """The tiles ``seat`` held when the hand ended, in id order."""
        return [TILES[t] for t in bits(self.hands[seat])]


#: a ``HandResult`` as the match keeps it (``Match._ended``): a plain tuple is about 20 times
#: quicker to make at every hand's end than a frozen dataclass; ``Match.last`` gives the
#: ``HandResult``. (number, end, winners, points, hands, deciding seat or -1)
HandEnded = tuple[int, HandEnd, tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def hand_result(ended: HandEnded) -> HandResult:
    """The ``HandResult`` of a hand kept as a ``HandEnded`` tuple."""
    number, end, winners, points, hands, seat = ended
    return HandResult(number, end, winners, points, hands, None if seat < 0 else seat)


class ApplyResult:
    """What one accepted change did: ``drawn`` (the tile drawn, for the drawer only),
    ``hand_over`` / ``match_over``, and ``hand_number`` of the hand the move belonged to.

    A plain slotted class, not a frozen dataclass: a frozen dataclass takes about 0.6 us more to
    make, at every draw and every hand's end. Treat it as read-only (most moves share one)."""

    __slots__ = ("drawn", "hand_number", "hand_over", "match_over")

    drawn: Tile | None
    hand_over: bool
    match_over: bool
    hand_number: int

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


__all__ = ["ApplyResult", "HandEnd", "HandEnded", "HandResult", "hand_result"]
