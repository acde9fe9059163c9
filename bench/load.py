"""Load: N games played at once to their end over HTTP on `make run`, against DynamoDB Local's own
ceiling for the same requests.

    python bench/load.py [--games 50] [--match single|preset] [--workers 4] [--json FILE]

Prints figures, asserts nothing (docs/RELIABILITY.md records a run). It starts the local runtime
(``python -m local``, in memory, free ports, notifications on: the stream pump, the notifier and
the sweeper run as in ``make run``). Each game is two scripted phones, one thread each: a phone
reads its view (``If-None-Match`` with the last ETag: a 304 while nothing changed), and on its
turn plays its first legal tile, else draws, else passes, until the game is over. ``--match
single`` (the default) plays one hand per game; ``--match preset`` plays the preset's whole match.

Per route: requests, p50/p95/p99 in ms, answers by status. Per game, the invariants: the final
version is the accepted changes plus create and join; the move log is numbered 1..last_move
without a gap and holds exactly the accepted plays, draws and passes; every 200 a phone got
carries a version no other 200 carried (nothing applied twice).

Then the ceiling: as many threads as phones send DynamoDB Local (the runtime's, with the same
data) bare GetItem + conditional PutItem pairs on their own items for ``--ceiling-seconds``; a
move costs one of each (the phone's read and its write), so the ratio is moves/s over pairs/s.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from _harness import choose
from _inbox import Inbox
from _runtime import start_runtime
from _stats import percentile
from _tree import add_common_arguments, banner, footer, use_tree, write_json

from local.process import Runtime

#: how long a phone waits for its socket before reading anyway
SILENCE_SECONDS = 5.0
#: how often a phone without a socket reads the game while it waits (``--phones poll``)
POLL_SECONDS = 0.02


@dataclass
class Figures:
    """What every phone saw, shared under a lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)

    silences: int = 0  # waits for a change the socket did not announce in time

    def record(self, route: str, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies[route].append(seconds * 1000)
            self.statuses[(route, status)] += 1

    def count_silence(self) -> None:
        with self.lock:
            self.silences += 1


@dataclass
class Game:
    id: str
    accepted: int = 0  # plays, draws and passes answered 200
    versions: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def timed(
    runtime: Runtime, figures: Figures, route: str, method: str, path: str, **kwargs: Any
) -> tuple[int, dict[str, str], Any]:
    started = time.perf_counter()
    status, headers, body = runtime.request(method, path, **kwargs)
    figures.record(route, status, time.perf_counter() - started)
    return status, headers, body


def phone(
    runtime: Runtime,
    figures: Figures,
    game: Game,
    token: str,
    lock: threading.Lock,
    socket: bool,
) -> None:
    """Move on one's turn, and read when the socket says the game changed (``socket``; else
    every ``POLL_SECONDS``), until the game is over."""
    inbox = Inbox(f"ws://127.0.0.1:{runtime.port}/ws?token={token}") if socket else None
    tag: str | None = None
    view: dict[str, Any] = {}
    try:
        while True:
            headers = {"If-None-Match": tag} if tag else None
            status, answer_headers, body = timed(
                runtime,
                figures,
                "GET /games/{id}",
                "GET",
                f"/games/{game.id}",
                token=token,
                headers=headers,
            )
            if status == 200:
                view, tag = body, answer_headers.get("ETag")
            elif status != 304:
                game.errors.append(f"GET {status}: {body}")
                return
            while view["status"] == "playing":
                if view["turn"] != view["you"]["seat"]:
                    # the other phone's turn: read when the socket announces a change, or
                    # after a while without one, as an app polls when a message goes missing
                    if inbox is None:
                        time.sleep(POLL_SECONDS)
                    elif not inbox.wait_newer(game.id, view["version"], SILENCE_SECONDS):
                        figures.count_silence()
                    break
                action, move = choose(view)
                status, _, body = timed(
                    runtime,
                    figures,
                    f"POST {action}",
                    "POST",
                    f"/games/{game.id}/{action}",
                    body=move,
                    token=token,
                )
                if status == 200:
                    with lock:
                        game.accepted += 1
                        game.versions.append(body["version"])
                    view, tag = body, None  # the answer is the view: no read after one's move
                elif status in (409, 412, 422):  # a lost race is retried from a fresh view
                    break
                else:
                    game.errors.append(f"{action} {status}: {body}")
                    return
            else:
                return
    finally:
        if inbox is not None:
            inbox.close()


def invariants(runtime: Runtime, game: Game, token: str) -> list[str]:
    """What must hold once the game is over (empty: all of it)."""
    broken = list(game.errors)
    status, _, view = runtime.request("GET", f"/games/{game.id}", token=token)
    if status != 200:
        return [*broken, f"final GET {status}"]
    if view["version"] != 2 + game.accepted:
        broken.append(f"version {view['version']} != 2 + {game.accepted} accepted")
    if len(set(game.versions)) != len(game.versions):
        broken.append("two 200s carried the same version")
    moves: list[dict[str, Any]] = []
    after = 0
    while True:
        status, _, page = runtime.request(
            "GET", f"/games/{game.id}/moves?after={after}&limit=1000", token=token
        )
        moves += page["moves"]
        if page["next"] is None:
            break
        after = page["next"]
    numbers = [m["n"] for m in moves]
    if numbers != list(range(1, view["last_move"] + 1)):
        broken.append("the move log has a gap or a repeat")
    acted = sum(1 for m in moves if m["action"] in ("play", "draw", "pass"))
    if acted != game.accepted:
        broken.append(f"{acted} moves logged for {game.accepted} accepted")
    if view["status"] != "finished":
        broken.append(f"ended {view['status']}")
    return broken


def ceiling(runtime: Runtime, threads: int, seconds: float) -> tuple[float, int]:
    """GetItem + conditional PutItem pairs per second that DynamoDB Local answers, and how
    many it answered."""
    client = runtime.database()
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def run(index: int) -> None:
        key = {"pk": {"S": f"LOAD#{index}"}, "sk": {"S": "GAME"}}
        version = 0
        while time.perf_counter() < stop:
            client.get_item(TableName="GameTable", Key=key, ConsistentRead=True)
            client.put_item(
                TableName="GameTable",
                Item={**key, "version": {"N": str(version + 1)}},
                ConditionExpression="attribute_not_exists(version) OR version = :v",
                ExpressionAttributeValues={":v": {"N": str(version)}},
            )
            version += 1
            done[index] += 1

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(done) / (time.perf_counter() - started), sum(done)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once")
    parser.add_argument("--match", choices=["single", "preset"], default="single")
    parser.add_argument("--workers", type=int, default=4, help="the runtime's LOCAL_WORKERS")
    parser.add_argument("--ceiling-seconds", type=float, default=15.0)
    parser.add_argument(
        "--phones",
        choices=["socket", "poll"],
        default="socket",
        help="socket: read when the WebSocket announces a change; poll: read every 20 ms",
    )
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/load.py", tree)

    runtime = start_runtime(tree.path, args.workers)
    try:
        suffix = os.getpid()
        figures = Figures()
        games: list[tuple[Game, list[str]]] = []
        body: dict[str, Any] = {"preset": "dos-jugadores", "players": 2}
        if args.match == "single":
            body["rules"] = {"match": "single"}
        for n in range(args.games):
            tokens = [runtime.token(f"a{n}x{suffix}"), runtime.token(f"b{n}x{suffix}")]
            status, _, created = runtime.request("POST", "/games", body, tokens[0])
            assert status == 201, created
            status, _, joined = runtime.request(
                "POST", f"/games/{created['id']}/join", {}, tokens[1]
            )
            assert status == 200, joined
            games.append((Game(created["id"]), tokens))
        lock = threading.Lock()
        phones = [
            threading.Thread(
                target=phone,
                args=(runtime, figures, game, token, lock, args.phones == "socket"),
            )
            for game, tokens in games
            for token in tokens
        ]
        play_started = time.perf_counter()
        cpu_before, own_before = runtime.cpu_seconds(), time.process_time()
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join()
        elapsed = time.perf_counter() - play_started
        cpu = {
            role: seconds - cpu_before.get(role, 0.0)
            for role, seconds in runtime.cpu_seconds().items()
        }
        cpu["phones"] = time.process_time() - own_before
        broken = {game.id: invariants(runtime, game, tokens[0]) for game, tokens in games}
        database_before = runtime.cpu_seconds().get("database", 0.0)
        pairs, pairs_done = ceiling(runtime, len(phones), args.ceiling_seconds)
        pair_ms = (runtime.cpu_seconds().get("database", 0.0) - database_before) * 1000
        pair_ms /= max(pairs_done, 1)
    finally:
        runtime.stop()

    moves = sum(game.accepted for game, _ in games)
    rate = moves / elapsed
    print(
        f"\n{args.games} games ({args.match}) by {len(phones)} phones ({args.phones}) at once, "
        f"{args.workers} runtime workers: {moves} moves in {elapsed:.1f} s = {rate:.1f} moves/s"
    )
    print(f"\n{'route':<20}{'requests':>9}{'p50':>8}{'p95':>8}{'p99':>8}  statuses")
    for route, values in sorted(figures.latencies.items()):
        statuses = ", ".join(
            f"{status}: {count}"
            for (name, status), count in sorted(figures.statuses.items())
            if name == route
        )
        print(
            f"{route:<20}{len(values):>9}{percentile(values, 0.5):>8.1f}"
            f"{percentile(values, 0.95):>8.1f}{percentile(values, 0.99):>8.1f}  {statuses}"
        )
    moves_or_one = max(moves, 1)
    print(
        f"\nCPU per move ({sum(cpu.values()) / elapsed:.2f} of the machine's "
        f"{os.cpu_count()} cores busy): "
        + ", ".join(
            f"{role} {seconds / moves_or_one * 1000:.1f} ms" for role, seconds in cpu.items()
        )
    )
    print(f"socket silences (a read after {SILENCE_SECONDS:.0f} s unannounced): {figures.silences}")
    failures = {gid: b for gid, b in broken.items() if b}
    print(f"\ninvariants: {len(games) - len(failures)} of {len(games)} games hold every one")
    for gid, what in list(failures.items())[:10]:
        print(f"  {gid}: {'; '.join(what)}")
    print(
        f"DynamoDB Local ceiling ({len(phones)} threads, GetItem + conditional PutItem): "
        f"{pairs:.0f} pairs/s; moves/s over the ceiling: {rate / pairs:.2f}"
    )
    database_ms = cpu.get("database", 0.0) / moves_or_one * 1000
    print(
        f"DynamoDB Local's CPU: {pair_ms:.1f} ms a pair, {database_ms:.1f} ms a move "
        f"(a move is {database_ms / max(pair_ms, 1e-9):.1f} pairs of database work)"
    )
    write_json(
        args.json,
        {
            "games": args.games,
            "moves": moves,
            "moves_per_second": rate,
            "ceiling_pairs_per_second": pairs,
            "ratio": rate / pairs,
            "database_cpu_ms_per_pair": pair_ms,
            "broken_games": len(failures),
            "silences": figures.silences,
            "phones": args.phones,
            "cpu_ms_per_move": {r: s / max(moves, 1) * 1000 for r, s in cpu.items()},
            "p99_ms": {r: percentile(v, 0.99) for r, v in figures.latencies.items()},
            "statuses": {f"{r} {s}": c for (r, s), c in figures.statuses.items()},
        },
    )
    footer(started)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
