"""The lobby's settings card: forced moves made at once (PATCH /me auto_forced), ticked on the
page, seen by the API, and then played for the person in a game (the move log says ``auto``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime
from local.scenarios import DOS_DEAL
from tests.browser.test_play import DESKTOP, sign_in
from tests.deals import PREMOVE_DEAL
from tests.e2e.api_helpers import runtime_now, vacation_days
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


def quiet_hours_become(people: Players, player: str, page: Any, expected: Any) -> bool:
    """Whether the player's quiet hours (``GET /me``) come to ``expected`` within 5 s."""
    for _ in range(50):
        if people.ok(player, "GET", "/me")["quiet_hours"] == expected:
            return True
        page.wait_for_timeout(100)
    return False


def test_quiet_hours_set_in_the_lobby_keep_this_browsers_time_zone(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "oto")
    (oto,) = people.ids
    context = browser.new_context(viewport=DESKTOP, locale="es-ES", timezone_id="Asia/Tokyo")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, oto)
        page.wait_for_selector("#settings #quiet-on:not([disabled])")
        assert not page.is_checked("#quiet-on") and page.is_disabled("#quiet-from")
        page.check("#quiet-on")
        page.wait_for_selector("#settings-saved:not([hidden])")
        page.wait_for_selector("#quiet-from:not([disabled])")
        page.fill("#quiet-from", "23:30")
        expected = {"from": "23:30", "to": "08:00", "tz": "Asia/Tokyo"}
        assert quiet_hours_become(people, oto, page, expected)  # the last change's PATCH lands
        page.screenshot(path=tmp_path / "03-quiet-hours.png", full_page=True)
        page.reload()
        page.wait_for_selector("#settings #quiet-on:not([disabled])")
        assert page.is_checked("#quiet-on") and page.input_value("#quiet-from") == "23:30"
        assert page.inner_text("#quiet-tz") == "Asia/Tokyo"
        page.uncheck("#quiet-on")
        assert quiet_hours_become(people, oto, page, None)
    finally:
        context.close()


def test_a_vacation_from_the_lobby_shows_the_seat_away(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "pau", "quela")
    pau, quela = people.ids
    body = {"preset": "dos-jugadores", "players": 2, "deal": DOS_DEAL, "turn_timeout_hours": 48}
    game = str(people.ok(pau, "POST", "/games", body, status=201)["id"])
    people.ok(quela, "POST", f"/games/{game}/join", {})  # quela (seat 1) on turn
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, quela)
        page.wait_for_selector("#vacation-start:not([disabled])")
        assert "Not on vacation. 30 days left" in page.inner_text("#vacation-state")
        page.fill("#vacation-days", "5")
        asked = datetime.now(UTC)
        page.click("#vacation-start")
        page.wait_for_selector("#vacation-end:not([hidden])")
        until = people.ok(quela, "GET", "/me/vacation")["until"]
        left = 30 - vacation_days(runtime, until, asked, 5)  # 25 on a clock that agrees
        assert f"{left} days left" in page.inner_text("#vacation-state")
        page.screenshot(path=tmp_path / "04-vacation.png", full_page=True)
        view = people.ok(pau, "GET", f"/games/{game}")
        assert view["seats"][1]["away"] is True and view["deadline"] is None
        page.click("#vacation-end")
        page.wait_for_selector("#vacation-end[hidden]", state="attached")
        assert "Not on vacation. 29 days left" in page.inner_text("#vacation-state")
        view = people.ok(pau, "GET", f"/games/{game}")
        assert view["seats"][1]["away"] is False and view["deadline"] is not None
    finally:
        context.close()


def test_a_premove_kept_at_the_table_is_played_when_the_other_player_makes_that_move(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "kai", "lia")
    kai, lia = people.ids
    body = {"preset": "dos-jugadores", "players": 2, "deal": PREMOVE_DEAL}
    game = str(people.ok(kai, "POST", "/games", body, status=201)["id"])
    people.ok(lia, "POST", f"/games/{game}/join", {})  # lia (seat 1) must lead 6-6
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, kai, f"/?game={game}")
        page.wait_for_selector("#premove")
        page.fill("#pm-their-tile", "6-6")
        page.select_option("#pm-my-tile", "5-6")
        page.select_option("#pm-my-end", "left")
        # the game changes while the card is filled in (kai's vacation marks it: version + 1,
        # the table redrawn): what kai typed and chose stays
        # two days on the runtime's clock, which other tests of the shared runtime moved on
        until = (runtime_now(runtime) + timedelta(days=2)).isoformat()
        people.ok(kai, "PUT", "/me/vacation", {"until": until})
        version = people.ok(kai, "GET", f"/games/{game}")["version"]
        page.wait_for_selector(f"#game[data-version='{version}'] #premove")
        assert page.input_value("#pm-their-tile") == "6-6"
        assert page.input_value("#pm-my-tile") == "5-6"
        assert page.input_value("#pm-my-end") == "left"
        people.ok(kai, "DELETE", "/me/vacation")
        page.click("#pm-save")
        page.wait_for_selector("#pm-saved:has-text('5-6')")
        page.screenshot(path=tmp_path / "02-premove.png", full_page=True)
        people.ok(lia, "POST", f"/games/{game}/play", {"tile": "6-6"})
        moves = people.ok(kai, "GET", f"/games/{game}/moves")["moves"]
        assert [(m["seat"], m.get("tile"), m.get("premove")) for m in moves] == [
            (1, "6-6", None),
            (0, "5-6", True),
        ]
        page.wait_for_selector("#moves li:has-text('played from a pre-move')", timeout=15000)
        page.screenshot(path=tmp_path / "03-premove-played.png", full_page=True)
    finally:
        context.close()
