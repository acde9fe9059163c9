"""Loading a script of bench/ as a module, for the tests of its pure helpers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(script: str) -> ModuleType:
    """``bench/<script>.py`` as the module ``bench_<script>`` (bench/ goes on the path first: the
    scripts import its ``_`` helpers and each other)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{script}", BENCH / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
