"""Tiles, the sets they come in, and the tables the hot path uses.

A set "double-N" holds every pair (a, b) with 0 <= a <= b <= N (double-6 = 28 tiles, double-9 = 55,
double-12 = 91, double-15 = 136). A tile is written ``"a-b"`` with a <= b; ``"5-3"`` is read as
``3-5``. The pips of a tile are a + b.

Inside the engine a tile is a small int, its *id*: ``b * (b + 1) // 2 + a``. Ids are ordered so
that the double-N set is exactly the ids ``0 .. size(N) - 1``, whatever N is; a hand is an int
bitmask of ids. The tables below (halves, pips, suit masks) are computed once at import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import add, getitem

from .errors import InvalidInput

MAX_TOP = 15
SETS = (6, 9, 12, 15)


def set_size(top: int) -> int:
    """Number of tiles in the double-``top`` set."""
    return (top + 1) * (top + 2) // 2


def tile_id(a: int, b: int) -> int:
    """The id of tile (a, b), halves in any order."""
    if a > b:
        a, b = b, a
    return b * (b + 1) // 2 + a


@dataclass(frozen=True, slots=True)
class Tile:
    """One domino: halves ``a <= b`` (normalised on construction), ``str(tile) == "a-b"``."""

    a: int
    b: int
    id: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        a, b = self.a, self.b
        if not (isinstance(a, int) and isinstance(b, int)) or not (
            0 <= a <= MAX_TOP and 0 <= b <= MAX_TOP
        ):
            raise ValueError("tile halves must be ints from 0 to 15")
        if a > b:
            object.__setattr__(self, "a", b)
            object.__setattr__(self, "b", a)
            a, b = b, a
        object.__setattr__(self, "id", b * (b + 1) // 2 + a)

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        return self.a == self.b

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


#: every tile of the largest set, indexed by id
TILES: tuple[Tile, ...] = tuple(Tile(a, b) for b in range(MAX_TOP + 1) for a in range(b + 1))
N_ALL = len(TILES)
#: per id: low half, high half, pips, text
LOW: tuple[int, ...] = tuple(t.a for t in TILES)
HIGH: tuple[int, ...] = tuple(t.b for t in TILES)
PIPS: tuple[int, ...] = tuple(t.a + t.b for t in TILES)
TEXT: tuple[str, ...] = tuple(str(t) for t in TILES)
#: ``SUIT[x]``: bitmask of the tiles holding the number x
SUIT: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if x in (t.a, t.b)) for x in range(MAX_TOP + 1)
)
#: ``DOUBLE[x]``: id of x-x
DOUBLE: tuple[int, ...] = tuple(tile_id(x, x) for x in range(MAX_TOP + 1))
#: sort key for showing a hand: by low half, then high half ("0-1", "1-3", "2-5", "3-3")
SHOW_KEY: tuple[tuple[int, int], ...] = tuple((t.a, t.b) for t in TILES)
#: "heaviest" key: pip sum, then the higher half (6-5, 6-4, 6-3, 5-4, 6-2, 5-3, ...)
HEAVY_KEY: tuple[tuple[int, int], ...] = tuple((t.a + t.b, t.b) for t in TILES)
_BY_TEXT = {str(t): t for t in TILES}
#: (weight, mask) pairs: pips(hand) = sum(weight * popcount(hand & mask)), one per bit of a half
PIP_PLANES: tuple[tuple[int, int], ...] = tuple(
    (1 << k, sum(1 << i for i, t in enumerate(TILES) if t.a >> k & 1)) for k in range(4)
) + tuple((1 << k, sum(1 << i for i, t in enumerate(TILES) if t.b >> k & 1)) for k in range(4))


def _pip_bytes() -> tuple[tuple[int, ...], ...]:
    """``PIP_BYTES[k][v]``: pips of the tiles whose bits are ``v``'s bits at byte ``k`` of a mask
    (each table built from the one with the lowest bit cleared: 17 x 256 additions)."""
    out = []
    for k in range((N_ALL + 7) // 8):
        table = [0] * 256
        for v in range(1, 256):
            low = (v & -v).bit_length() - 1
            tid = 8 * k + low
            table[v] = table[v & (v - 1)] + (PIPS[tid] if tid < N_ALL else 0)
        out.append(tuple(table))
    return tuple(out)


#: per byte of a mask (little-endian), per byte value: the pips of those tiles
PIP_BYTES: tuple[tuple[int, ...], ...] = _pip_bytes()


def pips_of(mask: int) -> int:
    """Pips of every tile in a bitmask."""
    total = 0
    for weight, plane in PIP_PLANES:
        total += weight * (mask & plane).bit_count()
    return total


def _pip_halves() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Pips of a double-6 mask's tiles 0-13 (by its bits 0-13) and 14-27 (by ``mask >> 14``):
    each table of 16384 is the sum of two 7-bit tables, added in C (about 1 ms at import)."""
    sevens = []
    for base in range(0, 28, 7):
        table = [0] * 128
        for v in range(1, 128):
            table[v] = table[v & (v - 1)] + PIPS[base + (v & -v).bit_length() - 1]
        sevens.append(tuple(table))
    high = [chain.from_iterable(map(repeat, t, repeat(128))) for t in sevens[1::2]]
    lo, hi = (tuple(map(add, t * 128, h)) for t, h in zip(sevens[::2], high, strict=True))
    return lo, hi


#: ``_PIP_HALVES[0][mask & 16383] + _PIP_HALVES[1][mask >> 14]``: the pips of a double-6 mask
_PIP_HALVES = _pip_halves()


def pips_by_seat(hands: list[int], top: int) -> list[int]:
    """Pips left in each hand (bitmasks of a double-``top`` set), by tables: two per 28-tile
    hand (``_PIP_HALVES``), one a byte for the larger sets."""
    if top == 6:  # 28 tiles: two lookups of 14 bits, not four bytes, for half the instructions
        lo, hi = _PIP_HALVES
        out = []
        for h in hands:  # a loop: a list comprehension's own frame costs more for a few hands
            out.append(lo[h & 16383] + hi[h >> 14])
        return out
    size = (set_size(top) + 7) // 8
    return [sum(map(getitem, PIP_BYTES, h.to_bytes(size, "little"))) for h in hands]


def other_half(tid: int, pips: int) -> int:
    """The half of tile ``tid`` left open when it is laid against ``pips``."""
    return HIGH[tid] if LOW[tid] == pips else LOW[tid]


def bits(mask: int) -> list[int]:
    """Ids in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(ids: list[int] | tuple[int, ...]) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def full_set(top: int) -> list[Tile]:
    """Every tile of the double-``top`` set, in id order (0-0, 0-1, 1-1, 0-2, ...)."""
    if top not in SETS and not (isinstance(top, int) and 0 <= top <= MAX_TOP):
        raise InvalidInput("There is no double-{set} set.", set=top)
    return list(TILES[: set_size(top)])


def parse_tile(text: str, top: int) -> Tile:
    """Read ``"a-b"`` (either order) as a tile of the double-``top`` set, else ``InvalidInput``."""
    if not isinstance(text, str):
        raise InvalidInput("A tile is written as text: two numbers joined by a hyphen.")
    parts = text.strip().split("-")
    # ASCII digits only: isdigit() also takes "²" (which int() refuses) and any script's digits
    numbers = [p.strip() for p in parts]
    if len(parts) != 2 or not all(n.isascii() and n.isdigit() and len(n) <= 2 for n in numbers):
        raise InvalidInput("A tile is written as two numbers joined by a hyphen.")
    a, b = int(parts[0]), int(parts[1])
    if a > b:
        a, b = b, a
    if b > top:
        raise InvalidInput("That tile is not in the double-{set} set.", set=top)
    return TILES[tile_id(a, b)]


def show(ids: list[int] | tuple[int, ...]) -> list[str]:
    """Tile texts in display order."""
    return [TEXT[i] for i in sorted(ids, key=SHOW_KEY.__getitem__)]


def show_mask(mask: int) -> list[str]:
    return show(bits(mask))


def heaviest(mask: int) -> int:
    """The heaviest tile id in a non-empty bitmask (pip sum, then the higher half)."""
    return max(bits(mask), key=HEAVY_KEY.__getitem__)


__all__ = [
    "DOUBLE",
    "HEAVY_KEY",
    "HIGH",
    "LOW",
    "PIPS",
    "PIP_BYTES",
    "SETS",
    "SUIT",
    "TEXT",
    "TILES",
    "Tile",
    "bits",
    "full_set",
    "heaviest",
    "mask_of",
    "other_half",
    "parse_tile",
    "pips_by_seat",
    "pips_of",
    "set_size",
    "show",
    "show_mask",
    "tile_id",
]
