"""DynamoDB Local is never left behind (local/ddb.py): it dies with the process that started
it, and a start ends one that an earlier, killed run left on its port or its data folder, after
checking it is ours; what else a pid file names is left alone, and costs a start nothing."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from local import ddb


def test_a_dynamodb_local_left_running_is_ended_by_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    with monkeypatch.context() as patched:  # as a runtime older than the parent-death signal
        patched.setattr(ddb, "die_with_parent", lambda: None)
        left = ddb.start_dynamodb_local(ddb.free_port(), data)
    pid, port = left.process.pid, left.port
    try:
        assert ddb.is_ours(pid, port=port) and ddb.is_ours(pid, db_path=data)
        assert int(ddb.port_pidfile(port).read_text()) == pid
        assert int((data / ddb.DATA_PIDFILE).read_text()) == pid
        # its runtime was killed: nothing stopped it; a start on the same data, another port
        again = ddb.free_port()
        assert ddb.end_stale(again, data) == [pid]
        left.process.wait(timeout=5)
        assert ddb.gone(pid) and not ddb.port_in_use(port)
        assert not (data / ddb.DATA_PIDFILE).exists()
        server = ddb.start_dynamodb_local(again, data)
        server.stop()
        assert not ddb.port_pidfile(again).exists() and not (data / ddb.DATA_PIDFILE).exists()
    finally:
        left.stop()


def test_what_else_a_pid_file_names_is_left_alone_and_costs_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    port = ddb.free_port()
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        for content in (str(bystander.pid), "not a pid", "", "99999999", "-1"):
            ddb.port_pidfile(port).parent.mkdir(parents=True, exist_ok=True)
            ddb.port_pidfile(port).write_text(content)
            (data / ddb.DATA_PIDFILE).write_text(content)
            started = time.monotonic()
            assert ddb.end_stale(port, data) == []
            assert time.monotonic() - started < 0.5
            assert not ddb.port_pidfile(port).exists() and not (data / ddb.DATA_PIDFILE).exists()
        assert bystander.poll() is None  # a pid reused by anything else is never signalled
        assert not ddb.is_ours(bystander.pid, port=port, db_path=data)
    finally:
        bystander.kill()
        bystander.wait()


def library_copies(pid: int) -> set[Path]:
    """The copies of SQLite's native library that a DynamoDB Local has mapped: it copies the
    library out of its install into the temporary folder at each start, and deletes the copy
    when the JVM shuts down (a version loading it from its install would leave none)."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    mapped = {Path(line.split()[-1]) for line in maps.splitlines() if "sqlite4java" in line}
    return {path for path in mapped if ddb.install_dir() not in path.parents}


def test_dynamodb_local_dies_with_the_process_that_started_it(tmp_path: Path) -> None:
    """A parent killed with SIGKILL runs no cleanup: the parent-death signal ends its child,
    which shuts down as a stop has it (SIGTERM), so it leaves no file behind."""
    port = ddb.free_port()
    script = (
        "import sys, time; from local import ddb\n"
        f"server = ddb.start_dynamodb_local({port})\n"
        "print(server.process.pid, flush=True); time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        assert ddb.is_ours(pid, port=port)
        copies = library_copies(pid)
        assert all(copy.is_file() for copy in copies)
        parent.kill()
        parent.wait(timeout=5)
        deadline = time.monotonic() + 5
        while not (ddb.gone(pid) and not ddb.port_in_use(port)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ddb.gone(pid) and not ddb.port_in_use(port)
        assert not any(copy.exists() for copy in copies), "a killed JVM left its library copy"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    ddb.end_stale(port, None)  # its pid file: what the next start would clear
    assert not ddb.port_pidfile(port).exists()


def test_a_start_forgets_the_pid_files_of_dynamodb_locals_that_are_gone() -> None:
    # a killed runtime's pid file stays on its port; suites start runtimes on many ports
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    gone_file, live_file, blank_file = (ddb.port_pidfile(ddb.free_port()) for _ in range(3))
    try:
        gone_file.parent.mkdir(parents=True, exist_ok=True)
        gone_file.write_text(str(dead.pid))
        live_file.write_text(str(alive.pid))
        blank_file.write_text("")  # one being written
        assert ddb.end_stale(ddb.free_port(), None) == []
        assert not gone_file.exists()
        assert live_file.exists() and blank_file.exists()
        assert alive.poll() is None
    finally:
        alive.kill()
        alive.wait()
        for pidfile in (gone_file, live_file, blank_file):
            pidfile.unlink(missing_ok=True)
