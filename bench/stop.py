"""How long Ctrl-C takes to end `make run` (the README promises 5 s, whatever is in flight).

Each round starts the local runtime in memory, sends SIGINT and times until the process is
gone: once with nothing in flight, once with a request waiting on a paused DynamoDB Local (the
case tests/e2e/test_runtime.py checks). ``--busy N`` keeps N processes spinning meanwhile, as
a loaded laptop or a test run on 2 cores does. ``--before PATH``: another checkout (a git
worktree of an older commit, with this one's ``.local/ddb`` linked into it) measured in turn
with this one, its own runtime serving its own tree.

    git worktree add /tmp/before REV && mkdir -p /tmp/before/.local
    ln -s "$PWD/.local/ddb" /tmp/before/.local/ddb
    .venv/bin/python bench/stop.py [--rounds 5] [--busy 10] [--before /tmp/before]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from _tree import REPO

from local.ddb import free_port, port_pidfile
from local.process import Runtime


def spin() -> None:
    while True:
        pass


@contextmanager
def busy(count: int) -> Iterator[None]:
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(count)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()


def ask(runtime: Runtime, token: str) -> None:
    with suppress(OSError):  # the stop fails it
        runtime.request("GET", "/me/games", token=token)


def one_stop(tree: Path, in_flight: bool, spinners: int) -> float:
    """Seconds from SIGINT to the exit of ``tree``'s runtime."""
    runtime = Runtime(free_port(), free_port(), None, tree=tree, tree_runtime=True)
    runtime.start(timeout=120)
    assert runtime.process is not None
    pidfile = tree / port_pidfile(runtime.ddb_port).relative_to(REPO)  # the tree's .local/run
    database = int(pidfile.read_text())
    waiting: threading.Thread | None = None
    try:
        if in_flight:
            token = runtime.token("slowpoke")
            os.kill(database, signal.SIGSTOP)
            waiting = threading.Thread(target=ask, args=(runtime, token), daemon=True)
            waiting.start()
            time.sleep(0.5)  # the request waits in a container on the paused database
        with busy(spinners):
            sent = time.monotonic()
            runtime.process.send_signal(signal.SIGINT)
            runtime.process.wait(timeout=60)
            return time.monotonic() - sent
    finally:
        with suppress(OSError):
            os.kill(database, signal.SIGCONT)
        runtime.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning during the stop")
    parser.add_argument("--before", type=Path, help="another checkout, measured in turn")
    args = parser.parse_args()
    trees = {"this checkout": REPO} | ({"--before": args.before.resolve()} if args.before else {})
    cores = os.cpu_count()
    print(f"stop benchmark: {args.rounds} rounds, {args.busy} spinning processes, {cores} cores")
    taken: dict[tuple[str, bool], list[float]] = {}
    for _ in range(args.rounds):
        for in_flight in (False, True):
            for name, tree in trees.items():
                seconds = one_stop(tree, in_flight, args.busy)
                taken.setdefault((name, in_flight), []).append(seconds)
    print(f"{'runtime':<14} {'in flight':<34} {'median':>7} {'max':>7}")
    for (name, in_flight), values in taken.items():
        case = "a request, DynamoDB Local paused" if in_flight else "nothing"
        print(f"{name:<14} {case:<34} {statistics.median(values):>6.2f}s {max(values):>6.2f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
