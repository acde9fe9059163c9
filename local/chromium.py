"""Debian's Chromium (``apt-get install chromium``), which the browser tests and bench/web.py
drive headless through Playwright; Playwright's own browser download is never used. ``CHROMIUM``
names another binary."""

from __future__ import annotations

import os
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
