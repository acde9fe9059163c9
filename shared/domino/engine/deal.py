"""The shuffle and the deal: random orders of the set, fixed deals, and who opens a hand.

Unseeded shuffles (``csprng_shuffle``) read one integer from ``os.urandom`` (the CSPRNG behind
``secrets``), one system call a deal, holding at least 128 bits more than ``log2(tiles!)``, and
run a Fisher-Yates shuffle on it by repeated ``divmod``: every order is equally likely but for a
relative bias below 2**-128, and the 128+ bits left over draw a ``lot`` opener. With a seed
(``seeded_shuffle``), deal ``k`` of hand ``h`` sorts the tiles by 32-bit keys from
SHAKE-256(``"domino:{seed}:{h}:{k}"``), so every later hand is repeatable and no RNG state is
stored. What a seed deals never changes (tests and dev tools replay seeded games).

Who opens (``find_opener``, docs/rules.md#who-leads-a-hand): a previous winner under
``next_round: previous_winner`` leads any tile; ``lot`` draws a seat that leads any tile;
``highest_double`` makes the holder of the highest double lead it (``double_six``: 6-6 first,
``required_double``: the set's top double only); with no such double in any hand,
``no_double: heaviest`` makes the holder of the heaviest tile lead it, and ``reshuffle`` deals
again (``MAX_RESHUFFLES`` at most).
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from .errors import InvalidInput
from .rules import OPENING, Opening, Ruleset
from .tiles import DOUBLE, HEAVY_KEY, MAX_TOP, N_ALL, bits, mask_of, parse_tile, set_size

MAX_RESHUFFLES = 10_000

#: the largest k * (k - 1) whose step pair gets a table (``fy_plan``)
PAIR_MAX = 1024

#: bytes to read, the single steps, the paired steps ``(i, k * i, table)``, the last single step
FisherYatesPlan = tuple[int, range, tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], int]
_FY_PLANS: dict[tuple[int, int], FisherYatesPlan] = {}


def csprng_shuffle(total: int, head: int = 1) -> tuple[list[int], int]:
    """``0 .. total - 1`` in random order, and a random number of at least 128 bits (a lot).
    The order among the first ``head`` items is left alone (they make one hand, a set): they are
    a uniformly random subset, the rest a uniformly random order of the other items.

    A Fisher-Yates shuffle driven by one integer read from ``os.urandom`` (the CSPRNG behind
    ``secrets``) and consumed by ``divmod``: the integer holds at least 128 bits more than
    ``log2(total!)``, so each order is as likely as any other but for a relative bias below
    2**-128, and what is left of it (128 bits or more) is the lot. One system call per shuffle.
    Small steps are taken two at a time (``fy_plan``): the same draws, the same order."""
    tiles = list(range(total))
    return tiles, shuffle_in_place(tiles, head)


def fy_plan(total: int, head: int) -> FisherYatesPlan:
    """How ``shuffle_in_place`` shuffles ``total`` items: bytes to read, the steps done one at a
    time (``i`` from ``total - 1`` down, each ``divmod(x, i + 1)``), then the steps done two at a
    time: ``(i, k * i, table)`` with ``k = i + 1`` and ``table[r] = (r % k, r // k)``, which is
    what ``divmod(x, k)`` then ``divmod(x // k, k - 1)`` take from ``x``, in one
    ``divmod(x, k * i)`` (the same draws, so the same order, for half the big-int divisions);
    then one last single step ``i`` (-1: none)."""
    stop = head - 1 if head > 0 else 0
    steps = list(range(total - 1, stop, -1))
    big = [i for i in steps if (i + 1) * i > PAIR_MAX]
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


def shuffle_in_place(items: list[int], head: int) -> int:
    """``csprng_shuffle`` of any list, in place (the deal shuffles the tiles' bits): the lot."""
    total = len(items)
    plan = _FY_PLANS.get((total, head))
    if plan is None:
        plan = _FY_PLANS[total, head] = fy_plan(total, head)
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


def seeded_shuffle(seed: int, hand: int, k: int, total: int) -> tuple[list[int], int]:
    """Deal ``k`` of hand ``hand`` of a seeded match: the tile ids ``0 .. total - 1`` sorted by
    one 32-bit key each from SHAKE-256 of (seed, hand, k), and one more key for a lot."""
    data = hashlib.shake_256(f"domino:{seed}:{hand}:{k}".encode()).digest(4 * total + 4)
    keys = memoryview(data).cast("I").tolist()
    return sorted(range(total), key=keys.__getitem__), keys[total]


def wanted_doubles(opening: Opening, top: int) -> tuple[int, ...]:
    """The doubles that make a seat opener, best first."""
    if opening == "required_double":
        return (DOUBLE[top],)
    first = (DOUBLE[6],) if opening == "double_six" and top >= 6 else ()
    return first + tuple(DOUBLE[x] for x in range(top, -1, -1))


#: ``wanted_doubles`` of every opening and set
WANTED: dict[tuple[Opening, int], tuple[int, ...]] = {
    (o, top): wanted_doubles(o, top) for o in OPENING for top in range(MAX_TOP + 1)
}


def find_opener(
    rules: Ruleset,
    hands: list[int],
    x: int,
    wanted: tuple[int, ...],
    all_dealt: bool,
    leader: int,
) -> tuple[int, int] | None:
    """The opener of a dealt hand and the tile they must lead (-1: any), or None when the deal
    must be reshuffled. ``x``: the shuffle's lot; ``wanted``: ``wanted_doubles`` of the rules;
    ``all_dealt``: every tile of the set is in a hand; ``leader``: the previous winner who leads
    this hand (-1: none)."""
    if leader >= 0:
        return leader, -1
    if rules.opening == "engine":  # trains: the station is set by ``trains.search``
        return 0, -1
    if rules.opening == "lot":
        return x % rules.players, -1
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
            return holder(hands, tid), tid
    if rules.no_double == "reshuffle":
        return None
    best = max(bits(held), key=HEAVY_KEY.__getitem__)
    return holder(hands, best), best


#: 1 << id per tile id (a list: its __getitem__ is quicker to call)
_BIT_LIST = [1 << i for i in range(N_ALL)]


def deal_hand(
    rules: Ruleset,
    dealing: tuple[int, tuple[slice, ...], int, tuple[int, ...]],
    seed: int | None,
    hand_number: int,
    fixed: tuple[list[int], list[int]] | None,
    leader: int,
    too_many_doubles: Callable[[Ruleset, list[int]], bool],
) -> tuple[list[int], list[int], tuple[int, int], int]:
    """Deal hand ``hand_number`` until the opening rule takes the deal (and
    ``too_many_doubles`` does not throw it in): the hands (bitmasks), the boneyard (top first),
    the opener and the tile they must lead (``find_opener``), and the re-deals it took.
    ``dealing``: the kit's (set size, hand slices, tiles dealt, wanted doubles); ``fixed``: a
    dev deal, for the first deal; ``leader``: the seat that leads any tile (-1: the rule)."""
    total, slices, dealt_n, wanted = dealing
    n = rules.players
    drawn_by_lot = rules.opening == "pair_lot"  # one lot a hand, kept through its redeals
    redeals = rules.redeal_doubles is not None
    reshuffles = 0
    while True:
        dealt: list[int] | tuple[int, ...]  # 1 << id per tile, in the shuffled order
        if seed is None:  # the same shuffle as ``csprng_shuffle``, of the tiles' bits
            dealt = _BIT_LIST[:total]
            x = shuffle_in_place(dealt, rules.hand_size)
            rest = [b.bit_length() - 1 for b in dealt[dealt_n:]] if dealt_n < total else []
        else:
            tiles, x = seeded_shuffle(seed, hand_number, reshuffles, total)
            dealt = itemgetter(*tiles)(_BIT_LIST)  # (28+ tiles)
            rest = tiles[dealt_n:]
        if fixed is not None and reshuffles == 0:
            hands, rest = fixed
        else:  # a loop: 20 % fewer instructions than list(map(sum, map(getitem, ...)))
            hands = []
            for part in slices:
                hands.append(sum(dealt[part]))
        if drawn_by_lot and leader < 0:
            leader = x % n
        found = find_opener(rules, hands, x, wanted, dealt_n == total, leader)
        if found is not None and redeals and too_many_doubles(rules, hands):
            found = None  # thrown in: dealt again
        if found is not None:
            return hands, rest, found, reshuffles
        reshuffles += 1
        if reshuffles > MAX_RESHUFFLES:
            raise InvalidInput("No deal satisfies the opening rule: change the rules.")


def holder(hands: list[int], tid: int) -> int:
    """The seat whose hand holds tile ``tid``."""
    for s, m in enumerate(hands):
        if m >> tid & 1:
            return s
    raise AssertionError("tile not held")


def check_deal(rules: Ruleset, deal: Any) -> tuple[list[int], list[int]]:
    """Validate a fixed first deal: one list per seat of the hand size, real distinct tiles that
    with the boneyard make up the whole set (boneyard left out: the rest, in id order). Returns
    the hands (bitmasks) and the boneyard, top first. ``by_seat`` may stand for ``hands``: a
    record's deal, the tiles by seat (``{"0": [...], "1": [...]}``)."""
    if isinstance(deal, dict) and isinstance(deal.get("by_seat"), dict) and "hands" not in deal:
        by_seat = deal["by_seat"]
        deal = {**deal, "hands": [by_seat.get(str(s)) for s in range(rules.players)]}
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise InvalidInput(
            "deal must be an object with hands (a list of tiles per seat) and boneyard."
        )
    n, h, top = rules.players, rules.hand_size, rules.set
    hands_in = deal["hands"]
    if len(hands_in) != n:
        raise InvalidInput("deal.hands must hold {count} hands.", count=n)
    seen: set[int] = set()
    hands: list[int] = []
    for hand in hands_in:
        if not isinstance(hand, list) or len(hand) != h:
            raise InvalidInput("Each hand of the deal must hold {count} tiles.", count=h)
        ids = [parse_tile(t, top).id for t in hand]
        for t in ids:
            if t in seen:
                raise InvalidInput("The deal holds a tile twice.")
            seen.add(t)
        hands.append(mask_of(ids))
    total = set_size(top)
    bone_in = deal.get("boneyard")
    if bone_in is None:
        rest = [t for t in range(total) if t not in seen]
    else:
        if not isinstance(bone_in, list):
            raise InvalidInput("deal.boneyard must be a list of tiles.")
        rest = [parse_tile(t, top).id for t in bone_in]
        for t in rest:
            if t in seen:
                raise InvalidInput("The deal holds a tile twice.")
            seen.add(t)
        if len(seen) != total:
            raise InvalidInput(
                "The deal must hold every tile of the double-{set} set once.", set=top
            )
    return hands, rest


def check_dev_deal(rules: Ruleset, deal: Any) -> tuple[tuple[list[int], list[int]] | None, int]:
    """A dev deal (``Match.start``'s ``deal``): the fixed hands and boneyard (None: shuffled),
    and the seat every lot of the match draws (``check_lot``; -1: the shuffle's)."""
    if deal is None:
        return None, -1
    lot = check_lot(rules, deal)
    fixed = lot is None or "hands" in deal or "by_seat" in deal
    return (check_deal(rules, deal) if fixed else None), -1 if lot is None else lot


def check_lot(rules: Ruleset, deal: Any) -> int | None:
    """A dev deal's ``lot``: the seat every lot of the match draws (None: the shuffle's lot)."""
    if not isinstance(deal, dict) or "lot" not in deal:
        return None
    lot = deal["lot"]
    if rules.opening not in ("lot", "pair_lot"):
        raise InvalidInput("deal.lot needs rules that draw a lot (opening lot or pair_lot).")
    if not isinstance(lot, int) or isinstance(lot, bool) or not 0 <= lot < rules.players:
        raise InvalidInput("deal.lot must be a seat, 0 to {max}.", max=rules.players - 1)
    return lot


__all__ = [
    "MAX_RESHUFFLES",
    "PAIR_MAX",
    "WANTED",
    "check_deal",
    "check_dev_deal",
    "check_lot",
    "csprng_shuffle",
    "deal_hand",
    "find_opener",
    "fy_plan",
    "holder",
    "seeded_shuffle",
    "shuffle_in_place",
    "wanted_doubles",
]
