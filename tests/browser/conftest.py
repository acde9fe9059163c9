"""Browser fixtures: Debian's Chromium (``/usr/bin/chromium``) driven headless by Playwright.

Playwright's own browser download is not used (CI installs ``chromium`` with apt, .ci/run).
Without that browser, or without Playwright, these tests fail and say why: they never skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - the dev extras pin it
        pytest.fail(f"Playwright is not installed ({err}): pip install -e '.[dev]'")
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"no Chromium at {CHROMIUM}: install it (apt-get install -y chromium) or set "
            "CHROMIUM to a Chromium binary; the browser tests need a real browser"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=ARGS
        )
        try:
            yield launched
        finally:
            launched.close()
