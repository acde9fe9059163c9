"""Correspondence comfort: how many moves a person has to make in a two-player correspondence
match, and how many the server makes for them with forced moves on (``PATCH /me
{"auto_forced": true}``).

    python bench/comfort.py [--matches N] [--tree PATH] [--json FILE]

Per preset that two people play: ``--matches`` whole matches (default 200) of two people who
choose as the strategist does. Each turn of a person counts once (a turn of several moves, as
Mexican Train's doubles make, counts each move). A turn is forced when it offers exactly one
thing to do (``engine.forced.only_move``): the write path then makes it for a player who asked
(``writes.run_bots`` calls ``Match.apply_forced``, the same code path measured here). It prints,
per person and match, the moves made, the forced ones among them, and what is left to make by
hand: the moves a person must make with and without the setting.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _tree import add_common_arguments, banner, footer, use_tree, write_json

#: the presets two people play, measured
PRESETS = ("dos-jugadores", "ida-y-vuelta", "all-fives", "muggins", "tren-mexicano")


def play_match(pid: str, seed: int) -> tuple[int, int]:
    """One match of two strategist people, forced moves made by ``apply_forced``: (moves the
    people made, of which forced), over both seats."""
    from domino.engine import Match, choose_move, only_move, resolve_rules

    match = Match.start(resolve_rules(pid, 2), seed=seed, at=0)
    moves = forced = 0
    k = 0
    while match.status == "playing":
        seat = match.turn
        assert seat is not None
        moves += 1
        if only_move(match) is not None:
            forced += 1
            match.apply_forced(seat, k)
        else:
            match.apply(seat, choose_move(match, seat, "strategist", seed=k), k)
        k += 1
    return moves, forced


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    banner("bench/comfort.py", tree)
    started = time.perf_counter()
    print(
        f"\n{args.matches} matches a preset, 2 people (strategist choices); per person and "
        "match, median (mean)"
    )
    print(f"{'preset':16} {'moves':>14} {'forced':>14} {'by hand':>14} {'saved':>7}")
    figures: dict[str, Any] = {}
    for pid in PRESETS:
        per_person = [play_match(pid, seed) for seed in range(args.matches)]
        moves = [m / 2 for m, _ in per_person]
        forced = [f / 2 for _, f in per_person]
        by_hand = [m - f for m, f in zip(moves, forced, strict=True)]
        saved = sum(forced) / sum(moves)
        figures[pid] = {
            "moves": statistics.mean(moves),
            "forced": statistics.mean(forced),
            "by_hand": statistics.mean(by_hand),
            "saved_share": saved,
        }
        print(f"{pid:16} {_cell(moves):>14} {_cell(forced):>14} {_cell(by_hand):>14} {saved:>6.1%}")
    print(
        "\nmoves: every move a person makes in the match; forced: those with one thing to do,"
        " which the server makes at once with auto_forced on; by hand: what is left to them"
    )
    write_json(args.json, figures)
    footer(started)


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({statistics.mean(values):.1f})"


if __name__ == "__main__":
    main()
