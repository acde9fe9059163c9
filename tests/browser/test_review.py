"""The web table's review of a finished match (its record replayed move by move, the analysis's
verdict once the background function has run) and a spectator's table, kept live by the socket's
watch."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime
from tests.browser.test_play import DESKTOP, sign_in
from tests.e2e.test_invitations import Players

pytestmark = [pytest.mark.e2e, pytest.mark.long(20)]


def test_a_finished_match_is_reviewed_move_by_move_with_its_analysis(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "rosa")
    (rosa,) = people.ids
    body = {"preset": "dos-jugadores", "players": 2, "bots": 1, "seed": 21}
    game = str(people.ok(rosa, "POST", "/games", body, status=201)["id"])
    for _ in range(4):  # a few choices of her own, then the bot plays the match out
        view = people.ok(rosa, "GET", f"/games/{game}")
        you = view["you"]
        if view["turn"] != you["seat"]:
            break
        if you["legal"]:
            people.ok(rosa, "POST", f"/games/{game}/play", you["legal"][-1])
        else:
            people.ok(
                rosa,
                "POST",
                f"/games/{game}/draw" if you["can_draw"] else f"/games/{game}/pass",
                {},
            )
    people.ok(rosa, "POST", f"/games/{game}/leave", {})
    deadline = time.monotonic() + 30  # the analysis function runs off its queue
    while people.ok(rosa, "GET", f"/games/{game}/analysis")["status"] != "ready":
        assert time.monotonic() < deadline, "the analysis never became ready"
        time.sleep(0.3)
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, rosa, f"/?game={game}")
        page.click("#review-open")
        page.wait_for_selector("#review-body .deal li")
        page.wait_for_selector("#analysis li[data-seat='0']")
        assert "chose the expert's play" in page.inner_text("#analysis")
        steps = int(page.get_attribute("#replay-step", "max") or 0)
        assert steps > 0 and page.inner_text("#replay-caption").startswith(f"{steps}/{steps}")
        page.focus("#replay-step")  # back to the first move: one tile on the board
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert page.inner_text("#replay-caption").startswith(f"1/{steps}")
        assert page.locator("#review-body .replay-board .tile").count() >= 1
        page.screenshot(path=tmp_path / "review.png", full_page=True)
        page.click("#back")  # to the lobby and back: the table is drawn again, the review kept
        page.wait_for_selector("#create")
        page.go_back()
        page.wait_for_selector("#review-body .deal li")
        assert page.locator("#review-open").is_hidden()
    finally:
        context.close()


def test_a_spectator_sees_a_public_game_move_without_reloading(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "sara", "teo", "uxia")
    sara, teo, uxia = people.ids
    game = str(people.ok(sara, "POST", "/games", {"preset": "dos-jugadores", "players": 2,
                                                   "seed": 5}, status=201)["id"])  # fmt: skip
    people.ok(teo, "POST", f"/games/{game}/join", {})
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, uxia)
        page.wait_for_selector(f"#games-in-play li[data-game='{game}']")  # listed in play
        page.fill("#watch-id", f"{runtime.base}/?game={game}")
        page.click("#watch-go")
        page.wait_for_selector("text=You are watching")
        deadline = time.monotonic() + 10  # the page's socket asks to watch
        while people.ok(sara, "GET", f"/games/{game}")["watchers"] != 1:
            assert time.monotonic() < deadline, "the spectator's socket is not watching"
            time.sleep(0.1)
        before = page.locator("#moves li").count()
        view = people.ok(sara, "GET", f"/games/{game}")
        mover = sara if view["turn"] == view["you"]["seat"] else teo
        you = people.ok(mover, "GET", f"/games/{game}")["you"]
        people.ok(mover, "POST", f"/games/{game}/play", you["legal"][0])
        page.wait_for_selector(f"#moves li:nth-child({before + 1})", timeout=10_000)
        assert page.locator("#hand").count() == 0  # a spectator has no hand
        page.screenshot(path=tmp_path / "spectator.png", full_page=True)
    finally:
        context.close()
