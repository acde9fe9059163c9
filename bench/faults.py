"""Faults: whole games and their notifications with DynamoDB failing under them, on DynamoDB Local.

    python bench/faults.py [--games 40] [--rate 0.05] [--seed 7] [--json FILE]

Prints figures; exits non-zero when an invariant breaks (docs/RELIABILITY.md records a run;
tests/integration/test_faults.py and test_stream_faults.py run short versions in ``make test``).
It starts its own DynamoDB Local and calls the handlers in-process through the local runtime's
harness, with tests/faults.py in front of every DynamoDB client they use:

1. ``--games`` one-hand dos-jugadores games (dealt before the faults start), each played to
   its end by two phones that send every
   move with its own Idempotency-Key, retry it on 503 or no answer and send it once more after
   its answer. Every kind of fault (throttling, HTTP 500, connect timeouts, resets, replies lost
   after the write) hits ``--rate`` of all requests, and the function dies after ``--rate`` of its
   writes. After each game: the version up by one per move, the move log = the moves answered,
   every key's second answer = its first, 28 tiles.
2. The notifier on those games' stream records: interleaved across games (each game in order),
   in batches of 1-7 each delivered twice, retried from the first failed record, with the same
   faults on its inbox writes. After: every notification in its player's inbox exactly once,
   and pushed (a counting channel stands in for SNS and the sockets); a push sent again (its
   outbox mark failed after it went out) is counted apart: the device shows it once.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections import Counter
from typing import Any

from _harness import JSON, database, harness
from _tree import add_common_arguments, banner, footer, use_tree, write_json


class Counted(logging.Handler):
    """Counts the warnings the handlers log (an answer not kept, ...) instead of printing."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.messages[record.getMessage()] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=7)
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/faults.py", tree)
    from tests.faults import no_backoff

    warnings = Counted()
    with database(tree) as endpoint, no_backoff():  # every SDK retry, without its sleeps
        api = harness(tree, endpoint)
        writes = logging.getLogger("domino.service.writes")
        writes.addHandler(warnings)
        writes.propagate = False
        figures = run(api, tree, endpoint, args.games, args.rate, args.seed)
    for message, times in warnings.messages.items():
        print(f"  logged {times:,} times: {message}")
    figures["warnings"] = dict(warnings.messages)
    write_json(args.json, figures)
    footer(started)
    return 1 if figures["broken"] else 0


def run(api: Any, tree: Any, endpoint: str, games: int, rate: float, seed: int) -> dict[str, Any]:
    from domino.api import idempotency, wiring

    from local.template import Template
    from tests.faults import injected
    from tests.soak import (
        CountingChannel,
        Soak,
        add_random_faults,
        check_game,
        deliver_batches,
        expected_notes,
        inbox_ids,
        interleave,
        notify_records,
        play_under_faults,
    )

    def send(player: str, method: str, path: str, body: Any, headers: Any) -> Any:
        claims = {"sub": player, "name": player}
        return api.call(method, path, body, claims=claims, headers={**JSON, **(headers or {})})

    def moves(game: str, player: str) -> list[Any]:
        found, after = [], 0
        while True:
            page = send(player, "GET", f"/games/{game}/moves?after={after}&limit=1000", None, None)
            found += page.body["moves"]
            if page.body["next"] is None:
                return found
            after = page.body["next"]

    # ------------------------------------------------------------------ 1. games
    played: list[tuple[str, list[str], Soak]] = []
    clients = (wiring.table().client, idempotency._records()[1].client)
    step = time.perf_counter()
    tables: list[tuple[str, list[str]]] = []
    for number in range(games):  # dealt before the faults: creates are Powertools' to keep
        seats = [f"f{number}a", f"f{number}b"]
        body = {"preset": "dos-jugadores", "players": 2, "rules": {"match": "single"}}
        game = send(seats[0], "POST", "/games", body, None).body["id"]
        assert send(seats[1], "POST", f"/games/{game}/join", {}, None).status == 200
        tables.append((game, seats))
    with injected(*clients, seed=seed) as faults:
        add_random_faults(faults, rate)
        for game, seats in tables:
            played.append((game, seats, play_under_faults(send, game, seats)))
    game_faults = dict(faults.injected)
    game_seconds = time.perf_counter() - step
    broken: list[str] = []
    statuses: Counter[int | str] = Counter()
    moves_applied = replays = 0
    for game, seats, soak in played:
        check_game(send, game, seats[0], soak, moves(game, seats[0]))
        broken += soak.broken
        statuses.update(soak.statuses)
        moves_applied += len(soak.applied)
        replays += soak.replays
    requests = sum(statuses.values())
    print(
        f"\n1. {games} games under faults at {rate:.0%} ({game_seconds:.0f} s): {moves_applied:,} "
        f"moves, {requests:,} requests ({replays:,} of them a key sent again after its answer)"
    )
    print(f"  faults injected: {sum(game_faults.values()):,}  " + fmt(game_faults))
    print(f"  answers: {fmt(statuses)}")
    print(f"  games whole: {games - len({b.split(':')[0] for b in broken})} of {games}")

    # ------------------------------------------------------------------ 2. notifications
    by_game = notify_records(endpoint, Template(tree.template), {game for game, _, _ in played})
    expected = expected_notes(by_game)
    notifier = wiring.notifier()
    counting = CountingChannel()
    notifier.channels, notifier.live = [counting], None
    rng = random.Random(seed)
    with injected(wiring.table().client, seed=seed + 1) as faults:
        add_random_faults(faults, rate)
        tally = deliver_batches(
            lambda batch: api.invoke("notify", {"Records": batch}).body,
            interleave(by_game, rng),
            rng,
        )
    written = inbox_ids(wiring.inbox().inbox, {player for player, _ in expected})
    lost = len(expected - written)
    extra = len(written - expected)
    doubled = sum(1 for times in counting.sent.values() if times > 1)
    unsent = len(expected - set(counting.sent))
    print(
        f"\n2. the notifier on {tally['records']:,} stream records of those games: "
        f"{tally['batches']:,} batches handled, {tally['died']:,} deaths, "
        f"{tally['failed records']:,} records reported failed and retried"
    )
    print(f"  faults injected: {sum(faults.injected.values()):,}  " + fmt(faults.injected))
    print(
        f"  notifications expected {len(expected):,}: in the inboxes {len(written & expected):,}, "
        f"lost {lost}, extra {extra}; pushed once {len(counting.sent) - doubled:,}, "
        f"pushed again {doubled} (shown once: a push's collapse id is its game), never {unsent}"
    )
    if lost or extra or unsent:
        broken.append(f"notifications: {lost} lost, {extra} extra, {unsent} never pushed")
    print(f"\ninvariants broken: {len(broken)}")
    for line in broken[:20]:
        print(f"  {line}")
    return {
        "games": games,
        "rate": rate,
        "moves": moves_applied,
        "requests": requests,
        "game_faults": game_faults,
        "statuses": {str(k): v for k, v in statuses.items()},
        "stream_records": tally["records"],
        "stream_faults": dict(faults.injected),
        "notifications": len(expected),
        "lost": lost,
        "doubled": doubled,
        "broken": broken,
    }


def fmt(counter: Any) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counter.items(), key=lambda kv: str(kv[0])))


if __name__ == "__main__":
    sys.exit(main())
