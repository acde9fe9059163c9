"""The lobby's settings card: forced moves made at once (PATCH /me auto_forced), ticked on the
page, seen by the API, and then played for the person in a game (the move log says ``auto``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime
from local.scenarios import DOS_DEAL
from tests.browser.test_play import DESKTOP, sign_in
from tests.e2e.test_invitations import Players

pytestmark = [pytest.mark.e2e, pytest.mark.long(15)]


def test_forced_moves_ticked_in_the_lobby_are_made_for_the_player(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "ines", "juan")
    ines, juan = people.ids
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, juan)
        page.wait_for_selector("#settings #auto-forced:not([disabled])")
        assert not page.is_checked("#auto-forced")
        page.check("#auto-forced")
        page.wait_for_selector("#settings-saved:not([hidden])")
        page.screenshot(path=tmp_path / "01-settings.png", full_page=True)
        assert people.ok(juan, "GET", "/me")["auto_forced"] is True
        body = {"preset": "dos-jugadores", "players": 2, "deal": DOS_DEAL}
        game = str(people.ok(ines, "POST", "/games", body, status=201)["id"])
        people.ok(juan, "POST", f"/games/{game}/join", {})  # juan holds 6-6: led for him
        moves = people.ok(ines, "GET", f"/games/{game}/moves")["moves"]
        assert [(m["action"], m.get("tile"), m.get("auto")) for m in moves] == [
            ("play", "6-6", True)
        ]
        page.reload()
        page.wait_for_selector("#settings #auto-forced:not([disabled])")
        assert page.is_checked("#auto-forced")  # the page shows what the server keeps
    finally:
        context.close()
