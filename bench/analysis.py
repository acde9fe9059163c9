"""Analysis: seconds and dollars per finished match at the production budget (engine/analysis.py:
``WORLDS`` worlds a decision, at most ``MAX_DECISIONS`` decisions a match), per preset.

    python bench/analysis.py [--matches N] [--tree PATH] [--json FILE]

Per preset: ``--matches`` whole matches (default 5) of strategist bots at the preset's smallest
table, seed varying, with every seat counted a person (the most decisions an analysis can
have); each is analysed as functions/analysis does it, timed on this machine. Dollars at
us-east-1 list prices for the function as the template sizes it (1,769 MB, one whole vCPU:
about this machine's one core), $0.0000166667 a GB-second and $0.20 a million requests, plus
the SQS job ($0.40 a million); the DynamoDB reads and the kept item (about 1 WRU) are left out
(under a cent per thousand matches).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _tree import add_common_arguments, banner, footer, use_tree, write_json

PRESETS = (
    ("dos-jugadores", 2),
    ("clasico", 4),
    ("parejas-111", 4),
    ("all-fives", 2),
    ("cubano", 4),
    ("tren-mexicano", 4),
)
GB = 1769 / 1024
GB_SECOND = 0.0000166667
PER_INVOCATION = 0.20 / 1e6 + 0.40 / 1e6


def whole_match(preset: str, players: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    from domino.engine import Match, choose_move, resolve_rules
    from domino.engine.movelog import held

    m = Match.start(resolve_rules(preset, players), seed=seed, at=0)
    moves: list[dict[str, Any]] = []
    at = 0
    while m.status == "playing" and m.turn is not None:
        hand = m.hand_number
        at += 5
        m.apply(m.turn, choose_move(m, m.turn, "strategist", seed=at), at)
        if m.hand_number != hand:
            moves += [dict(r) for r in m.previous_hand_moves]
    moves += [dict(r) for r in held(m)][len(m.prev_log) :]
    return m, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5)
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    banner("analysis", tree)
    started = time.perf_counter()
    from domino.engine.analysis import MAX_DECISIONS, WORLDS, analyse

    print(f"budget: {WORLDS} worlds a decision, at most {MAX_DECISIONS} decisions a match")
    print("preset            players  decisions  skipped  s/match p50  s/match max  $/1,000")
    rows = []
    for preset, players in PRESETS:
        seconds, decisions, skipped = [], [], []
        for k in range(args.matches):
            m, moves = whole_match(preset, players, 1000 + k)
            began = time.perf_counter()
            found = analyse(m.rules, moves, seed=m.seed, people=set(range(players)), at=0)
            seconds.append(time.perf_counter() - began)
            decisions.append(len(found.decisions))
            skipped.append(found.skipped)
        mean = statistics.mean(seconds)
        dollars = (mean * GB * GB_SECOND + PER_INVOCATION) * 1000
        row = {
            "preset": preset,
            "players": players,
            "decisions": statistics.mean(decisions),
            "skipped": statistics.mean(skipped),
            "seconds_p50": statistics.median(seconds),
            "seconds_max": max(seconds),
            "dollars_per_1000": dollars,
        }
        rows.append(row)
        print(
            f"{preset:<17} {players:>7}  {row['decisions']:>9.0f}  {row['skipped']:>7.0f}"
            f"  {row['seconds_p50']:>11.2f}  {row['seconds_max']:>11.2f}  {dollars:>7.2f}"
        )
    write_json(args.json, {"rows": rows})
    footer(started)


if __name__ == "__main__":
    main()
