"""The local runtime as the benchmarks start it (a helper module: ``make bench`` does not run
it): ``local.process.Runtime`` on two free ports, serving the tree measured, started."""

from __future__ import annotations

from pathlib import Path

from _tree import REPO

from local.ddb import free_port
from local.process import Runtime


def start_runtime(
    tree: Path = REPO, workers: int | None = None, data_dir: Path | None = None
) -> Runtime:
    """``python -m local`` serving ``tree``'s template, functions and shared/, in memory or on
    ``data_dir``, with ``workers`` handler processes (None: the runtime's default)."""
    runtime = Runtime(free_port(), free_port(), data_dir, workers=workers, tree=tree)
    runtime.start(timeout=120)
    return runtime
