"""A match played again from its deals and its move records: what a finished match's record is
made of (``GET /games/{id}/record``), and the check that feeding a record back to the engine
gives the same result.

``replay`` starts the match with its seed and the deal of each hand set beforehand
(``Match.deals``), then makes every move record as the engine first made it: a play, a draw, a
pass or a cede; ``auto`` and ``premove`` moves by the methods that logged them; a timeout in its
mode; a leave as a forfeit. Hand-over records are the engine's own and are skipped. A record the
engine refuses raises (``IllegalMove``, ``InvalidInput``): the moves do not belong to the deals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .match import Match
from .moves import CEDE, DRAW, PASS, Move, Play
from .rules import Ruleset
from .tiles import TEXT, mask_of, parse_tile, show_mask

#: a hand's deal as a record shows it: per seat the tiles dealt, the boneyard top first
Deal = tuple[list[list[str]], list[str]]


def dealt(m: Match, hand_number: int) -> Deal:
    """Hand ``hand_number``'s deal as made (``Match.deals``), as tile texts."""
    hands, rest = m.deals[hand_number]
    return [show_mask(hand) for hand in hands], [TEXT[t] for t in rest]  # in its order


def _deals(deals: Mapping[int, Deal]) -> dict[int, tuple[list[int], list[int]]]:
    ids = {text: tid for tid, text in enumerate(TEXT)}
    return {
        number: ([mask_of([ids[t] for t in hand]) for hand in hands], [ids[t] for t in rest])
        for number, (hands, rest) in deals.items()
    }


def _move(m: Match, record: Mapping[str, Any]) -> Move:
    kind = record.get("move", record["action"])
    if kind == "play":
        return Play(parse_tile(str(record["tile"]), m.rules.set), record.get("end"))
    others: dict[str, Move] = {"draw": DRAW, "pass": PASS, "cede": CEDE}
    return others[kind]


def make(m: Match, record: Mapping[str, Any]) -> None:
    """Make one move record on ``m`` as the engine logged it."""
    action, seat, at = record["action"], record["seat"], int(record.get("at") or 0)
    if action == "hand_over":
        return
    if action == "leave":
        m.forfeit(seat, at)
    elif action == "timeout":
        m.timeout(seat, "forfeit" if record.get("forfeit") else "auto", at, _move(m, record))
    elif record.get("auto"):
        m.apply_forced(seat, at)
    elif record.get("premove"):
        move = _move(m, record)
        assert isinstance(move, Play)
        m.apply_premove(seat, move, at)
    else:
        m.apply(seat, _move(m, record), at)


def replay(
    rules: Ruleset,
    records: Iterable[Mapping[str, Any]],
    *,
    seed: int | None,
    deals: Mapping[int, Deal],
    lot: int | None = None,
    at: int = 0,
    first: dict[str, Any] | None = None,
) -> Match:
    """The match ``records`` (every hand's full move records, in order) make from ``deals`` (by
    hand number) with ``seed`` (the deals left out, and what lots the rules draw; ``lot``: hand
    1's, without a seed). ``first``: hand 1's dev deal, as ``Match.start`` takes it."""
    fixed = _deals(deals)
    deal = first
    if 1 in fixed:
        hands, rest = fixed[1]
        deal = {"hands": [show_mask(h) for h in hands], "boneyard": [TEXT[t] for t in rest]}
    if lot is not None:
        deal = {**(deal or {}), "lot": lot}
    m = Match.start(rules, seed=seed, deal=deal, at=at)
    m.deals.update({n: d for n, d in fixed.items() if n > 1})
    for record in records:
        make(m, record)
    return m


__all__ = ["Deal", "dealt", "make", "replay"]
