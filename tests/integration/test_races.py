"""The races benchmark's short version (bench/races.py; ``make bench`` runs 10,000 races): two
processes, eight requests in each race at once on the same game (a keyed move three times, the
same move unkeyed twice, another move, the other player out of turn or leaving, a stale
If-Match; the sweeper timing the mover out in every 5th race), and after each race the
invariants: the version up by exactly the changes the move log gained (in a plain race, the
changes applied), the applied versions distinct and in the race's span, replays equal to the
first answer, 28 tiles."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.ddb, pytest.mark.long(25)]


def test_sixty_races_break_no_invariant(tmp_path: Path) -> None:
    out = tmp_path / "races.json"
    command = [
        sys.executable,
        str(ROOT / "bench" / "races.py"),
        "--races",
        "60",
        "--json",
        str(out),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["broken"] == 0 and figures["requests"] == 60 * 8
    assert figures["tally"]["200"] >= 60  # every race applied its move (and replayed the keyed)
    assert not any(answer.startswith("5") for answer in figures["tally"])
    tally = figures["tally"]
    assert tally.get("sweeper: timed_out", 0) + tally.get("sweeper: nothing to do", 0) == 12
