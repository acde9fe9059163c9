"""Mexican Train in the web table (headless Chromium): the station and one row per train with
its owner and marker, tiles laid by clicks, and a double waiting highlighted. Screenshots go
to the test's tmp_path."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.long(20)]

DESKTOP = {"width": 1200, "height": 900}


def host_turn(runtime: Runtime, game: str, token: str) -> bool:
    """The host moves when it is its turn (first legal play, else draw, else pass)."""
    status, _, view = runtime.request("GET", f"/games/{game}", token=token)
    assert status == 200, view
    you = view["you"]
    if view["status"] != "playing" or view["turn"] != you["seat"]:
        return False
    if you["legal"]:
        play = you["legal"][0]
        body, action = {"tile": play["tile"], "end": play["end"]}, "play"
    else:
        body, action = {}, "draw" if you["can_draw"] else "pass"
    status, _, after = runtime.request("POST", f"/games/{game}/{action}", body, token=token)
    assert status == 200, after
    return True


def test_the_station_and_a_row_a_train(runtime: Runtime, browser: Any, tmp_path: Path) -> None:
    host = runtime.token(f"host{int(time.time() * 1000)}", "Hal")
    body = {"preset": "tren-mexicano", "players": 2, "seed": 5}
    status, _, game = runtime.request("POST", "/games", body, token=host)
    assert status == 201, game
    gid = game["id"]
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        page.goto(runtime.base + f"/?join={gid}")
        page.fill("#name", "Cora")
        page.click("#signin button[type=submit]")
        page.click("#join")
        page.wait_for_selector("#game[data-status=playing]")
        page.wait_for_selector(".board.trains .station")
        assert page.locator(".board.trains .train").count() == 3  # two seats and the Mexican
        labels = page.locator(".board.trains .train .label").all_text_contents()
        assert any("Cora" in label for label in labels) and any("Mexican" in x for x in labels)
        page.screenshot(path=tmp_path / "01-station.png", full_page=True)
        clicked = 0
        for _ in range(40):
            if host_turn(runtime, gid, host):
                continue
            page.wait_for_selector("#game[data-my-turn=true]", timeout=15_000)
            legal = page.locator("#hand button.tile.legal")
            if legal.count():
                version = page.get_attribute("#game", "data-version")
                legal.first.click()
                if page.locator("#chooser").count():
                    page.locator("#chooser button[data-end]").first.click()
                page.wait_for_selector(f"#game:not([data-version='{version}'])")
                clicked += 1
                if clicked == 3:
                    break
            elif page.is_enabled("#draw"):
                page.click("#draw")
                page.wait_for_timeout(300)
            else:
                page.click("#pass")
                page.wait_for_timeout(300)
        assert clicked == 3
        page.screenshot(path=tmp_path / "02-trains-after-three-plays.png", full_page=True)
        laid = page.locator(".board.trains .train .tiles .tile").count()
        status, _, view = runtime.request("GET", f"/games/{gid}", token=host)
        assert laid == len(view["board"]["tiles"]) >= 3
    finally:
        context.close()
