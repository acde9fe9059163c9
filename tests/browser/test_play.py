"""The web client (web/) played through a headless Chromium, as a person would: sign in with a
name, create a game from the form, share its link, and click tiles, Draw and Pass until the
match is over. Screenshots of each stage go to the test's tmp_path.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.long(55)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
#: how long the page may take to show another player's move (the WebSocket, else polling)
UPDATE_MS = 15_000


def sign_in(page: Any, base: str, name: str, path: str = "/") -> None:
    page.goto(base + path)
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#header .who")


def create_game(page: Any, preset: str, players: int, bots: int, single: bool) -> str:
    page.wait_for_selector(f"#preset option[value='{preset}']", state="attached")
    page.select_option("#preset", preset)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#bots", str(bots))
    page.set_checked("#single", single)
    page.click("#create")
    page.wait_for_selector("#game, #error:not([hidden])")
    assert page.locator("#error").is_hidden(), page.text_content("#error")
    return str(page.get_attribute("#game", "data-game"))


def game_attr(page: Any, name: str) -> str:
    return str(page.get_attribute("#game", f"data-{name}"))


def take_turn(page: Any) -> bool:
    """Play the first legal tile, else draw, else pass: False when it is not this page's turn.
    Waits until the page shows the game's next version."""
    if game_attr(page, "my-turn") != "true":
        return False
    version = int(game_attr(page, "version"))
    legal = page.locator("#hand button.tile.legal")
    if legal.count():
        legal.first.click()
        chooser = page.locator("#chooser button[data-end]")
        if page.locator("#chooser").count():
            chooser.first.click()
    elif page.is_enabled("#draw"):
        page.click("#draw")
    else:
        assert page.is_enabled("#pass"), "on turn with nothing to play, draw or pass"
        page.click("#pass")
    page.wait_for_function(
        "v => Number(document.querySelector('#game')?.dataset.version) > v", arg=version
    )
    error = page.locator("#error")
    assert error.is_hidden(), error.text_content()
    return True


def play_until_finished(
    pages: list[Any], shots: Path, within: float = 240, on_hand_over: Any = None
) -> int:
    """Each page plays its turns until every page shows the match over; the clicks made."""
    deadline = time.monotonic() + within
    clicks = 0
    hands_seen: set[str] = set()
    while time.monotonic() < deadline:
        if all(game_attr(p, "status") == "finished" for p in pages):
            return clicks
        moved = False
        for page in pages:
            if game_attr(page, "status") == "playing" and take_turn(page):
                clicks += 1
                moved = True
            if on_hand_over and page.locator("#last-hand").count():
                hand = game_attr(page, "hand")
                if hand not in hands_seen:
                    hands_seen.add(hand)
                    on_hand_over(page, hand)
        if not moved:
            time.sleep(0.1)
    raise AssertionError(f"the match did not finish within {within} s ({clicks} moves made)")


def test_two_people_play_one_hand_of_dos_jugadores(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    ana_context = browser.new_context(viewport=DESKTOP, locale="es-ES")
    beto_context = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    try:
        # Beto's socket is refused: his page must fall back to polling with ETags
        beto_context.route_web_socket("**/ws?*", lambda socket: socket.close())
        ana, beto = ana_context.new_page(), beto_context.new_page()
        sign_in(ana, runtime.base, "Ana")
        assert ana.text_content("#signout") == "Salir"  # Spanish from the browser's language
        ana.screenshot(path=tmp_path / "01-lobby.png")
        game = create_game(ana, "dos-jugadores", players=2, bots=0, single=True)
        ana.wait_for_selector("#game[data-status=waiting]")
        link = ana.input_value("#share-link")
        assert link.endswith(f"/?join={game}")
        ana.screenshot(path=tmp_path / "02-waiting.png")

        # Beto opens the shared link, signs in there and joins
        sign_in(beto, runtime.base, "Beto", link.removeprefix(runtime.base))
        beto.wait_for_selector("#join")
        beto.screenshot(path=tmp_path / "03-invited.png")
        beto.click("#join")
        for page in (ana, beto):  # Ana's page learns of the join by itself
            page.wait_for_selector("#game[data-status=playing]", timeout=UPDATE_MS)
        ana.screenshot(path=tmp_path / "04-ana-playing.png")
        beto.screenshot(path=tmp_path / "05-beto-playing.png")
        assert beto.text_content("#signout") == "Sign out"
        assert beto.get_attribute("#live", "data-state") == "polling"
        assert ana.get_attribute("#live", "data-state") == "live"

        play_until_finished([ana, beto], tmp_path)
        for name, page in (("ana", ana), ("beto", beto)):
            page.wait_for_selector("#result")
            assert page.locator("#last-hand .revealed li").count() == 2
            page.screenshot(path=tmp_path / f"06-{name}-result.png", full_page=True)
        verdicts = {ana.text_content(".verdict"), beto.text_content(".verdict")}
        assert verdicts <= {"¡Ganaste!", "Perdiste.", "Empate", "You won!", "You lost.", "A draw"}
        assert ana.locator("#moves li").count() >= 2

        # back in the lobby: the game is listed, and the inbox told of it (then marked read)
        ana.click("#back")
        ana.wait_for_selector(f"#my-games [data-game='{game}']")
        ana.wait_for_selector("#inbox .notes li", timeout=UPDATE_MS)
        ana.screenshot(path=tmp_path / "07-lobby-inbox.png", full_page=True)
        if ana.locator("#mark-read").count():
            ana.click("#mark-read")
            ana.wait_for_selector("#mark-read", state="detached")
        assert ana.locator("#inbox .notes li.unread").count() == 0
    finally:
        ana_context.close()
        beto_context.close()


def test_one_person_plays_clasico_against_three_bots(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, "Carla")
        # the API's errors are shown as it words them, with their code
        page.goto(runtime.base + "/?game=no-such-game")
        page.wait_for_selector("#error:not([hidden])")
        assert "(game_not_found)" in str(page.text_content("#error"))
        page.click("#back")
        create_game(page, "clasico", players=4, bots=3, single=False)
        page.wait_for_selector("#game[data-status=playing]")
        assert page.locator(".seat").count() == 4
        page.screenshot(path=tmp_path / "01-first-hand.png")

        shots = []

        def hand_over(page: Any, hand: str) -> None:  # the first two hands revealed
            if len(shots) < 2:
                shots.append(hand)
                page.screenshot(path=tmp_path / f"02-hand-{hand}-dealt.png", full_page=True)

        play_until_finished([page], tmp_path, on_hand_over=hand_over)
        page.wait_for_selector("#result")
        page.screenshot(path=tmp_path / "03-result.png", full_page=True)
        scores = [int(s.split()[0]) for s in page.locator(".seat .score").all_text_contents()]
        assert max(scores) >= 100  # clasico plays to 100
    finally:
        context.close()


@pytest.mark.parametrize("preset", ["cruzado", "chipre"])
def test_the_cross_and_the_star_are_laid_out_around_the_opening_double(
    runtime: Runtime, browser: Any, tmp_path: Path, preset: str
) -> None:
    """Once the opening double is down, its open arms show around it: the four sides (the
    star's diagonals open when every side is covered). Played on a phone-sized screen."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, locale="es-ES")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, f"Dora {preset}")
        create_game(page, preset, players=4, bots=3, single=True)
        page.wait_for_selector("#game[data-status=playing]")
        page.wait_for_selector(f".board[data-layout={'cross' if preset == 'cruzado' else 'star'}]")
        for _ in range(6):  # a few turns, so that arms grow
            if game_attr(page, "status") != "playing" or not take_turn(page):
                break
        if game_attr(page, "status") == "playing":
            sides = ("north", "east", "south", "west")
            box = {e: page.locator(f".board .end[data-end={e}]").bounding_box() for e in sides}
            assert all(box.values()), box  # every side is an open end, drawn as one
            middle = page.locator(".board .field .tile").first.bounding_box()
            assert box["north"]["y"] < middle["y"] < box["south"]["y"]
            assert box["west"]["x"] < middle["x"] < box["east"]["x"]
        page.screenshot(path=tmp_path / f"{preset}.png", full_page=True)
    finally:
        context.close()


def test_the_seat_offered_the_lead_cedes_it_with_one_click(
    runtime: Runtime, browser: Any, tmp_path: Path
) -> None:
    """cubano: the lot offers Cora (seat 1) the lead; Cede hands it to her partner, a bot, who
    leads; the button is gone from games that offer no lead."""
    host = runtime.token(f"host{int(time.time() * 1000)}")
    body = {"preset": "cubano", "players": 4, "bots": 2, "deal": {"lot": 1}}
    status, _, game = runtime.request("POST", "/games", body, token=host)
    assert status == 201, game
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        sign_in(page, runtime.base, "Cora", f"/?join={game['id']}")
        page.click("#join")
        page.wait_for_selector("#game[data-status=playing]")
        assert page.is_enabled("#cede") and game_attr(page, "my-turn") == "true"
        page.screenshot(path=tmp_path / "01-offered-the-lead.png")
        page.click("#cede")
        page.wait_for_selector("#cede[disabled]")
        assert page.locator("#error").is_hidden(), page.text_content("#error")
        page.screenshot(path=tmp_path / "02-ceded.png")
        status, _, view = runtime.request("GET", f"/games/{game['id']}", token=host)
        assert view["board"]["tiles"][0]["seat"] == 3  # her partner led
        assert "ceded the lead" in str(page.text_content("body"))
        page.click("#back")
        create_game(page, "clasico", players=4, bots=3, single=True)
        page.wait_for_selector("#game[data-status=playing]")
        assert page.locator("#cede").count() == 0
    finally:
        context.close()
