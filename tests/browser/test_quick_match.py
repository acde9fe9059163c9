"""Quick match in the web table: two people search from the lobby and land at one game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime
from tests.browser.test_play import DESKTOP, PHONE, sign_in

pytestmark = pytest.mark.e2e


def search(page: Any, preset: str, players: int) -> None:
    page.wait_for_selector(f"#qm-preset option[value='{preset}']", state="attached")
    page.select_option("#qm-preset", preset)
    page.fill("#qm-players", str(players))
    page.dispatch_event("#qm-players", "change")
    page.click("#qm-search")


def test_two_searches_meet_at_one_table(runtime: Runtime, browser: Any, tmp_path: Path) -> None:
    ana_context = browser.new_context(viewport=DESKTOP, locale="en-US")
    beto_context = browser.new_context(viewport=PHONE, locale="es-ES", is_mobile=True)
    try:
        ana, beto = ana_context.new_page(), beto_context.new_page()
        sign_in(ana, runtime.base, "Ana Quick")
        sign_in(beto, runtime.base, "Beto Quick")
        search(ana, "ida-y-vuelta", 2)
        ana.wait_for_selector("#quick-match[data-ticket='searching']")
        assert "Searching" in (ana.text_content("#qm-status") or "")
        ana.screenshot(path=tmp_path / "01-searching.png")
        search(beto, "ida-y-vuelta", 2)
        beto.wait_for_selector("#game", timeout=15_000)
        ana.wait_for_selector("#game", timeout=15_000)
        game = ana.get_attribute("#game", "data-game")
        assert game and game == beto.get_attribute("#game", "data-game")
        ana.screenshot(path=tmp_path / "02-matched.png")
    finally:
        ana_context.close()
        beto_context.close()


def test_a_search_can_be_stopped(runtime: Runtime, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, "Cid Quick")
        search(page, "clasico", 4)
        page.wait_for_selector("#quick-match[data-ticket='searching']")
        page.click("#qm-cancel")
        page.wait_for_selector("#quick-match[data-ticket='cancelled']")
        assert page.is_enabled("#qm-search")
    finally:
        context.close()
