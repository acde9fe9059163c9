"""The layouts: which ends a board has, how the first tile opens them, how an arm grows.

A board has one *arm* per end name; ``ends[arm]`` is the number an arm shows (the pips a tile
laid there must match) and ``open_arms`` the arms that take a tile now (empty: the board is
empty). A layout is a small stateless object; the match keeps the state (``ends``, ``arm_len``,
``open_arms``) and asks its layout how a tile changes it.

- ``line`` (``LINE``): ends ``left`` and ``right``; a first tile a-b opens left = a, right = b.
  Both ends stay open; a double lies across the line and changes no rule.
- ``cross`` (``CROSS``): the opening double opens ``north``, ``east``, ``south``, ``west``; while
  any of them is uncovered only the uncovered arms take a tile (S0 cruzado).
- ``star`` (``STAR``): the four sides as on a cross, then the diagonals ``northeast``,
  ``southeast``, ``southwest``, ``northwest`` open once all four sides are covered; a covered side
  may grow at any time (S0 Chipre).
- ``spinner`` (``SPINNER``): a line until a double is laid; the first double of the hand, led or
  not, is the spinner, and ``north`` and ``south`` open on it once both its sides touch a tile.
  Every open arm grows at any time (All Fives, docs/rules.md).
- ``trains`` (``TRAINS``): a station holding the round's engine double, one personal train per
  seat (``train-0`` ... ``train-7``) and the Mexican train (``mexican``), every one starting at
  the engine's number. Who may lay where, markers and doubles that must be satisfied are the
  ``trains`` module's: the layout only says what each train shows.

Cross and star open with a double (``opens_with_double``): ``rules.check_rules`` refuses the
openings that could lead anything else.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from .errors import EndRequired, TileDoesNotMatch
from .tiles import HIGH, LOW, PIPS

#: the ruleset's ``layout`` values, in the order the encoding numbers them (never reorder: the
#: index is what an encoded state stores; add new layouts at the end)
LayoutName = Literal["line", "cross", "star", "spinner", "trains"]

SIDES: tuple[int, ...] = (0, 1, 2, 3)
EVERY_ARM_OF_A_STAR: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)


class Layout:
    """How the tiles of one layout lie. One instance per layout: ``LAYOUTS[rules.layout]``."""

    #: the ``layout`` value of the ruleset
    name: ClassVar[LayoutName]
    #: the end names, by arm (``end`` of a play, of a board tile, of a board end)
    names: ClassVar[tuple[str, ...]]
    #: two arms, both open from the first tile on, and growing an arm only changes the number
    #: it shows (no arm bookkeeping): the match's hot path then does it inline
    simple: ClassVar[bool] = False
    #: whether the first tile must be a double (it opens more than two arms)
    opens_with_double: ClassVar[bool] = True
    #: what ``arm_len`` holds beyond the tiles per arm (the layout's own bookkeeping)
    extra_state: ClassVar[int] = 0

    def __init__(self) -> None:
        #: end name -> arm
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        #: how many arms (ends) the board has
        self.arms: int = len(self.names)

    def empty(self) -> tuple[list[int], list[int]]:
        """An empty board's ``ends`` and ``arm_len`` (tiles per arm, then ``extra_state``)."""
        return [-1] * self.arms, [0] * (self.arms + self.extra_state)

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        """The first tile ``tid`` is laid: set ``ends`` (and ``arm_len``'s extra state),
        return the open arms."""
        raise NotImplementedError

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        """A tile was laid on ``arm`` (open), which now shows ``pips``: update ``ends`` and
        ``arm_len`` (tiles laid per arm), return the open arms."""
        raise NotImplementedError

    def lay(self, ends: list[int], arm_len: list[int], tid: int, arm: int) -> tuple[int, ...]:
        """Lay tile ``tid`` (already checked) on ``arm`` (-1: the first tile, on an empty board):
        update ``ends`` and ``arm_len``, return the open arms. A board replayed from a log's plays
        (the bots' reading of the table) is built with it; the match's hot path does the same
        inline."""
        if arm < 0:
            return self.open_first(ends, arm_len, tid)
        return self.grow(ends, arm_len, arm, PIPS[tid] - ends[arm])

    def shown(self, open_arms: tuple[int, ...]) -> range:
        """The arms a board view lists in ``ends`` (the board holds a tile)."""
        return range(len(self.names))

    def __repr__(self) -> str:
        return f"<Layout {self.name}>"


class Line(Layout):
    """Two ends, ``left`` and ``right``."""

    name = "line"
    names = ("left", "right")
    simple = True
    opens_with_double = False

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        ends[0], ends[1] = LOW[tid], HIGH[tid]
        return (0, 1)

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        ends[arm] = pips
        return (0, 1)


class Cross(Layout):
    """Four sides from the opening double; no arm grows past its first tile until all four are
    covered."""

    name = "cross"
    names = ("north", "east", "south", "west")

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        for i in range(len(ends)):
            ends[i] = LOW[tid]
        return SIDES

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        ends[arm] = pips
        arm_len[arm] += 1
        if arm_len[0] and arm_len[1] and arm_len[2] and arm_len[3]:
            return SIDES
        return tuple(i for i in range(4) if not arm_len[i])


class Star(Layout):
    """Four sides from the opening double, then four diagonals once every side is covered."""

    name = "star"
    names = ("north", "east", "south", "west", "northeast", "southeast", "southwest", "northwest")

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        for i in range(len(ends)):
            ends[i] = LOW[tid]
        return SIDES

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        ends[arm] = pips
        arm_len[arm] += 1
        if arm_len[0] and arm_len[1] and arm_len[2] and arm_len[3]:
            return EVERY_ARM_OF_A_STAR
        return SIDES

    def shown(self, open_arms: tuple[int, ...]) -> range:
        """The sides, and the diagonals once they are open."""
        return range(8) if len(open_arms) == 8 else range(4)


#: the spinner's bookkeeping in ``arm_len``, after the four arms: how it lies (0: no spinner yet,
#: 1: led, 2: laid on ``left``, 3: laid on ``right``), and its arm's length once it was laid
_SPIN, _SPIN_AT = 4, 5
TWO_ARMS: tuple[int, ...] = (0, 1)


class Spinner(Layout):
    """A line whose first double (the spinner) opens ``north`` and ``south`` once both its sides
    touch a tile. A led spinner has both sides free; one laid on an end has the side facing the
    line covered already, and its other side is that end. Later doubles open nothing."""

    name = "spinner"
    names = ("left", "right", "north", "south")
    opens_with_double = False
    extra_state = 2

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        low, high = LOW[tid], HIGH[tid]
        ends[0], ends[1] = low, high
        if low == high:  # a led spinner
            ends[2] = ends[3] = low
            arm_len[_SPIN] = 1
        return TWO_ARMS

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        double = pips == ends[arm]  # a tile showing the number it matched is a double
        ends[arm] = pips
        arm_len[arm] += 1
        spin = arm_len[_SPIN]
        if not spin:
            if double:  # the first double of the hand, on ``left`` or ``right``
                arm_len[_SPIN], arm_len[_SPIN_AT] = arm + 2, arm_len[arm]
                ends[2] = ends[3] = pips
            return TWO_ARMS
        if spin == 1:
            covered = arm_len[0] > 0 and arm_len[1] > 0
        else:  # its line-facing side is covered; its other side, once a tile follows it
            covered = arm_len[spin - 2] > arm_len[_SPIN_AT]
        return SIDES if covered else TWO_ARMS

    def shown(self, open_arms: tuple[int, ...]) -> range:
        """``left`` and ``right``, and ``north`` and ``south`` once they are open."""
        return range(len(open_arms))

    @staticmethod
    def spinner_arm(arm_len: list[int]) -> int:
        """How the spinner lies: 0 none yet, 1 led, 2 on ``left``, 3 on ``right``."""
        return arm_len[_SPIN]


#: the trains' arm of the Mexican train (a seat's own train is its seat's arm)
MEXICAN = 8


class Trains(Layout):
    """A station (the round's engine) and nine trains: ``train-0`` ... ``train-7`` (a seat's
    own, by seat) and ``mexican``, each showing the engine's number until its first tile. The
    station is set by the deal (``open_station``), not laid; every train is an arm."""

    name = "trains"
    names = (*(f"train-{k}" for k in range(8)), "mexican")
    opens_with_double = False

    def open_station(self, ends: list[int], engine: int) -> None:
        """The station holds the double-``engine``: every train shows ``engine``."""
        for i in range(len(ends)):
            ends[i] = engine

    def open_first(self, ends: list[int], arm_len: list[int], tid: int) -> tuple[int, ...]:
        self.open_station(ends, LOW[tid])
        return EVERY_TRAIN

    def grow(self, ends: list[int], arm_len: list[int], arm: int, pips: int) -> tuple[int, ...]:
        ends[arm] = pips
        arm_len[arm] += 1
        return EVERY_TRAIN


EVERY_TRAIN: tuple[int, ...] = tuple(range(9))

LINE = Line()
CROSS = Cross()
STAR = Star()
SPINNER = Spinner()
TRAINS = Trains()


def arm_for(
    layout: Layout, open_arms: tuple[int, ...], ends: list[int], tid: int, end: str | None
) -> int:
    """The open arm a play of ``tid`` named ``end`` goes on (``TileDoesNotMatch``, and
    ``EndRequired`` for a tile that fits several and names none)."""
    a, b = LOW[tid], HIGH[tid]
    if end is not None:
        arm = layout.index[end]
        if arm not in open_arms or ends[arm] not in (a, b):
            raise TileDoesNotMatch("That tile does not fit that end.")
        return arm
    fits = [arm for arm in open_arms if ends[arm] == a or ends[arm] == b]
    if not fits:
        raise TileDoesNotMatch("That tile fits no open end.")
    if len(fits) > 1:
        raise EndRequired("That tile fits more than one end: say which end.")
    return fits[0]


#: every layout by its ``layout`` value (in ``LayoutName`` order)
LAYOUTS: dict[str, Layout] = {
    layout.name: layout for layout in (LINE, CROSS, STAR, SPINNER, TRAINS)
}
#: the end names of each layout, by arm
ARM_NAMES: dict[str, tuple[str, ...]] = {name: layout.names for name, layout in LAYOUTS.items()}

__all__ = [
    "ARM_NAMES",
    "CROSS",
    "LAYOUTS",
    "LINE",
    "MEXICAN",
    "SPINNER",
    "STAR",
    "TRAINS",
    "Cross",
    "Layout",
    "LayoutName",
    "Line",
    "Spinner",
    "Star",
    "Trains",
    "arm_for",
]
