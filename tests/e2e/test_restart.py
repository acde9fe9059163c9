"""A restarted `make run` on old data: the stream pump resumes where it stopped (its checkpoints
beside the data), or, on data kept without them (an earlier version of the runtime wrote it),
begins at the stream's end; either way nothing already delivered is replayed and a new move is
notified at once. bench/restart.py prints the figures (with and without checkpoints)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.bench_modules import load_bench

pytestmark = pytest.mark.long(60)


@pytest.mark.parametrize("checkpoints", ["kept", "deleted"])
def test_a_restart_replays_nothing_and_notifies_a_new_move(
    tmp_path: Path, checkpoints: str
) -> None:
    restart = load_bench("restart")
    outcome = restart.fill_then_restart(
        tmp_path / "data", records=500, keep_checkpoints=checkpoints == "kept", within=60
    )
    assert outcome.replayed == 0  # TRIM_HORIZON on every start gave back every earlier note
    assert (tmp_path / "data" / "streams" / "NotifyFunction-GameTable.json").is_file()
