"""Live updates: from an accepted move to the other player's WebSocket message, on `make run`.

    python bench/live.py [--moves N] [--workers N] [--tree PATH] [--json FILE]

Prints figures, asserts nothing. It starts the local runtime (``python -m local``, in memory, on
free ports) as ``make run`` does, connects two players to ``ws://127.0.0.1:PORT/ws`` and has
them play seeded dos-jugadores games over HTTP, one move at a time. For each move it takes the
time from the move's HTTP 200 (its answer read) to the ``game_changed`` of that version arriving
on the other player's socket: the path is the game item's write, DynamoDB Local's stream, the
runtime's stream pump (woken as the move's function ends), functions/notify (inbox, push, then
boto3's management API client) and the runtime's ``/ws/@connections`` posting the frame. Each
move waits for its message (or ``--wait`` seconds) before the next, so the figures are one
move's, not a queue's. The goal is a p95 under 1 s.
"""

from __future__ import annotations

import argparse
import os
import time

from _inbox import Inbox
from _runtime import start_runtime
from _stats import percentile
from _tree import add_common_arguments, banner, footer, use_tree, write_json

from local.process import Runtime


def inbox_item(
    runtime: Runtime, token: str, game: str, version: int, within: float
) -> float | None:
    """When the player's inbox holds a notification of ``game`` at ``version`` or later (None:
    not in time)."""
    deadline = time.perf_counter() + within
    while time.perf_counter() < deadline:
        status, _, body = runtime.request("GET", "/me/notifications?limit=5", token=token)
        notes = body.get("notifications") or [] if status == 200 else []
        if any(n["game"] == game and n["version"] >= version for n in notes):
            return time.perf_counter()
        time.sleep(0.01)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1000, help="moves measured")
    parser.add_argument("--workers", type=int, default=4, help="the runtime's LOCAL_WORKERS")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds a message may take")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/live.py", tree)

    runtime = start_runtime(tree.path, args.workers)
    sockets: list[Inbox] = []
    try:
        suffix = f"{os.getpid()}"
        tokens = [runtime.token(f"alice{suffix}"), runtime.token(f"bob{suffix}")]
        sockets = [Inbox(f"ws://127.0.0.1:{runtime.port}/ws?token={t}") for t in tokens]
        latencies: dict[str, list[float]] = {"your_turn": [], "other": [], "none": []}
        http_ms: list[float] = []
        inbox_ms: list[float] = []
        missed = games = 0
        seed = 0
        while sum(len(v) for v in latencies.values()) + missed < args.moves:
            seed += 1
            games += 1
            status, _, game = runtime.request(
                "POST",
                "/games",
                {"preset": "dos-jugadores", "players": 2, "seed": seed},
                tokens[0],
            )
            assert status == 201, game
            status, _, view = runtime.request("POST", f"/games/{game['id']}/join", {}, tokens[1])
            assert status == 200, view
            seats = {}
            for index, token in enumerate(tokens):
                seats[
                    runtime.request("GET", f"/games/{game['id']}", token=token)[2]["you"]["seat"]
                ] = index
            while view["status"] == "playing":
                if sum(len(v) for v in latencies.values()) + missed >= args.moves:
                    break
                mover = seats[view["turn"]]
                status, _, mine = runtime.request(
                    "GET", f"/games/{game['id']}", token=tokens[mover]
                )
                you = mine["you"]
                action, body = (
                    ("play", you["legal"][0])
                    if you["legal"]
                    else (("draw", {}) if you["can_draw"] else ("pass", {}))
                )
                sent = time.perf_counter()
                status, _, view = runtime.request(
                    "POST", f"/games/{game['id']}/{action}", body, tokens[mover]
                )
                accepted = time.perf_counter()
                if status != 200:
                    raise SystemExit(f"{action} answered {status}: {view}")
                http_ms.append((accepted - sent) * 1000)
                if view["status"] == "playing" and seats[view["turn"]] != mover:
                    # the turn passed: the other player's inbox gets your_turn at this version
                    seen = inbox_item(
                        runtime, tokens[1 - mover], game["id"], view["version"], args.wait
                    )
                    if seen is not None:
                        inbox_ms.append((seen - accepted) * 1000)
                other = sockets[1 - mover]
                got = other.wait(game["id"], view["version"], args.wait)
                if got is None:
                    missed += 1
                    continue
                at, message = got
                kind = (message["notification"] or {}).get("type")
                bucket = "none" if kind is None else "your_turn" if kind == "your_turn" else "other"
                latencies[bucket].append((at - accepted) * 1000)
    finally:
        for inbox in sockets:
            inbox.close()
        runtime.stop()

    every = [x for values in latencies.values() for x in values]
    print(
        f"\n{len(every)} moves in {games} games (LOCAL_WORKERS={args.workers}); "
        f"{missed} messages not arrived within {args.wait:.0f} s"
    )
    print(
        f"  move, HTTP: p50 {percentile(http_ms, 0.5):.0f} ms, "
        f"p95 {percentile(http_ms, 0.95):.0f} ms"
    )
    if inbox_ms:
        print(
            f"  HTTP 200 -> your_turn in the other player's inbox (GET /me/notifications polled "
            f"every 10 ms): n={len(inbox_ms)}  p50 {percentile(inbox_ms, 0.5):.0f} ms  "
            f"p95 {percentile(inbox_ms, 0.95):.0f} ms  max {max(inbox_ms):.0f} ms"
        )
    print("  HTTP 200 -> game_changed on the other player's socket:")
    for label, values in (("every move", every), *latencies.items()):
        if values:
            print(
                f"    {label:<11} n={len(values):>4}  p50 {percentile(values, 0.5):6.0f} ms  "
                f"p95 {percentile(values, 0.95):6.0f} ms  max {max(values):6.0f} ms"
            )
    write_json(
        args.json,
        {
            "moves": len(every),
            "missed": missed,
            "p50_ms": percentile(every, 0.5),
            "p95_ms": percentile(every, 0.95),
            "max_ms": max(every) if every else None,
            "inbox_p50_ms": percentile(inbox_ms, 0.5),
            "inbox_p95_ms": percentile(inbox_ms, 0.95),
        },
    )
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
