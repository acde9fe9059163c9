"""Figure c: cold start of the play handler against the bare imports it cannot do without.

    python bench/coldstart.py [--quick] [--rounds N] [--no-pieces] [--tree PATH] [--json FILE]

Prints figures, asserts nothing (docs/benchmarks.md records a run). In a fresh interpreter each
time, importing the play handler module (which builds its resolver) against a bare ``import
boto3, pydantic, aws_lambda_powertools.event_handler``, alternately (ABBA, so drift on a
shared machine hits both alike); then both in one interpreter, which gives what the handler
adds without the noise between two processes; then each extra piece the handler imports, one
at a time. The interpreters run in a venv holding only the tree's shared/requirements.txt
(.venv-bench-runtimes/<hash of it>, created on first use), with the tree's shared/ on
PYTHONPATH: no test or dev package is there to be imported by accident.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from _harness import ENV
from _stats import ms
from _tree import REPO, Tree, add_common_arguments, banner, footer, use_tree, write_json

LOAD_HANDLER = """
spec = importlib.util.spec_from_file_location("play_app", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules["play_app"] = module
spec.loader.exec_module(module)
assert callable(module.handler)
"""
HANDLER_IMPORT = f"""
import importlib.util, sys, time
started = time.perf_counter()
{LOAD_HANDLER}
print(time.perf_counter() - started)
"""
BARE_IMPORT = """
import importlib.util, sys, time
started = time.perf_counter()
import boto3, pydantic, aws_lambda_powertools.event_handler
print(time.perf_counter() - started)
"""
#: both in one interpreter: what the handler adds on top of the bare set, without the noise
#: between two processes
MARGINAL_IMPORT = f"""
import importlib.util, sys, time
started = time.perf_counter()
import boto3, pydantic, aws_lambda_powertools.event_handler
bare = time.perf_counter()
{LOAD_HANDLER}
print(time.perf_counter() - bare, bare - started)
"""
#: pydantic's model machinery: ``import pydantic`` is lazy in pydantic 2, so the bare line
#: leaves out what a ``BaseModel`` would cost (the request bodies use pydantic-core schemas)
BARE_MODEL_IMPORT = """
import time
started = time.perf_counter()
import boto3, aws_lambda_powertools.event_handler
from pydantic import BaseModel
print(time.perf_counter() - started)
"""
#: what the handler imports beyond the bare set, one piece at a time (the same bare imports
#: first); a piece the tree does not have (a module renamed) prints n/a
PIECES = {
    "+ Tracer() (only with DetailedTracing=true)": "from aws_lambda_powertools import Tracer\n"
    "Tracer(service='domino')",
    "+ Logger() + Metrics()": "from aws_lambda_powertools import Logger, Metrics\n"
    "Logger(service='domino'); Metrics(namespace='Domino', service='domino')",
    "+ domino.engine": "import domino.engine",
    "+ domino.api.models (pydantic-core validators)": "import domino.api.models",
    "+ idempotency utility": "import aws_lambda_powertools.utilities.idempotency",
    "+ APIGatewayHttpResolver(enable_validation)": "from aws_lambda_powertools.event_handler "
    "import APIGatewayHttpResolver\nAPIGatewayHttpResolver(enable_validation=True)",
}
PIECE_IMPORT = """
import time
import boto3, pydantic, aws_lambda_powertools.event_handler
started = time.perf_counter()
{piece}
print(time.perf_counter() - started)
"""
RUNTIME_VENVS = REPO / ".venv-bench-runtimes"


def runtime_python(tree: Tree) -> tuple[str, str]:
    """A venv with only the tree's runtime dependencies (created on first use, one per set of
    pins, so that two trees can alternate), else this interpreter."""
    requirements = tree.shared / "requirements.txt"
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()
    venv = RUNTIME_VENVS / digest[:12]
    python = venv / "bin" / "python"
    stamp = venv / ".requirements-sha256"
    name = f"{RUNTIME_VENVS.name}/{digest[:12]}"
    if python.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return str(python), f"{name} (runtime dependencies only)"
    print(f"creating {name} (pip install -r {requirements}) ...", file=sys.stderr, flush=True)
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            check=True,
            timeout=60,
            capture_output=True,
        )
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run(
            [*pip, "-r", str(requirements)], check=True, timeout=300, capture_output=True
        )
        stamp.write_text(digest)
        return str(python), f"{name} (runtime dependencies only, just created)"
    except (subprocess.SubprocessError, OSError) as err:
        return sys.executable, f"FALLBACK main venv ({type(err).__name__} creating the runtime one)"


def cold_env(tree: Tree) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    env.update(ENV)
    env["DOMINO_TRACK_CAPACITY"] = "false"
    env["PYTHONPATH"] = str(tree.shared)
    return env


def measure_cold(
    python: str, tree: Tree, repeats: int, pieces: bool = True
) -> dict[str, list[float]]:
    """Fresh interpreters: handler and bare alternately (ABBA, so drift on a shared machine hits
    both alike), then the marginal cost in one interpreter, then the pieces."""
    play = str(tree.path / "functions" / "play" / "app.py")
    env = cold_env(tree)
    runs: dict[str, list[float]] = {
        name: []
        for name in ("handler", "bare", "ratio", "bare_models", "marginal", "marginal_bare")
    }

    def once(code: str, *args: str) -> list[float]:
        out = subprocess.run(
            [python, "-c", code, *args],
            env=env,
            cwd=tree.path,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return [float(x) for x in out.stdout.split()]

    once(HANDLER_IMPORT, play)  # bytecode caches written, as a built layer ships them
    once(BARE_IMPORT)
    for round_ in range(repeats):
        first_handler = round_ % 2 == 0
        pair = [("handler", HANDLER_IMPORT, (play,)), ("bare", BARE_IMPORT, ())]
        seconds = {}
        for name, code, args in pair if first_handler else pair[::-1]:
            seconds[name] = once(code, *args)[0]
            runs[name].append(seconds[name])
        runs["ratio"].append(seconds["handler"] / seconds["bare"])
        runs["bare_models"].append(once(BARE_MODEL_IMPORT)[0])
        marginal, bare = once(MARGINAL_IMPORT, play)
        runs["marginal"].append(marginal)
        runs["marginal_bare"].append(bare)
    for _ in range(max(3, repeats // 2) if pieces else 0):
        for name, piece in PIECES.items():
            try:
                runs.setdefault(name, []).append(once(PIECE_IMPORT.format(piece=piece))[0])
            except subprocess.CalledProcessError:
                runs[name] = []  # not in this tree
    return runs


def report_cold(cold: dict[str, list[float]], repeats: int, which: str) -> dict[str, Any]:
    h, b = statistics.median(cold["handler"]), statistics.median(cold["bare"])
    q = statistics.quantiles(cold["ratio"], n=4)
    added = [m / bare for m, bare in zip(cold["marginal"], cold["marginal_bare"], strict=True)]
    print(
        f"\nc. cold start, {repeats} fresh interpreters each, alternating (goal <= 1.15x); {which}"
    )
    print(f"{'play handler module (functions/play/app.py + resolver)':<58}{ms(h):>9} ms")
    print(f"{'bare import boto3, pydantic, powertools.event_handler':<58}{ms(b):>9} ms")
    print(
        "ratio, handler / bare of the same round: median "
        f"{statistics.median(cold['ratio']):.3f}x (quartiles {q[0]:.3f}-{q[2]:.3f}x); "
        f"ratio of the medians {h / b:.3f}x"
    )
    print(
        f"in one interpreter, after the bare imports: the handler adds "
        f"{ms(statistics.median(cold['marginal']))} ms = "
        f"{1 + statistics.median(added):.3f}x of that run's bare imports"
    )
    bm = statistics.median(cold["bare_models"])
    print(f"(for scale: bare with pydantic.BaseModel loaded {ms(bm)} ms = {bm / b:.2f}x)")
    if any(name in cold for name in PIECES):
        print("what the handler adds, one piece at a time after the bare imports (median; pieces")
        print("overlap, so they need not add up to the difference):")
        for name in PIECES:
            if not cold.get(name):
                print(f"  {name:<52}{'n/a':>10}     (not in this tree)")
                continue
            extra = statistics.median(cold[name])
            print(f"  {name:<52}{ms(extra):>10} ms  ({extra / b:+.0%} of bare)")
    return {
        "rounds": repeats,
        "handler_ms": h * 1000,
        "bare_ms": b * 1000,
        "ratio_median": statistics.median(cold["ratio"]),
        "ratio_of_medians": h / b,
        "marginal_ratio": 1 + statistics.median(added),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="11 rounds instead of 21")
    parser.add_argument("--rounds", type=int, default=None, help="fresh-interpreter rounds")
    parser.add_argument(
        "--no-pieces", action="store_true", help="skip timing the pieces one at a time"
    )
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/coldstart.py", tree)
    repeats = args.rounds or (11 if args.quick else 21)
    python, which = runtime_python(tree)
    cold = measure_cold(python, tree, repeats, pieces=not args.no_pieces)
    figures = report_cold(cold, repeats, which)
    write_json(args.json, figures)
    footer(started, "these timings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
