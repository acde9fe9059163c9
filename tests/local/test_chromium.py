"""make test's browser step (``python -m local.chromium``) on a machine without Chromium: as
root with apt-get it installs Debian's package, otherwise it stops with one line saying what to
run; apt-get is a stub on PATH here, so nothing is installed for real."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from local import chromium
from local.paths import REPO_ROOT


def executable(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def stub_apt_get(folder: Path, installs: Path | None, log: Path) -> Path:
    """An apt-get that logs its arguments and, on install, puts a 'chromium' at ``installs``."""
    make = f'[ "$1" = install ] && printf "#!/bin/sh\\n" > {installs} && chmod +x {installs}\n'
    executable(
        folder / "apt-get",
        f'#!/bin/sh\necho "$@" >> {log}\n' + (make if installs else "") + "exit 0\n",
    )
    return folder


class Recorder:
    def __init__(self, creates: Path | None = None, status: int = 0) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.creates, self.status = creates, status

    def __call__(self, args: Sequence[str]) -> int:
        self.calls.append(tuple(args))
        if self.creates is not None and "install" in args:
            executable(self.creates)
        return self.status


def test_a_chromium_found_is_used_as_it_is(tmp_path: Path) -> None:
    run = Recorder()
    assert chromium.ensure(executable(tmp_path / "chromium"), is_root=True, run=run)
    assert run.calls == []


def test_without_root_it_stops_with_one_line_saying_what_to_run(tmp_path: Path) -> None:
    run, said = Recorder(), []
    assert not chromium.ensure(tmp_path / "none", is_root=False, run=run, say=said.append)
    assert run.calls == [] and len(said) == 1
    assert "apt-get install chromium" in said[0] and "CHROMIUM=" in said[0]


def test_as_root_it_installs_debians_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{stub_apt_get(tmp_path / 'bin', None, tmp_path / 'log')}")
    binary = tmp_path / "chromium"
    run, said = Recorder(creates=binary), []
    assert chromium.ensure(binary, is_root=True, run=run, say=said.append)
    assert run.calls == [tuple(args) for args in chromium.APT_INSTALL]
    assert len(said) == 1 and "installing" in said[0]


def test_as_root_a_failed_install_stops_with_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{stub_apt_get(tmp_path / 'bin', None, tmp_path / 'log')}")
    run, said = Recorder(status=100), []
    assert not chromium.ensure(tmp_path / "none", is_root=True, run=run, say=said.append)
    assert run.calls == [chromium.APT_INSTALL[0]]  # stopped at the failed update
    assert "apt-get install chromium" in said[-1]


def test_the_make_step_takes_the_path_this_machine_allows(tmp_path: Path) -> None:
    """``python -m local.chromium`` with no Chromium where CHROMIUM points and a stub apt-get on
    PATH: as root (CI) it runs apt-get and finds the binary; as anyone else it exits 1 with the
    line, without running apt-get."""
    binary, log = tmp_path / "chromium", tmp_path / "apt.log"
    folder = stub_apt_get(tmp_path / "bin", binary, log)
    env = {**os.environ, "CHROMIUM": str(binary), "PATH": f"{folder}{os.pathsep}/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "local.chromium"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if os.geteuid() == 0:
        assert done.returncode == 0, done.stderr
        assert log.read_text().splitlines() == [" ".join(args[1:]) for args in chromium.APT_INSTALL]
    else:
        assert done.returncode == 1 and not log.exists()
        assert "apt-get install chromium" in done.stderr.strip().splitlines()[-1]
