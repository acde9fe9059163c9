"""The usage example of docs/engine.md runs as written (a doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_engine_doc_example_runs() -> None:
    failed, attempted = doctest.testfile(
        str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert attempted >= 10 and failed == 0
