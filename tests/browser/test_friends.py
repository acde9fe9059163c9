"""Friends at the web table: a rematch asked for from the result screen and joined from the
other one, an invitation sent to someone from "People you played" and accepted, an emote shown
beside its seat (with the ratings of the seats), and the leaderboard page.

The players are made over HTTP (tests/e2e/test_invitations.py's Players) and sign in to the
page with their player id as their name, so the page and the helper act as the same people:
the matches are played to their end over HTTP while the pages watch. Screenshots of each step
go to the test's tmp_path.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime
from tests.browser.test_play import DESKTOP, PHONE, UPDATE_MS, sign_in
from tests.e2e.test_invitations import SINGLE, Players

pytestmark = [pytest.mark.e2e, pytest.mark.long(40)]


def playing_game(people: Players, first: str, second: str) -> str:
    """A dos-jugadores game of one hand that ``first`` made and ``second`` joined: dealt."""
    body = {"preset": "dos-jugadores", "players": 2, "rules": SINGLE}
    game = str(people.ok(first, "POST", "/games", body, status=201)["id"])
    people.ok(second, "POST", f"/games/{game}/join", {})
    return game


def shown_game(page: Any) -> str:
    return str(page.get_attribute("#game", "data-game"))


def test_a_rematch_asked_on_the_result_screen_is_joined_from_the_other(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "ana", "beto")
    ana_id, beto_id = people.ids
    game = playing_game(people, ana_id, beto_id)
    ana_context = browser.new_context(viewport=DESKTOP, locale="en-US")
    beto_context = browser.new_context(viewport=PHONE, locale="es-ES", is_mobile=True)
    try:
        ana, beto = ana_context.new_page(), beto_context.new_page()
        sign_in(ana, runtime.base, ana_id, f"/?game={game}")
        sign_in(beto, runtime.base, beto_id, f"/?game={game}")
        for page in (ana, beto):
            page.wait_for_selector("#game[data-status=playing]")
            page.wait_for_selector("#live[data-state=live]", timeout=UPDATE_MS)
        assert ana.locator("#rematch").count() == 0  # no rematch while the match runs

        people.play_out(game, [ana_id, beto_id])  # the pages learn of it over the socket
        for name, page in (("ana", ana), ("beto", beto)):
            page.wait_for_selector("#result #rematch", timeout=UPDATE_MS)
            page.screenshot(path=tmp_path / f"01-{name}-result.png", full_page=True)
        assert ana.text_content("#rematch") == "Rematch"
        assert beto.text_content("#rematch") == "Revancha"

        ana.click("#rematch")
        ana.wait_for_function(
            "old => { const g = document.querySelector('#game');"
            " return g && g.dataset.game !== old && g.dataset.status === 'waiting'; }",
            arg=game,
        )
        rematch = shown_game(ana)
        assert ana.locator(".seat .invited").count() == 1  # Beto's seat is kept for him
        ana.screenshot(path=tmp_path / "02-ana-rematch-waiting.png", full_page=True)

        # Beto's result screen hears of it (the rematch notification) and offers to join
        beto.wait_for_selector(f"#rematch[data-rematch='{rematch}']", timeout=UPDATE_MS)
        assert beto.text_content("#rematch") == "Unirse a la revancha"
        beto.screenshot(path=tmp_path / "03-beto-join-rematch.png", full_page=True)
        beto.click("#rematch")
        for page in (beto, ana):
            page.wait_for_selector(
                f"#game[data-game='{rematch}'][data-status=playing]", timeout=UPDATE_MS
            )
        assert shown_game(ana) == shown_game(beto) == rematch != game
        assert ana.locator(".seat .invited").count() == 0
        beto.screenshot(path=tmp_path / "04-beto-rematch-playing.png", full_page=True)
    finally:
        ana_context.close()
        beto_context.close()


def test_a_late_view_of_the_finished_game_leaves_the_rematch_table_live(
    runtime: Runtime, browser: Any
) -> None:
    """The race behind a rematch table that stopped hearing of its game: asking for the rematch
    marks the finished game, whose game_changed can reach the socket before the POST's answer.
    The page then refreshes the finished game, and that view may arrive after the rematch's
    table is drawn. Here it is made to: the POST's answer and that GET are held, in that order.
    The late view must not be taken for the game shown, or the rematch's own changes (lower
    versions than the finished game's) are never fetched."""
    people = Players(runtime, "eva", "fede")
    eva_id, fede_id = people.ids
    game = playing_game(people, eva_id, fede_id)
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        eva = context.new_page()
        sign_in(eva, runtime.base, eva_id, f"/?game={game}")
        eva.wait_for_selector("#game[data-status=playing]")
        eva.wait_for_selector("#live[data-state=live]", timeout=UPDATE_MS)
        people.play_out(game, [eva_id, fede_id])
        eva.wait_for_selector("#result #rematch", timeout=UPDATE_MS)

        asked: list[Any] = []
        finished_views: list[Any] = []

        def hold_rematch(route: Any) -> None:
            asked.append(route)

        def hold_finished_view(route: Any) -> None:
            if route.request.method == "GET":
                finished_views.append(route)
            else:
                route.fallback()

        eva.route(re.compile(rf"/games/{game}/rematch$"), hold_rematch)
        eva.route(re.compile(rf"/games/{game}(\?.*)?$"), hold_finished_view)
        eva.click("#rematch")
        wait_until(eva, lambda: asked, "the rematch POST")
        answer = asked[0].fetch()  # made now: the finished game is marked, its socket message sent
        wait_until(eva, lambda: finished_views, "the finished game's refresh")
        asked[0].fulfill(response=answer)
        eva.wait_for_selector(f"#game:not([data-game='{game}'])[data-status=waiting]")
        rematch = shown_game(eva)
        with eva.expect_response(re.compile(rf"/games/{game}(\?.*)?$")):
            finished_views[0].continue_()
        eva.wait_for_timeout(200)  # the late answer is read (and must be dropped)

        people.ok(fede_id, "POST", f"/games/{game}/rematch", {})  # takes the seat kept for him
        eva.wait_for_selector(
            f"#game[data-game='{rematch}'][data-status=playing]", timeout=UPDATE_MS
        )
    finally:
        context.close()


def wait_until(page: Any, done: Any, what: str, within: float = 15) -> None:
    """Until ``done()`` is true, letting the page's route handlers run meanwhile."""
    deadline = time.monotonic() + within
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {within} s")
        page.wait_for_timeout(50)


def wait_for_opponent(people: Players, player: str, opponent: str, within: float = 15) -> None:
    """Until ``player``'s GET /me/opponents lists ``opponent`` (the stream files a finished
    match's opponents a moment after it ends)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        listed = people.ok(player, "GET", "/me/opponents")["opponents"]
        if any(o["player"] == opponent for o in listed):
            return
        time.sleep(0.2)
    raise AssertionError(f"{opponent} is not among {player}'s opponents within {within} s")


def test_an_invitation_to_someone_you_played_is_accepted_in_their_lobby(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "cora", "dani")
    cora_id, dani_id = people.ids
    people.finished([cora_id, dani_id])
    wait_for_opponent(people, cora_id, dani_id)
    cora_context = browser.new_context(viewport=DESKTOP, locale="en-US")
    dani_context = browser.new_context(viewport=PHONE, locale="es-ES", is_mobile=True)
    try:
        cora, dani = cora_context.new_page(), dani_context.new_page()
        sign_in(cora, runtime.base, cora_id)
        sign_in(dani, runtime.base, dani_id)
        dani.wait_for_selector("#live[data-state=live]", timeout=UPDATE_MS)
        assert dani.locator("#invites").is_hidden()  # nothing to accept yet

        opponent = f"#opponents li[data-player='{dani_id}']"
        cora.wait_for_selector(opponent)
        assert "· 1 match" in (cora.text_content(opponent) or "")
        assert cora.is_disabled("#invite-create")  # nobody ticked
        cora.screenshot(path=tmp_path / "01-cora-opponents.png", full_page=True)
        cora.check(f"{opponent} input[type=checkbox]")
        cora.select_option("#inv-preset", "dos-jugadores")
        cora.click("#invite-create")
        cora.wait_for_selector("#game[data-status=waiting]")
        game = shown_game(cora)
        assert cora.locator(".seat .invited").count() == 1
        cora.screenshot(path=tmp_path / "02-cora-waiting.png", full_page=True)

        # the invited notification reaches Dani's lobby over the socket
        invite = f"#invites li[data-game='{game}']"
        dani.wait_for_selector(invite, timeout=UPDATE_MS)
        assert dani.locator("#invites").is_visible()
        assert "te invita" in (dani.text_content(invite) or "")
        dani.screenshot(path=tmp_path / "03-dani-invited.png", full_page=True)
        dani.click(f"{invite} button.accept")
        dani.wait_for_selector(f"#game[data-game='{game}'][data-status=playing]")
        cora.wait_for_selector("#game[data-status=playing]", timeout=UPDATE_MS)
        assert shown_game(cora) == game
        dani.screenshot(path=tmp_path / "04-dani-playing.png", full_page=True)
    finally:
        cora_context.close()
        dani_context.close()


def test_an_emote_shows_beside_its_seat_and_the_seats_show_their_ratings(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "eva", "fede")
    eva_id, fede_id = people.ids
    # Eva's strength is known: round(1000 + 40 * (30 - 3 * 2)) = 1960, no longer provisional
    set_rating = {"player": eva_id, "pool": "dos-jugadores:2", "mu": 30, "sigma": 2}
    assert runtime.request("POST", "/dev/rating", set_rating)[0] == 204
    game = playing_game(people, eva_id, fede_id)
    eva_context = browser.new_context(viewport=DESKTOP, locale="en-US")
    fede_context = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    try:
        eva, fede = eva_context.new_page(), fede_context.new_page()
        sign_in(eva, runtime.base, eva_id, f"/?game={game}")
        sign_in(fede, runtime.base, fede_id, f"/?game={game}")
        for page in (eva, fede):
            page.wait_for_selector("#game[data-status=playing] #emotes")
            page.wait_for_selector("#live[data-state=live]", timeout=UPDATE_MS)

        fede.wait_for_selector(".seat[data-seat='0'] .rating:not([hidden])")
        fede.wait_for_selector(".seat[data-seat='1'] .rating:not([hidden])")
        assert fede.text_content(".seat[data-seat='0'] .rating") == "★ 1960"
        assert fede.get_attribute(".seat[data-seat='0'] .rating", "data-provisional") == "false"
        assert fede.text_content(".seat[data-seat='1'] .rating") == "★ 1000?"  # a newcomer
        fede.screenshot(path=tmp_path / "01-fede-ratings.png", full_page=True)

        bubble = ".emote-bubble[data-seat='0'][data-emote='well_played']"
        assert fede.locator(bubble).count() == 0
        eva.click("#emotes button[data-emote='well_played']")
        fede.wait_for_selector(bubble, timeout=UPDATE_MS)  # over Fede's socket
        assert "Well played" in (fede.text_content(bubble) or "")
        assert fede.locator(".emote-bubble").count() == 1
        fede.screenshot(path=tmp_path / "02-fede-sees-the-emote.png", full_page=True)

        # one emote per 3 s: the next one is refused, and the page says so without blocking
        eva.click("#emotes button[data-emote='hello']")
        eva.wait_for_selector("#emote-note:not([hidden])")
        assert "one emote every 3 seconds" in (eva.text_content("#emote-note") or "")
        assert eva.locator("#error").is_hidden()
        eva.screenshot(path=tmp_path / "03-eva-throttled.png", full_page=True)
        assert fede.locator(".emote-bubble[data-emote='hello']").count() == 0

        fede.wait_for_selector(bubble, state="detached", timeout=8_000)  # for a few seconds
    finally:
        eva_context.close()
        fede_context.close()


def test_the_leaderboard_lists_established_ratings_and_my_line(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    people = Players(runtime, "gil", "hugo")
    gil_id, hugo_id = people.ids
    pool = "clasico:4"
    for player, mu in ((gil_id, 45), (hugo_id, 30)):  # 2680 and 1960
        body = {"player": player, "pool": pool, "mu": mu, "sigma": 1 if mu == 45 else 2}
        assert runtime.request("POST", "/dev/rating", body)[0] == 204
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, hugo_id)
        page.click("#nav-leaderboard")
        page.wait_for_selector("#leaderboard")
        page.select_option("#lb-pool", pool)
        page.wait_for_selector(f"#leaderboard[data-pool='{pool}']")
        gil = page.locator(f"#leaderboard tr[data-player='{gil_id}']")
        hugo = page.locator(f"#leaderboard tr[data-player='{hugo_id}']")
        assert gil.locator(".rating").text_content() == "2680"
        assert hugo.locator(".rating").text_content() == "1960"
        ranks = [int(r) for r in page.locator("#leaderboard tbody .rank").all_text_contents()]
        assert ranks == sorted(ranks)  # highest rating first
        assert int(gil.locator(".rank").text_content() or 0) < int(
            hugo.locator(".rank").text_content() or 0
        )
        assert "me" in (hugo.get_attribute("class") or "")
        mine = page.locator("#leaderboard-me")
        assert mine.get_attribute("data-rating") == "1960"
        assert mine.get_attribute("data-rank") == hugo.locator(".rank").text_content()
        assert "rank" in (mine.text_content() or "")
        page.screenshot(path=tmp_path / "01-leaderboard.png", full_page=True)

        # a pool Hugo has no established rating in: his line says provisional, he is not listed
        page.select_option("#lb-pool", "ida-y-vuelta:2")
        page.wait_for_selector("#leaderboard[data-pool='ida-y-vuelta:2']")
        assert page.get_attribute("#leaderboard-me", "data-provisional") == "true"
        assert "provisional" in (page.text_content("#leaderboard-me") or "")
        assert page.locator(f"#leaderboard tr[data-player='{hugo_id}']").count() == 0
        page.screenshot(path=tmp_path / "02-leaderboard-provisional.png", full_page=True)

        page.go_back()  # the address names the pool: back is the pool before
        page.wait_for_selector(f"#leaderboard[data-pool='{pool}']")
    finally:
        context.close()
