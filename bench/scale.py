"""Scale on paper, computed: what each AWS part sees at one million daily players and 100,000
games in play at once, and what breaks first. docs/SCALE.md explains the model and records a run.

    python bench/scale.py [--games 100000] [--live 0.7] [--think 6] [--humans 1.6] [--json F]

Prints figures, asserts nothing. The per-move costs are the measured ones (docs/benchmarks.md:
1 RCU + 1 WCU on the table per accepted move, 2 WCU on ``by_turn`` when the turn passes to
another person, 2 WCU on ``by_due`` for a timed game, 1.18 inbox writes per change). The
spread of the shared index keys (``by_due``'s ``due_shard``, ``open_games``' ``open_list``) is
simulated with the store's own key functions over games made as the service makes them.
"""

from __future__ import annotations

import argparse
import secrets
import time
from collections import Counter
from typing import Any

from _tree import add_common_arguments, banner, footer, use_tree, write_json

PARTITION_WCU = 1000  # what one table or index partition takes a second (DynamoDB's limit)
ONDEMAND_START_WCU = 4000  # what a new on-demand table takes at once before it adapts
HTTP_API_RPS = 10_000  # API Gateway's default account quota per region (adjustable)
LAMBDA_CONCURRENCY = 1000  # Lambda's default concurrent executions per region (adjustable)
INBOX_WRITES_PER_CHANGE = 1.18  # bench/cost.py --quick, 2026-11-30


def spread(keys: list[str]) -> tuple[int, float]:
    """The number of distinct keys and the busiest one's share."""
    counts = Counter(keys)
    return len(counts), max(counts.values()) / len(keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000, help="daily players")
    parser.add_argument("--games", type=int, default=100_000, help="games in play at once")
    parser.add_argument("--live", type=float, default=0.7, help="share of live games")
    parser.add_argument("--think", type=float, default=6.0, help="seconds a live move takes")
    parser.add_argument("--humans", type=float, default=1.6, help="people per game (mean)")
    parser.add_argument("--timed", type=float, default=0.5, help="share of live games timed")
    parser.add_argument("--minutes", type=float, default=12.0, help="a live game's length")
    parser.add_argument("--handler-ms", type=float, default=25.0, help="Lambda ms per request")
    parser.add_argument("--sample", type=int, default=200_000, help="games simulated")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/scale.py", tree)

    from domino.store.records import DUE_SHARDS, OPEN_SHARDS, due_shard, shard_of

    live = args.games * args.live
    moves = live / args.think  # correspondence games' moves (hours apart) are left out
    multi = max(0.0, min(1.0, args.humans - 1))  # share of moves that pass to another person
    turn_wcu = moves * multi * 2
    due_wcu = moves * args.timed * 2
    table_wcu = moves * 1
    inbox_wcu = moves * INBOX_WRITES_PER_CHANGE
    creates = live / (args.minutes * 60)  # games started a second, each written to open_games
    reads = moves * args.humans  # each person's app reads the view once per change
    requests = moves + reads + creates * 2
    concurrency = requests * args.handler_ms / 1000
    figures: dict[str, Any] = {
        "moves_per_second": moves,
        "requests_per_second": requests,
        "lambda_concurrency": concurrency,
        "table_wcu": table_wcu + inbox_wcu,
        "by_turn_wcu": turn_wcu,
        "by_due_wcu": due_wcu,
        "open_games_wcu": creates * 2,
    }

    ids = [secrets.token_urlsafe(16) for _ in range(args.sample)]
    due_keys, due_share = spread([due_shard(i) for i in ids])
    open_keys, open_share = spread([str(shard_of(i, OPEN_SHARDS)) for i in ids])
    busiest_due = due_wcu * due_share
    busiest_open = creates * 2 * open_share
    figures |= {
        "busiest_by_due_partition_wcu": busiest_due,
        "busiest_open_partition_wcu": busiest_open,
    }
    shards = (table_wcu + inbox_wcu) / PARTITION_WCU  # a stream shard per table partition, at least

    print(
        f"\n{args.players:,} daily players, {args.games:,} games in play ({args.live:.0%} live, a "
        f"move every {args.think:g} s; {args.humans:g} people a game; {args.timed:.0%} of live "
        "games timed)"
    )
    rows = [
        ("moves a second", f"{moves:,.0f}", ""),
        ("HTTP API requests a second", f"{requests:,.0f}", f"default quota {HTTP_API_RPS:,}"),
        (
            "Lambda concurrency (requests)",
            f"{concurrency:,.0f}",
            f"at {args.handler_ms:g} ms; default quota {LAMBDA_CONCURRENCY:,}",
        ),
        (
            "table WCU/s (games + inboxes)",
            f"{table_wcu + inbox_wcu:,.0f}",
            f"a new on-demand table starts at {ONDEMAND_START_WCU:,}",
        ),
        ("table RCU/s", f"{moves + reads:,.0f}", "a strongly consistent read a move and a view"),
        ("by_turn WCU/s", f"{turn_wcu:,.0f}", "keyed by player: spread over every player"),
        (
            f"by_due WCU/s over {DUE_SHARDS} keys",
            f"{due_wcu:,.0f}",
            f"busiest key {busiest_due:,.0f} of {PARTITION_WCU:,}",
        ),
        (
            f"open_games WCU/s over {OPEN_SHARDS} keys",
            f"{creates * 2:,.0f}",
            f"busiest key {busiest_open:,.0f} of {PARTITION_WCU:,}",
        ),
        ("one game's item", f"{1 / args.think:.2f} WCU/s", f"of {PARTITION_WCU:,} per partition"),
        (
            "stream shards (at least)",
            f"{shards:,.0f}",
            "archive + notify: one batch at a time per shard each",
        ),
        (
            "notifications (inbox + push) a second",
            f"{moves * INBOX_WRITES_PER_CHANGE:,.0f}",
            "an upper bound on SNS publishes",
        ),
    ]
    for name, value, note in rows:
        print(f"  {name:<36}{value:>12}  {note}")
    print(
        f"\nsimulated spread over {args.sample:,} game ids: by_due {due_keys} keys, busiest "
        f"{due_share * due_keys:.3f}x the mean; open_games {open_keys} keys, busiest "
        f"{open_share * open_keys:.3f}x the mean"
    )
    limits = [
        ("HTTP API request quota", requests / HTTP_API_RPS),
        ("Lambda concurrency quota", concurrency / LAMBDA_CONCURRENCY),
        ("new on-demand table's first WCU/s", (table_wcu + inbox_wcu) / ONDEMAND_START_WCU),
        ("busiest by_due partition", busiest_due / PARTITION_WCU),
        ("busiest open_games partition", busiest_open / PARTITION_WCU),
    ]
    print("\nload over each limit (≥ 1 breaks), first to break first:")
    for name, load in sorted(limits, key=lambda item: -item[1]):
        print(f"  {name:<36}{load:>8.2f}")
    figures["limits"] = dict(limits)
    write_json(args.json, figures)
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
