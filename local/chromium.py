"""Debian's Chromium (``apt-get install chromium``), which the browser tests and bench/web.py
drive headless through Playwright; Playwright's own browser download is never used. ``CHROMIUM``
names another binary.

``python -m local.chromium`` is ``make test``'s browser step: where no Chromium is found it
installs Debian's package itself when it runs as root with apt-get (as Playwright's
``install --with-deps`` would), and otherwise stops, before any test runs, with one line saying
what to run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
#: headless, and quiet: without the background-networking flags Chromium keeps reaching for
#: Google's hosts, which a closed network refuses many at a time
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing() -> str | None:
    """Why there is no Chromium to run (None: there is)."""
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return None
    return (
        f"no Chromium at {CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM "
        "to a Chromium binary"
    )


#: what the browser step runs as root where apt-get is found
APT_INSTALL = (
    ("apt-get", "update", "-qq"),
    ("apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"),
)


def ensure(
    binary: Path = CHROMIUM,
    is_root: bool | None = None,
    run: Callable[[Sequence[str]], int] = lambda args: subprocess.call(list(args)),
    say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
) -> bool:
    """Whether a Chromium is there once this returns: found, or installed with apt-get as root.
    Otherwise ``say`` gets the one line that tells what to run."""
    if binary.is_file() and os.access(binary, os.X_OK):
        return True
    root = (os.geteuid() == 0) if is_root is None else is_root
    if root and shutil.which("apt-get"):
        say(f"No Chromium at {binary}: installing Debian's chromium package (apt-get)")
        for args in APT_INSTALL:
            if run(args) != 0:
                break
        if binary.is_file() and os.access(binary, os.X_OK):
            return True
    say(
        f"make test needs Chromium for the browser tests and found none at {binary}: run "
        "`sudo apt-get install chromium` (Debian, Ubuntu), or set CHROMIUM=/path/to/chromium"
    )
    return False


if __name__ == "__main__":
    raise SystemExit(0 if ensure() else 1)
