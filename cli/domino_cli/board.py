"""The board as text: tiles written ``[3|5]`` facing the way they were laid, doubles across.

A game view lists ``board.tiles`` in play order, each a normalised ``"a-b"`` with the ``end``
(arm) it was laid on; the halves' order is not stored, so it is rebuilt here by following each
arm's open pips from the first tile outwards. On a ``line`` the first tile a-b opens left = a and
right = b; on a ``cross`` or ``star`` the first tile is the opening double (the centre) and every
arm grows out of it; a ``spinner`` is a line, its spinner's ``north`` and ``south`` arms drawn
below it (docs/rules.md#ends); ``trains`` is the station, then one row per train (its owner, its
marker, the doubles waiting). Games that score during play add the count of the open ends.

A double is drawn standing across the line, three rows high, with its halves above and below::

         ┌5┐
    [3|5]│─│[5|6]
         └5┘
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: the arms of each layout, in the order they are drawn
ARMS: dict[str, tuple[str, ...]] = {
    "line": ("left", "right"),
    "spinner": ("left", "right", "north", "south"),
    "cross": ("north", "east", "south", "west"),
    "star": (
        "north",
        "east",
        "south",
        "west",
        "northeast",
        "southeast",
        "southwest",
        "northwest",
    ),
}


@dataclass(frozen=True)
class Piece:
    """A tile as it lies: ``first`` is the half drawn on the left (or nearer the centre)."""

    first: int
    second: int

    @property
    def double(self) -> bool:
        return self.first == self.second

    def rows(self) -> tuple[str, str, str]:
        """Three rows of equal width: a plain tile on the middle one, a double across all."""
        if self.double:
            pips = str(self.first)
            return f"┌{pips}┐", f"│{'─' * len(pips)}│", f"└{pips}┘"
        text = f"[{self.first}|{self.second}]"
        blank = " " * len(text)
        return blank, text, blank


def halves(tile: str) -> tuple[int, int]:
    low, high = tile.split("-")
    return int(low), int(high)


def laid(tile: str, open_pips: int) -> Piece:
    """``tile`` laid against ``open_pips``: that half first, the other half outwards."""
    low, high = halves(tile)
    return Piece(open_pips, high if low == open_pips else low)


def line_pieces(tiles: Sequence[Mapping[str, Any]]) -> list[Piece]:
    """A line's tiles from its left end to its right end (a spinner's arms left out)."""
    if not tiles:
        return []
    low, high = halves(tiles[0]["tile"])
    chain: deque[Piece] = deque([Piece(low, high)])
    left, right = low, high
    for placed in tiles[1:]:
        if placed["end"] in ("north", "south"):
            continue
        if placed["end"] == "left":
            piece = laid(placed["tile"], left)
            chain.appendleft(Piece(piece.second, piece.first))  # read left to right
            left = piece.second
        else:
            piece = laid(placed["tile"], right)
            chain.append(piece)
            right = piece.second
    return list(chain)


def arm_pieces(
    tiles: Sequence[Mapping[str, Any]], arms: Iterable[str], centre: int | None = None
) -> dict[str, list[Piece]]:
    """A cross's or star's tiles by arm, each arm from the centre outwards (the centre, the
    first tile, not included); ``centre``: the number the arms start from (a spinner's, a
    station's: then every tile lies on an arm), else the first tile's."""
    by_arm: dict[str, list[Piece]] = {arm: [] for arm in arms}
    if not tiles:
        return by_arm
    if centre is None:
        centre, _ = halves(tiles[0]["tile"])
    open_pips = dict.fromkeys(by_arm, centre)
    for placed in tiles if centre is not None and tiles[0]["end"] else tiles[1:]:
        arm = placed["end"]
        if arm not in by_arm:
            continue  # another arm's (a spinner's line)
        piece = laid(placed["tile"], open_pips[arm])
        by_arm[arm].append(piece)
        open_pips[arm] = piece.second
    return by_arm


def draw_pieces(pieces: Sequence[Piece], width: int) -> list[str]:
    """The pieces side by side, wrapped to ``width`` columns; rows with nothing on them (no
    double in that stretch) are left out."""
    lines: list[str] = []
    row: list[tuple[str, str, str]] = []
    used = 0
    for piece in pieces:
        drawn = piece.rows()
        if row and used + len(drawn[1]) > width:
            lines += _joined(row)
            row, used = [], 0
        row.append(drawn)
        used += len(drawn[1])
    if row:
        lines += _joined(row)
    return lines


def _joined(row: list[tuple[str, str, str]]) -> list[str]:
    joined = ["".join(parts[i] for parts in row) for i in range(3)]
    return [text.rstrip() for text in joined if text.strip()]


def draw_board(board: Mapping[str, Any], layout: str, width: int = 80) -> list[str]:
    """The whole board as lines of text: a line left to right, or the centre and then each
    arm on its own line with the pips it shows (``·`` for an arm not open yet)."""
    tiles = board.get("tiles") or []
    if not tiles:
        return ["(the board is empty)"]
    ends = {end["end"]: end["pips"] for end in board.get("ends") or []}
    count = f" · count {board['count']}" if "count" in board else ""
    if layout == "trains":
        return draw_station(board, width)
    if layout in ("line", "spinner"):
        pieces = line_pieces(tiles)
        lines = draw_pieces(pieces, width)
        left, right = ends.get("left", "·"), ends.get("right", "·")
        spinner = board.get("spinner")
        if layout == "spinner" and spinner:
            lines.append(f"spinner {spinner}")
            label_width = len("north") + 1
            low, _ = halves(spinner)
            for arm, pieces in arm_pieces(tiles, ("north", "south"), low).items():
                shows = ends.get(arm)
                tail = f"  → {shows}" if shows is not None else "  (not open yet)"
                drawn = draw_pieces(pieces, max(width - label_width - 20, 10)) or ["·"]
                lines += labelled(arm, drawn, label_width, tail)
        return [*lines, f"ends: left {left} · right {right}{count}"]
    arms = ARMS.get(layout, ARMS["star"])
    label_width = max(len(name) for name in (*arms, "centre")) + 1
    centre = Piece(*halves(tiles[0]["tile"]))
    lines = labelled("centre", _joined([centre.rows()]), label_width, "")
    for arm, pieces in arm_pieces(tiles, arms).items():
        shows = ends.get(arm)
        tail = f"  → {shows}" if shows is not None else "  (not open yet)"
        drawn = draw_pieces(pieces, max(width - label_width - 20, 10)) or ["·"]
        lines += labelled(arm, drawn, label_width, tail)
    return lines


def draw_station(board: Mapping[str, Any], width: int = 80) -> list[str]:
    """A trains board: the station's engine, then each train from the station outwards, with
    its owner, the pips it shows, a marker (``*``: open to everyone) and ``!`` on a double
    that waits to be satisfied."""
    station = board.get("station") or "?"
    engine, _ = halves(station)
    waiting = {(p["end"], p["tile"]) for p in board.get("pending") or []}
    lines = [
        f"station {station}"
        + (f" · {board['search_passes']} search passes" if board.get("search_passes") else "")
    ]
    by_train = arm_pieces(
        board.get("tiles") or [], [e["end"] for e in board.get("ends") or []], engine
    )
    label_width = max([len(e["end"]) for e in board.get("ends") or []] + [7]) + 3
    for end in board.get("ends") or []:
        name = end["end"]
        label = name + ("*" if end.get("marker") else "")
        pieces = by_train.get(name, [])
        drawn = draw_pieces(pieces, max(width - label_width - 20, 10)) or ["·"]
        doubles = [t for (e, t) in waiting if e == name]
        tail = f"  → {end['pips']}" + (f"  ! {', '.join(doubles)}" if doubles else "")
        lines += labelled(label, drawn, label_width, tail)
    turn = board.get("this_turn")
    if turn:
        did = ", ".join(turn["doubles"]) or "no double"
        lines.append(f"this turn: {did}" + (", drew" if turn.get("drew") else ""))
    return lines


def labelled(label: str, drawn: list[str], width: int, tail: str) -> list[str]:
    """``drawn`` behind a column of ``width``: ``label`` on the row the line runs through (not
    a double's top half), ``tail`` after the last row."""
    middle = next((i for i, text in enumerate(drawn) if not text.lstrip().startswith("┌")), 0)
    return [
        f"{label if i == middle else '':<{width}}{text}{tail if i == len(drawn) - 1 else ''}"
        for i, text in enumerate(drawn)
    ]
