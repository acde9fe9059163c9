"""Which checkout a benchmark measures (a helper module: ``make bench`` does not run it).

Every script takes ``--tree PATH`` (default: this repository) and measures that checkout's code:
its ``shared/`` goes first on ``sys.path`` (and on ``PYTHONPATH`` for fresh interpreters), its
``template.yaml`` names the routes and its ``functions/`` the handlers, while the harness that
drives them is this checkout's (``local``), which relies on nothing but the template, the
handlers' ``handler(event, context)`` and the environment. So ``bench/compare.py`` can run the
same measurement on an older commit's tree. ``use_tree`` must run before anything imports
``domino``.

Importing this module puts this checkout on ``sys.path``, for its ``local`` package: the other
helpers that use ``local`` import it first.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # this checkout's local/ (the harness), whatever the tree


@dataclass(frozen=True)
class Tree:
    """A checkout whose code a benchmark measures."""

    path: Path

    @property
    def shared(self) -> Path:
        return self.path / "shared"

    @property
    def template(self) -> Path:
        return self.path / "template.yaml"

    def describe(self) -> str:
        """The path, and its commit when it is a git checkout (``+`` when changed)."""
        try:
            out = subprocess.run(
                ["git", "-C", str(self.path), "describe", "--always", "--dirty=+"],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            )
            return f"{self.path} ({out.stdout.strip()})"
        except (OSError, subprocess.SubprocessError):
            return str(self.path)


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tree",
        type=Path,
        default=REPO,
        help="measure this checkout's shared/, functions/ and template.yaml (default: this one)",
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="also write the key figures to this JSON file"
    )


def use_tree(path: Path) -> Tree:
    """Put ``path``'s ``shared/`` first on sys.path (before anything imports domino)."""
    tree = Tree(path.resolve())
    for needed in (tree.template, tree.shared / "domino", tree.path / "functions"):
        if not needed.exists():
            raise SystemExit(f"--tree {path}: {needed} is missing")
    if "domino" in sys.modules:
        raise RuntimeError("domino was imported before use_tree(): the tree would be mixed")
    sys.path.insert(0, str(tree.shared))
    return tree


def banner(script: str, tree: Tree) -> None:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{script} {' '.join(sys.argv[1:])} {when}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; tree {tree.describe()}",
        flush=True,
    )


def footer(started: float, skewed: str | None = None) -> None:
    note = f" (other work on the machine skews {skewed})" if skewed else ""
    print(
        f"\ntotal {time.perf_counter() - started:.0f} s, load average now "
        f"{os.getloadavg()[0]:.1f}{note}"
    )


def write_json(path: Path | None, figures: dict[str, Any]) -> None:
    if path is not None:
        path.write_text(json.dumps(figures, indent=1, sort_keys=True))
