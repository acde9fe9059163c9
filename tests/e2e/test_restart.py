"""A restarted `make run` on old data: the stream pump resumes where it stopped (its checkpoints
beside the data), so nothing already delivered is replayed and a new move is notified at once.
bench/restart.py prints the figures (with and without checkpoints)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.bench_modules import load_bench

pytestmark = pytest.mark.long(35)


def test_a_restart_replays_nothing_and_notifies_a_new_move(tmp_path: Path) -> None:
    restart = load_bench("restart")
    outcome = restart.fill_then_restart(tmp_path / "data", records=500, within=60)
    assert outcome.replayed == 0  # TRIM_HORIZON on every start gave back every earlier note
    assert (tmp_path / "data" / "streams" / "NotifyFunction-GameTable.json").is_file()
