"""Before and after: the headline figures of another commit against this checkout, alternately.

    python bench/compare.py [BASE_REF] [--rounds N] [--plays N] [--cold-rounds N]

BASE_REF (default HEAD: the last commit against the working tree's changes, or an A/A check of
the noise when there are none) is checked out as a git worktree in a temporary folder, removed
at the end. Then, in each round, each figure is measured on the base tree and on this one,
one after the other (base first in odd rounds, this one first in even rounds, so that a
machine whose speed drifts hits both alike), each in a fresh process of this checkout's scripts
with ``--tree``:

- engine: random self-play games/s, ``bench/engine.py --quick`` (parejas-111's one hand, and
  the geometric mean over the presets both trees have), and that run's ratio to the PyPI
  ``dominoes`` package's 4-player game (the same kind of game, timed alike);
- expert: the worlds it deals a move within its budget (p50, parejas-111) and microseconds a
  rollout, ``bench/bots.py --calibrate``;
- latency: the play handler's p50, and its ratio to a bare GetItem + PutItem of the same item,
  ``bench/latency.py`` on one DynamoDB Local per tree;
- cold start: the median ratio of importing the play handler to the bare imports,
  ``bench/coldstart.py --no-pieces``.

It prints every round, then the median of the rounds per figure, before and after. Timings
on a shared machine move by 10-20 % from run to run: read a change smaller than that as none.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _tree import REPO, Tree

BENCH = REPO / "bench"


@dataclass
class Figure:
    """One line of the comparison: how to read it from a script's JSON, and its values."""

    name: str
    unit: str  # "x" for a ratio, else printed after the value
    read: Callable[[dict[str, Any]], float]
    values: dict[str, list[float]] = field(default_factory=lambda: {"base": [], "current": []})

    def show(self, value: float) -> str:
        if math.isnan(value):
            return "n/a"
        if self.unit == "x":
            return f"{value:.3f}x"
        return f"{value:.0f} {self.unit}" if value >= 100 else f"{value:.2f} {self.unit}"


def geometric_mean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else math.nan


def run(script: str, tree: Tree, out: Path, *args: str) -> dict[str, Any] | None:
    """One script on one tree in a fresh process; its JSON figures, or None if it failed."""
    command = [sys.executable, str(BENCH / script), "--tree", str(tree.path), "--json", str(out)]
    result = subprocess.run([*command, *args], capture_output=True, text=True, timeout=1800)
    if result.returncode != 0 or not out.exists():
        tail = "\n    ".join((result.stderr or result.stdout).strip().splitlines()[-8:])
        print(f"  {script} on {tree.path} failed ({result.returncode}):\n    {tail}", flush=True)
        return None
    figures: dict[str, Any] = json.loads(out.read_text())
    out.unlink()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("base", nargs="?", default="HEAD", help="the commit to compare against")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every figure (3)")
    parser.add_argument("--plays", type=int, default=100, help="timed plays per latency run")
    parser.add_argument("--cold-rounds", type=int, default=7, help="interpreters per cold run")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from local import ddb

    started = time.perf_counter()
    base_sha = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{args.base}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as scratch:
        base_path = Path(scratch) / "base"
        subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "worktree",
                "add",
                "--quiet",
                "--detach",
                str(base_path),
                base_sha,
            ],
            check=True,
        )
        try:
            trees = {"base": Tree(base_path), "current": Tree(REPO)}
            print(
                f"bench/compare.py {args.base}: base {trees['base'].describe()} against current "
                f"{trees['current'].describe()}; {args.rounds} rounds, alternating",
                flush=True,
            )
            servers = {name: ddb.start_dynamodb_local(ddb.free_port()) for name in trees}
            try:
                figures = compare(args, trees, {n: s.endpoint for n, s in servers.items()}, scratch)
            finally:
                for server in servers.values():
                    server.stop()
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(base_path)],
                check=False,
            )
    report(figures)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0


def compare(
    args: argparse.Namespace, trees: dict[str, Tree], endpoints: dict[str, str], scratch: str
) -> list[Figure]:
    out = Path(scratch) / "figures.json"
    shared_presets: list[str] = []

    def presets_mean(engine: dict[str, Any]) -> float:
        rates = engine["games_per_s"]
        return geometric_mean([rates[p] for p in shared_presets if p in rates])

    engine = [
        Figure("engine: parejas-111 one hand", "games/s", lambda f: f["one_hand_games_per_s"]),
        Figure("engine: presets, geometric mean", "games/s", presets_mean),
        Figure(
            "engine: ratio to dominoes 6.1.0", "x", lambda f: f.get("ratio_to_dominoes", math.nan)
        ),
    ]
    expert = [
        Figure(
            "expert: worlds a move p50, parejas-111",
            "worlds",
            lambda f: f["parejas-111"]["worlds_p50"],
        ),
        Figure(
            "expert: a rollout, parejas-111", "us", lambda f: f["parejas-111"]["us_per_rollout"]
        ),
    ]
    latency = [
        Figure("latency: play handler p50", "ms", lambda f: f["handler_p50_ms"]),
        Figure("latency: bare GetItem+PutItem p50", "ms", lambda f: f["bare_client_p50_ms"]),
        Figure("latency: p50 ratio handler/bare", "x", lambda f: f["ratio_p50"]),
    ]
    cold = [
        Figure("cold start: median ratio handler/bare", "x", lambda f: f["ratio_median"]),
        Figure("cold start: play handler import", "ms", lambda f: f["handler_ms"]),
    ]
    runs: list[tuple[str, list[Figure], Callable[[str], list[str]]]] = [
        ("engine.py", engine, lambda name: ["--quick"]),
        ("bots.py", expert, lambda name: ["--calibrate"]),
        (
            "latency.py",
            latency,
            lambda name: ["--endpoint", endpoints[name], "--plays", str(args.plays)],
        ),
        ("coldstart.py", cold, lambda name: ["--no-pieces", "--rounds", str(args.cold_rounds)]),
    ]
    for round_ in range(args.rounds):
        order = ["base", "current"] if round_ % 2 == 0 else ["current", "base"]
        line = []
        for script, figures, extra in runs:
            got = {name: run(script, trees[name], out, *extra(name)) for name in order}
            if script == "engine.py" and not shared_presets and all(got.values()):
                shared_presets[:] = sorted(
                    set.intersection(*(set(g["games_per_s"]) for g in got.values() if g))
                )
            for figure in figures:
                for name in order:
                    value = figure.read(got[name]) if got[name] else math.nan
                    figure.values[name].append(value)
            first = figures[0]
            line.append(
                f"{script[:-3]} {first.show(first.values['base'][-1])} -> "
                f"{first.show(first.values['current'][-1])}"
            )
        print(
            f"round {round_ + 1} ({' first, '.join(order)} second): " + "; ".join(line), flush=True
        )
    return [*engine, *expert, *latency, *cold]


def median_of(values: list[float]) -> float:
    measured = [v for v in values if not math.isnan(v)]
    return statistics.median(measured) if measured else math.nan


def report(figures: list[Figure]) -> None:
    print(
        f"\n{'median of the rounds':<42}{'before (base)':>16}{'after (current)':>18}  after/before"
    )
    for figure in figures:
        base = median_of(figure.values["base"])
        current = median_of(figure.values["current"])
        change = "n/a" if math.isnan(base) or math.isnan(current) else f"{current / base:.3f}x"
        print(f"{figure.name:<42}{figure.show(base):>16}{figure.show(current):>18}  {change}")


if __name__ == "__main__":
    sys.exit(main())
