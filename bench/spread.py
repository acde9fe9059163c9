"""Index write spread: how the sweeper's index (by_due) spreads timed games over its partitions.

    python bench/spread.py [--games N]

Makes N timed games in play (ids as the service makes them, ``secrets.token_urlsafe(16)``),
turns each into the item the store writes (``to_item``) and counts the items per ``due_shard``,
the index's partition key. A move of a timed game rewrites its index entry (``due`` is the sort
key: a delete and an insert, 2 write units, in the game's own partition), so the busiest
partition bounds how many timed moves a second the index takes: about 1,000 write units a
second per partition. It prints the counts, their spread (the busiest against the mean, and a
chi-square against an even spread) and that bound, beside a single-partition index's.
"""

from __future__ import annotations

import argparse
import math
import secrets
import time
from collections import Counter

from _tree import add_common_arguments, banner, footer, use_tree, write_json

PARTITION_WCU = 1000  # what one GSI partition takes a second
WCU_PER_MOVE = 2  # the entry's sort key changes: delete + insert


def chi_square_p(statistic: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty approximation)."""
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="timed games in play")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/spread.py", tree)

    from domino.store.records import DUE_SHARDS, OPEN_SHARDS, GameRecord, Seat, to_item

    at = 1_800_000_000
    counts: Counter[str] = Counter()
    open_counts: Counter[str] = Counter()
    for _ in range(args.games):
        record = GameRecord(
            id=secrets.token_urlsafe(16),
            version=7,
            status="playing",
            preset="dos-jugadores",
            config={"turn_timeout_hours": 24},
            seats=[Seat("p0", "P0"), Seat("p1", "P1")],
            updated_at=at,
            deadline=at + 24 * 3600,
            turn_player="p0",
        )
        item = to_item(record)
        counts[item["due_shard"]] += 1
        record.status, record.deadline, record.turn_player = "waiting", None, None
        open_counts[to_item(record)["open_list"]] += 1  # the same game, before its deal

    mean = args.games / DUE_SHARDS
    busiest = max(counts.values())
    statistic = sum((counts.get(str(s), 0) - mean) ** 2 / mean for s in range(DUE_SHARDS))
    p_value = chi_square_p(statistic, DUE_SHARDS - 1)
    share = busiest / args.games
    capacity = PARTITION_WCU / WCU_PER_MOVE / share
    single = PARTITION_WCU / WCU_PER_MOVE
    print(f"\nby_due: {args.games} timed games over {DUE_SHARDS} partitions (due_shard)")
    print("  per partition: " + " ".join(str(counts.get(str(s), 0)) for s in range(DUE_SHARDS)))
    print(
        f"  mean {mean:.0f}, fewest {min(counts.values())}, most {busiest} "
        f"({busiest / mean:.3f}x the mean); chi-square {statistic:.1f} on {DUE_SHARDS - 1} "
        f"degrees of freedom, p = {p_value:.2f} (an even spread is not rejected above 0.05)"
    )
    print(
        f"  timed moves a second before the busiest partition reaches {PARTITION_WCU} WCU/s: "
        f"{capacity:,.0f} (one partition for every game, as before: {single:,.0f})"
    )
    open_mean = args.games / OPEN_SHARDS
    open_busiest = max(open_counts.values())
    print(f"\nopen_games: {args.games} public waiting games over {OPEN_SHARDS} partitions")
    print("  per partition: " + " ".join(str(open_counts[k]) for k in sorted(open_counts)))
    print(
        f"  most {open_busiest} ({open_busiest / open_mean:.3f}x the mean); a listing page reads "
        f"all {OPEN_SHARDS} partitions (in parallel)"
    )
    write_json(
        args.json,
        {
            "games": args.games,
            "partitions": DUE_SHARDS,
            "busiest_over_mean": busiest / mean,
            "chi_square_p": p_value,
            "timed_moves_per_second": capacity,
        },
    )
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
