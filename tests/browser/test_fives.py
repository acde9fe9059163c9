"""All Fives in the web table (headless Chromium): the spinner's north and south arms drawn in
its column, the count of the open ends, a "+15" beside each play that scored, and the points a
play would make on the end buttons. Screenshots go to the test's tmp_path."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.long(15)]

DESKTOP = {"width": 1200, "height": 900}
# seat 0 (the host, the lot's) leads the spinner 5-5 and seat 1 (Cora, on the page) answers:
# 5-5 (10), 2-5 left (12), 3-5 right (5: north and south open), 5-6 north (11), 4-5 south (15)
HOST = ["5-5", "3-5", "4-5", "0-0", "0-1", "1-1", "0-2", "1-2", "2-2"]
CORA = ["2-5", "5-6", "0-3", "1-3", "2-3", "3-3", "0-4", "1-4", "2-4"]


def test_the_spinner_the_count_and_the_points_of_each_play(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    stamp = int(time.time() * 1000)
    host = runtime.token(f"host{stamp}")
    body = {"preset": "all-fives", "players": 2, "deal": {"hands": [HOST, CORA], "lot": 0}}
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
        assert page.get_attribute("#game", "data-game") == gid
        # the host's moves over HTTP, Cora's (None) by clicks on the page
        for player, tile, end in (
            (host, "5-5", None),
            (None, "2-5", "left"),
            (host, "3-5", "right"),
            (None, "5-6", "north"),
            (host, "4-5", "south"),
        ):
            if player is None:  # the page's own move: click the tile, then the end
                page.wait_for_selector("#game[data-my-turn=true]")
                page.click(f"#hand button.tile[data-tile='{tile}']")
                if page.locator("#chooser").count():
                    page.click(f"#chooser button[data-end={end}]")
                page.wait_for_selector("#game[data-my-turn=false]")
            else:
                play = {"tile": tile, **({"end": end} if end else {})}
                status, _, view = runtime.request("POST", f"/games/{gid}/play", play, token=player)
                assert status == 200, view
        page.wait_for_selector("#count:has-text('Count: 15')", timeout=15_000)
        page.wait_for_selector(".board.spinner .spin-grid")
        page.screenshot(path=tmp_path / "01-spinner-and-count.png", full_page=True)
        scored = [
            int(x)
            for x in page.locator("#moves .scored").evaluate_all(
                "els => els.map(e => e.dataset.scored)"
            )
        ]
        assert sorted(scored) == [5, 10, 15]
        # the spinner's arms sit in its column, above and below the line
        spinner_column = page.locator(".spin-grid .tile[data-tile='5-5']").evaluate(
            "e => e.style.gridColumn"
        )
        for arm_tile in ("5-6", "4-5"):
            column = page.locator(f".spin-grid .tile[data-tile='{arm_tile}']").evaluate(
                "e => e.style.gridColumn"
            )
            assert column == spinner_column
        status, _, view = runtime.request("GET", f"/games/{gid}", token=host)
        assert status == 200 and view["seats"][1]["name"] == "Cora"
        assert view["seats"][0]["score"] == 30 and view["board"]["count"] == 15
    finally:
        context.close()
