"""Who leads a hand beyond the opening rule: a winner's lead, and a pair choosing its leader.

- ``next_round: previous_winner``: the last hand's deciding seat leads any tile.
- ``next_round: domino_winner``: the seat that went out leads any tile; after a hand that did
  not end so, the opening rule draws again (All Fives: the lot).
- ``next_round: winning_pair``: the pair that won leads, its deciding seat offered the lead; after
  a hand nobody won, the seat after the last opener in play order is (docs/rules.md "cubano").
- ``opening: pair_lot``: the lot draws a seat, which is *offered* the lead: it leads any tile or
  cedes it, once, to its partner, who must lead (``Cede``; a ``CEDE`` entry in the hand's log).
- ``redeal_doubles`` k: a deal where a hand holds k doubles or more is dealt again.

Functions over ``Match``'s public surface (``Led``), as the views are: this module does not import
``match``.
"""

from typing import Protocol

from .movelog import Entry, LogCode
from .outcome import HandEnd, HandEnded
from .rules import Ruleset
from .tiles import DOUBLE

_CEDE = LogCode.CEDE
#: every double of each set, as one mask
DOUBLES = {top: sum(1 << DOUBLE[x] for x in range(top + 1)) for top in (6, 9, 12, 15)}


class Led(Protocol):
    """What the lead is read from: ``Match``'s public attributes, read-only."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def status(self) -> str: ...
    @property
    def opener(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def open_arms(self) -> tuple[int, ...]: ...
    @property
    def log(self) -> list[Entry]: ...


def winners_lead(rules: Ruleset, ended: HandEnded, opener: int, next_seats: tuple[int, ...]) -> int:
    """The seat the last hand (``ended``, led by ``opener``) makes lead the next one any tile;
    -1: the opening rule decides."""
    won, deciding = ended[2], ended[5]
    if rules.next_round == "previous_winner" and won and deciding >= 0:
        return deciding
    if rules.next_round == "winning_pair":
        return deciding if won and deciding >= 0 else next_seats[opener]
    if rules.next_round == "domino_winner" and ended[1] == HandEnd.DOMINO:
        return deciding
    return -1


def too_many_doubles(rules: Ruleset, hands: list[int]) -> bool:
    """Whether ``redeal_doubles`` throws this deal in."""
    limit = rules.redeal_doubles
    if limit is None:
        return False
    doubles = DOUBLES[rules.set]
    return any((hand & doubles).bit_count() >= limit for hand in hands)


def can_cede(m: Led) -> bool:
    """Whether the seat on turn may cede the lead to its partner: ``opening: pair_lot``, the
    seat offered the lead, before the first tile and before any cede this hand."""
    if m.rules.opening != "pair_lot" or m.turn is None or m.open_arms:
        return False
    return all(entry[0] != _CEDE for entry in m.log)


def offered(m: Led) -> int | None:
    """The seat offered this hand's lead (``opening: pair_lot``) until the first tile is laid:
    the opener, or the seat that ceded to it; None otherwise."""
    if m.rules.opening != "pair_lot" or m.open_arms or m.status != "playing":
        return None
    for code, seat, _tid, _arm, _at in m.log:
        if code == _CEDE:
            return seat
    return m.opener


__all__ = ["DOUBLES", "Led", "can_cede", "offered", "too_many_doubles", "winners_lead"]
