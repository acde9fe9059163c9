"""Browser fixtures: Debian's Chromium (``/usr/bin/chromium``) driven headless by Playwright.

Playwright's own browser download is not used (CI installs ``chromium`` with apt, .ci/run).
Without that browser, or without Playwright, these tests fail and say why: they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from local.chromium import CHROMIUM, LAUNCH_ARGS, missing


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:  # pragma: no cover - the dev extras pin it
        pytest.fail(f"Playwright is not installed ({err}): pip install -e '.[dev]'")
    if why := missing():
        pytest.fail(f"{why}; the browser tests need a real browser")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()
