"""Races: many requests on the same game at the same moment, on DynamoDB Local, and the invariants
after each.

    python bench/races.py [--races 10000] [--threads 7] [--processes 2] [--json FILE]

Prints figures; exits non-zero when an invariant breaks (docs/RELIABILITY.md records a run;
tests/integration/test_races.py runs a short version in ``make test``). It starts its own
DynamoDB Local (in memory) and calls the handlers in-process through the local runtime's
harness, from ``--processes`` processes (each with its own handlers and clients, as separate
Lambda containers are) and ``--threads`` threads in each race.

A race: both players of a two-player game read their views, then ``--threads`` requests leave at
once (a barrier): the mover's first legal move three times with one Idempotency-Key, the same
move twice without a key, another legal move or a draw, the other player moving out of turn, and
the mover with a stale If-Match. Every 5th race the sweeper joins it, with a clock past the turn's
deadline (the games have a one-hour turn timeout): it times the mover out (``on_timeout: auto``)
if it gets there first. Every 7th race the other player leaves instead of moving out of turn (a
bot takes the seat and plays at once; the next race starts a new game). After it, the
invariants:

- the version went up by exactly the changes the move log gained (plays, draws, passes,
  timeouts, leaves, the bot's moves: every entry but hand_over), and in a plain race by
  exactly the number of changes applied (200s that are not replays);
- the applied 200s carry distinct versions, each within the race's span (every 200 reflected);
- the move log grew by the applied changes and nothing else (nothing applied twice);
- every replay of the keyed request answers what the first one answered;
- tiles are conserved: hands + board + boneyard = 28.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _harness import JSON, choose, database, harness
from _tree import REPO, add_common_arguments, banner, footer, use_tree, write_json


def call(api: Any, player: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
    claims = {"sub": player, "name": player}
    return api.call(method, path, body, claims=claims, headers={**JSON, **headers})


def new_game(api: Any, seed: int, tag: str) -> tuple[str, list[str]]:
    players = [f"a{tag}", f"b{tag}"]
    body = {"preset": "dos-jugadores", "players": 2, "seed": seed, "turn_timeout_hours": 1}
    created = call(api, players[0], "POST", "/games", body)
    assert created.status == 201, created.body
    joined = call(api, players[1], "POST", f"/games/{created.body['id']}/join", {})
    assert joined.status == 200, joined.body
    return created.body["id"], players


def log_actions(api: Any, game: str, player: str) -> int:
    """The changes in the whole move log: every entry but hand_over, the bookkeeping of the
    move that ended a hand (the stream consumers first, which archive the hands that ended, as
    the table's stream would by then)."""
    api.drain()
    count, after = 0, 0
    while True:
        reply = call(api, player, "GET", f"/games/{game}/moves?after={after}&limit=1000")
        assert reply.status == 200, (reply.status, reply.body)
        page = reply.body
        count += sum(1 for m in page["moves"] if m["action"] != "hand_over")
        if page["next"] is None:
            return count
        after = page["next"]


def tiles(view: dict[str, Any]) -> int:
    in_hands = sum(seat["tiles"] for seat in view["seats"])
    return in_hands + len(view["board"]["tiles"]) + view["boneyard"]


def one_race(
    api: Any,
    game: str,
    players: list[str],
    key: str,
    threads: int,
    twist: str = "",
    sweeper: Any = None,
) -> tuple[list[str], Counter[str], bool]:
    """Run one race (``twist``: "timeout", the sweeper joins; "leave", the other player leaves);
    the invariants it broke, the answers by status and code, whether a new game is needed."""
    views = {p: call(api, p, "GET", f"/games/{game}").body for p in players}
    before = views[players[0]]
    mover = next(p for p in players if views[p]["you"]["seat"] == before["turn"])
    other = next(p for p in players if p != mover)
    action, body = choose(views[mover])
    alternative = views[mover]["you"]["legal"][1:2]
    second = ("play", dict(alternative[0])) if alternative else (action, body)
    path = f"/games/{game}"
    requests: list[tuple[str, str, Any, dict[str, str], str]] = [
        (mover, f"{path}/{action}", body, {"Idempotency-Key": key}, "keyed"),
        (mover, f"{path}/{action}", body, {"Idempotency-Key": key}, "keyed"),
        (mover, f"{path}/{action}", body, {"Idempotency-Key": key}, "keyed"),
        (mover, f"{path}/{action}", body, {}, "plain"),
        (mover, f"{path}/{action}", body, {}, "plain"),
        (mover, f"{path}/{second[0]}", second[1], {}, "plain"),
        (other, f"{path}/{action}", body, {}, "other"),
        (mover, f"{path}/{action}", body, {"If-Match": f'"{before["version"] - 1}"'}, "stale"),
    ][: max(threads, 1)]
    if twist == "leave":
        requests[6] = (other, f"{path}/leave", {}, {}, "leave")
    before_actions = log_actions(api, game, mover)
    racers = len(requests) + (twist == "timeout")
    barrier = threading.Barrier(racers)
    answers: list[Any] = [None] * len(requests)
    swept: list[str | None] = []

    def send(i: int) -> None:
        if i == len(requests):  # the sweeper, its clock past the deadline
            barrier.wait()
            swept.append(sweeper.handle(game))
            return
        player, url, payload, headers, _ = requests[i]
        barrier.wait()
        answers[i] = call(api, player, "POST", url, payload, **headers)

    workers = [threading.Thread(target=send, args=(i,)) for i in range(racers)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    after = call(api, mover, "GET", path).body
    broken: list[str] = []
    tally: Counter[str] = Counter()
    applied: list[int] = []
    keyed: list[Any] = []
    for (_, _, _, _, kind), answer in zip(requests, answers, strict=True):
        code = answer.code if answer.status >= 400 else None
        tally[f"{answer.status} {code or ''}".strip()] += 1
        if answer.status >= 500:
            broken.append(f"{kind}: {answer.status} {answer.body}")
        if answer.status != 200:
            continue
        if kind == "keyed":
            keyed.append(answer)
        if answer.header("Idempotency-Replayed") != "true":
            applied.append(answer.body["version"])
        if kind == "stale":  # the other player's may apply: once the turn has passed to them
            sent = requests[-1][3].get("If-Match")
            broken.append(
                f"a request with a stale If-Match ({sent}, the game at {before['version']}) "
                f"applied as version {answer.body.get('version')}"
            )
    if swept:
        tally[f"sweeper: {swept[0] or 'nothing to do'}"] += 1
    span = range(before["version"] + 1, after["version"] + 1)
    delta = after["version"] - before["version"]
    left = any(
        kind == "leave" and answer.status == 200
        for (*_, kind), answer in zip(requests, answers, strict=True)
    )
    # without the sweeper or a bot moving, every change is one of the race's 200s
    plain = not left and not (swept and swept[0])
    if plain and delta != len(applied):
        broken.append(f"version +{delta} for {len(applied)} 200s")
    if len(set(applied)) != len(applied) or any(v not in span for v in applied):
        broken.append(f"applied versions {applied} outside {list(span)} or repeated")
    grown = log_actions(api, game, mover) - before_actions
    if grown != delta:
        broken.append(f"move log +{grown} for version +{delta}")
    if not applied and not (swept and swept[0]) and delta:
        broken.append(f"version +{delta} with nothing applied")
    firsts = [a for a in keyed if a.header("Idempotency-Replayed") != "true"]
    if len(firsts) > 1:
        broken.append("the keyed request was applied twice")
    if firsts and any(a.body != firsts[0].body for a in keyed):
        broken.append("a replay answered another body")
    if after["status"] == "playing" and tiles(after) != 28:
        broken.append(f"{tiles(after)} tiles")
    return broken, tally, after["status"] != "playing" or left


def worker(api: Any, races: int, threads: int, seed: int) -> dict[str, Any]:
    """``races`` races on games of this process's own (a new one when one ends)."""
    from domino.api import wiring
    from domino.service.deadlines import Sweeper

    # the sweeper as the schedule runs it, two hours late: every turn is past its deadline
    sweeper = Sweeper(wiring.service().store, clock=lambda: time.time() + 2 * 3600)
    tally: Counter[str] = Counter()
    broken: list[str] = []
    game, players = new_game(api, seed, f"{seed}x0")
    for n in range(races):
        twist = "timeout" if n % 5 == 4 else "leave" if n % 7 == 6 else ""
        wrong, answers, over = one_race(api, game, players, f"k{seed}-{n}", threads, twist, sweeper)
        tally.update(answers)
        broken += [f"race {n} of {game}: {w}" for w in wrong]
        if over:
            game, players = new_game(api, seed * 100_000 + n, f"{seed}x{n + 1}")
    return {"races": races, "tally": dict(tally), "broken": broken}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=8, help="requests in each race (≤ 8)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--logs", help="a folder for each worker's handler logs")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    if args.worker is not None:  # a child: race, then write its figures to --json
        with database(tree, os.environ["RACES_ENDPOINT"]) as endpoint:
            api = harness(tree, endpoint)
            write_json(args.json, worker(api, args.races, args.threads, args.worker))
        return 0
    started = time.perf_counter()
    banner("bench/races.py", tree)
    with database(tree) as endpoint:
        env = {**os.environ, "RACES_ENDPOINT": endpoint}
        env["PYTHONPATH"] = os.pathsep.join([str(tree.shared), str(REPO)])
        share = [args.races // args.processes] * args.processes
        share[0] += args.races - sum(share)
        outputs = [Path(tempfile.mkdtemp()) / f"worker{i + 1}.json" for i in range(len(share))]
        children = [
            subprocess.Popen(
                [
                    *(sys.executable, __file__, "--tree", str(tree.path), "--races", str(n)),
                    *("--threads", str(args.threads), "--worker", str(i + 1)),
                    *("--json", str(outputs[i])),
                ],
                env=env,
                # the handlers' logs (an unhandled error's traceback): kept with --logs
                stdout=open(Path(args.logs) / f"worker{i + 1}.log", "w")  # noqa: SIM115
                if args.logs
                else subprocess.DEVNULL,
            )
            for i, n in enumerate(share)
        ]
        results = []
        for child, output in zip(children, outputs, strict=True):
            if child.wait() != 0:
                raise SystemExit(f"a worker failed ({child.returncode})")
            results.append(json.loads(output.read_text()))
    tally: Counter[str] = Counter()
    broken: list[str] = []
    for result in results:
        tally.update(result["tally"])
        broken += result["broken"]
    requests = sum(n for answer, n in tally.items() if not answer.startswith("sweeper"))
    elapsed = time.perf_counter() - started
    print(
        f"\n{args.races:,} races ({args.processes} processes, {args.threads} requests each): "
        f"{requests:,} requests in {elapsed:.0f} s"
    )
    for answer, count in tally.most_common():
        print(f"  {answer:<32}{count:>8,}")
    print(f"invariants broken: {len(broken)} (lost updates, double applies, leaks of order)")
    for line in broken[:20]:
        print(f"  {line}")
    write_json(
        args.json,
        {"races": args.races, "requests": requests, "broken": len(broken), "tally": dict(tally)},
    )
    footer(started)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
