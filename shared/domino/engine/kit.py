"""What a ruleset fixes for the hot path, computed once per ruleset and kept: the "kit".

- Per layout (built the first time a game of that layout needs it: a cold start of a Lambda
  function pays only for the layouts it plays): the shared, immutable ``Play`` objects per tile and
  arm that ``legal_moves`` hands out, the table ``apply`` recognises them by (``move.fast_key`` ->
  tile, arm, bit, pips; a draw or a pass -> None), and the legal-move cache (per arm:
  the tiles of one suit a hand holds -> their Play objects on that arm, bounded).
- Per ruleset (``kit_of``, a ``Kit``): those tables, the seat order, the tiles never drawn, the
  layout and how its arms grow, and for the deal: the set size, the slices of a shuffled set that
  make the hands, the tiles dealt, the doubles that make a seat opener (best first). The last
  Ruleset object's kit is reused by identity.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Literal, TypeVar

from .deal import WANTED
from .layouts import LAYOUTS, Layout
from .moves import Draw, Pass, Play
from .rules import Ruleset
from .tiles import PIPS, TILES, bits, set_size

#: the shared Play objects of a layout: ``plays[tile id][arm + 1]`` (arm -1: the first tile)
Plays = list[list[Play]]
#: tile id, arm (-1: the first tile), ``1 << tile id``, pips
PlayInfo = tuple[int, int, int, int]
#: per arm: submask of one suit -> the Play objects it yields on that arm
LegalCache = tuple[dict[int, tuple[Play, ...]], ...]
#: how a tile grows an arm: ``Layout.grow`` of the layout
Grow = Callable[[list[int], list[int], int, int], tuple[int, ...]]

#: entries of the legal-move cache per layout, over all its arms
LEGAL_CACHE_MAX = 20_000

_V = TypeVar("_V")


class _PerLayout(dict[str, _V]):
    """A table built for a layout the first time a game of that layout needs it."""

    def __init__(self, build: Callable[[str], _V]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, layout: str) -> _V:
        value = self[layout] = self._build(layout)
        return value


#: ``Play.fast_key`` of each shared Play object made (0, 1, 2: any other Play, ``Draw``, ``Pass``)
_FAST_KEYS = itertools.count(3)


def _shared_plays(layout: str) -> Plays:
    plays = [[Play(t, None)] + [Play(t, name) for name in LAYOUTS[layout].names] for t in TILES]
    for row in plays:
        for play in row:
            # frozen for everyone else: its key is set here, once, before any caller sees it
            object.__setattr__(play, "fast_key", next(_FAST_KEYS))
    return plays


#: Play objects per (tile id, arm + 1) for every layout: shared, immutable
PLAYS: dict[str, Plays] = _PerLayout(_shared_plays)

#: what ``Match.apply``'s fast path finds at ``move.fast_key`` (a list subscript by an attribute:
#: a third of the time of a dict by ``id(move)``): a shared Play object of the table's layout ->
#: its ``PlayInfo``; the ``Draw`` and ``Pass`` keys -> None; any other key -> False, or past the end
FastTable = list[PlayInfo | Literal[False] | None]


def _fast_table(layout: str) -> FastTable:
    plays = PLAYS[layout]
    table: FastTable = [False] * (max(p.fast_key for row in plays for p in row) + 1)
    table[Draw.fast_key] = table[Pass.fast_key] = None
    for t, row in enumerate(plays):
        for arm, play in enumerate(row):
            table[play.fast_key] = (t, arm - 1, 1 << t, PIPS[t])
    return table


#: the ``FastTable`` of each layout's shared Play objects (the expert reads them there too)
PLAY_INFO: dict[str, FastTable] = _PerLayout(_fast_table)

#: the fast path's table of a ruleset that scores during play: a draw or a pass only
_NO_FAST_PLAYS: FastTable = [
    None if k in (Draw.fast_key, Pass.fast_key) else False for k in range(3)
]

#: per layout, per arm: submask of one suit -> the Play objects it yields on that arm (bounded)
LEGAL_CACHE: dict[str, LegalCache] = {
    name: tuple({} for _ in layout.names) for name, layout in LAYOUTS.items()
}


def legal_plays(cache: LegalCache, plays: Plays, m: int, arm: int) -> tuple[Play, ...]:
    """The shared Play objects for the tiles of mask ``m`` on ``arm`` (cached while there is
    room)."""
    arm_cache = cache[arm]
    got = arm_cache.get(m)
    if got is None:
        got = tuple(plays[t][arm + 1] for t in bits(m))
        if len(arm_cache) * len(cache) < LEGAL_CACHE_MAX:
            arm_cache[m] = got
    return got


#: what the deal needs of a ruleset: the tiles in the set, the slices of a shuffled set that make
#: each seat's hand, the tiles dealt to the hands, the doubles that make a seat opener (best first)
Dealing = tuple[int, tuple[slice, ...], int, tuple[int, ...]]

#: what a ruleset fixes for the hot path (``Match._blank`` unpacks it; plain tuples, as a
#: NamedTuple unpacks element by element): the Play objects, the table ``apply`` recognises
#: them by, the legal-move cache, the step to the next seat (1 clockwise, n - 1 the other way),
#: the next seat of each seat, the layout, its ``simple`` flag and its ``grow``, the tiles of the
#: boneyard never drawn (all of them under ``draw: none``), the play order from each seat, and
#: the ``Dealing``
Kit = tuple[
    Plays,
    FastTable,
    LegalCache,
    int,
    tuple[int, ...],
    Layout,
    bool,
    Grow,
    int,
    tuple[tuple[int, ...], ...],
    Dealing,
]


def make_kit(rules: Ruleset) -> Kit:
    """The kit of ``rules`` (see the module doc)."""
    n = rules.players
    h = rules.hand_size
    step = 1 if rules.direction == "clockwise" else n - 1
    layout = LAYOUTS[rules.layout]
    return (
        PLAYS[rules.layout],
        # a play that scores during play (``in_play``) takes ``Match._apply``'s full path, as
        # every move of a trains layout does
        []
        if rules.layout == "trains"
        else PLAY_INFO[rules.layout]
        if rules.in_play is None
        else _NO_FAST_PLAYS,
        LEGAL_CACHE[rules.layout],
        step,
        tuple((s + step) % n for s in range(n)),
        layout,
        layout.simple,
        layout.grow,
        1 << 30 if rules.draw == "none" else rules.reserve,
        tuple(tuple((first + i * step) % n for i in range(n)) for first in range(n)),
        (
            set_size(rules.set),
            tuple(slice(i, i + h) for i in range(0, n * h, h)),
            n * h,
            WANTED[rules.opening, rules.set],
        ),
    )


#: the kits made so far, by the ruleset fields they depend on
_KITS: dict[tuple[object, ...], Kit] = {}
#: the Ruleset object ``kit_of`` saw last and its kit (a match deals and re-deals with one)
_last: tuple[Ruleset | None, Kit | None] = (None, None)


def kit_of(rules: Ruleset) -> Kit:
    """The kit of ``rules``: the last one again for the same Ruleset object, else the one made
    for equal fields, else a new one."""
    global _last
    last = _last  # the ruleset object of the last call and its kit, one tuple (threads)
    if last[0] is rules and last[1] is not None:
        return last[1]
    key = (
        rules.layout,
        rules.players,
        rules.direction,
        rules.draw,
        rules.reserve,
        rules.set,
        rules.hand_size,
        rules.opening,
        rules.in_play,
    )
    kit = _KITS.get(key)
    if kit is None:
        kit = _KITS[key] = make_kit(rules)
    _last = (rules, kit)
    return kit


__all__ = [
    "LEGAL_CACHE",
    "LEGAL_CACHE_MAX",
    "PLAYS",
    "PLAY_INFO",
    "Dealing",
    "FastTable",
    "Kit",
    "LegalCache",
    "PlayInfo",
    "Plays",
    "kit_of",
    "legal_plays",
    "make_kit",
]
