"""Whole games through the terminal client, over HTTP on the local runtime."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from local.process import Runtime
from tests.cli.conftest import Player, cli_env, take_turn
from tests.conftest import REPO

pytestmark = pytest.mark.e2e

#: the client prints a created game's id on its first line
CREATED = re.compile(r"Created game (\S+)")
#: a bound on the actions of one match, far above any real one
MAX_ACTIONS = 3000


def created_game(output: str) -> str:
    found = CREATED.search(output)
    assert found, output
    return found.group(1)


def test_login_gets_a_dev_token_and_keeps_it_private(runtime: Runtime, tmp_path: Path) -> None:
    env = cli_env(runtime, tmp_path, token=None)
    del env["DOMINO_URL"]  # the URL comes from --url, and then from the file
    anon = Player("", "", env)
    result = anon.run("login", "--name", "Dora Cli", "--url", runtime.base)
    assert "Logged in as Dora Cli (dora-cli)" in result.stdout
    path = tmp_path / "domino" / "config.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = json.loads(path.read_text())
    assert stored["url"] == runtime.base
    assert stored["token"] not in result.output  # a token is never printed
    # later commands find the URL and the token in the file alone
    assert anon.run("games").stdout == "No games.\n"


def test_login_with_a_given_token_checks_it_first(runtime: Runtime, tmp_path: Path) -> None:
    env = cli_env(runtime, tmp_path, token=None)
    anon = Player("", "", env)
    bad = anon.run("login", "--token", "not.a.token", expect=1)
    assert "error unauthorized" in bad.stderr
    assert not (tmp_path / "domino" / "config.json").exists()
    token = runtime.token("erin-cli", "Erin")
    good = anon.run("login", "--token", token)
    assert "Logged in as Erin (erin-cli)" in good.stdout
    assert token not in good.output


def test_new_with_bots_and_show_draw_the_board_and_hand(player: Callable[[str], Player]) -> None:
    alice = player("Alice")
    result = alice.run("new", "clasico", "--bots", "3")
    game = created_game(result.stdout)
    assert "domino join" not in result.stdout  # every seat is taken
    view = alice.view(game)
    assert view["status"] == "playing" and len(view["seats"]) == 4
    shown = alice.run("show", game).stdout
    assert f"Game {game}" in shown and "clasico · playing" in shown
    for seat in view["seats"][1:]:
        assert f"{seat['name']} (bot)" in shown
    assert "Alice (you)" in shown
    hand_line = next(line for line in shown.splitlines() if line.startswith("your hand:"))
    legal = {play["tile"] for play in view["you"]["legal"]}
    for tile in view["you"]["hand"]:
        low, high = tile.split("-")
        drawn = f"[{low}|{high}]" + ("*" if tile in legal else "")
        assert drawn in hand_line, (drawn, hand_line)
    on_turn = view["seats"][view["turn"]]["name"]
    assert ("your turn" in shown) if view["turn"] == 0 else (f"{on_turn}'s turn" in shown)
    if not view["board"]["tiles"]:
        assert "(the board is empty)" in shown
        take_turn(alice, game)  # alice leads; the bots answer inside the same command
        view, shown = alice.view(game), alice.run("show", game).stdout
    for placed in view["board"]["tiles"]:
        assert_drawn(placed["tile"], shown)


def assert_drawn(tile: str, shown: str) -> None:
    """A tile is on screen: a double standing across, another tile either way round."""
    low, high = tile.split("-")
    if low == high:
        assert f"┌{low}┐" in shown and f"└{low}┘" in shown, (tile, shown)
    else:
        assert f"[{low}|{high}]" in shown or f"[{high}|{low}]" in shown, (tile, shown)


def test_a_whole_clasico_match_against_three_bots(player: Callable[[str], Player]) -> None:
    alice = player("Alice")
    game = created_game(alice.run("new", "clasico", "--players", "4", "--bots", "3").stdout)
    view = alice.view(game)
    hands_seen = {view["hand_number"]}
    for _ in range(MAX_ACTIONS):
        if view["status"] == "finished":
            break
        assert view["turn"] == 0, view  # the bots move inside our command
        view = take_turn(alice, game)
        hands_seen.add(view["hand_number"])
    assert view["status"] == "finished"
    result = view["result"]
    assert result["match_over"] and result["match_winners"]
    assert max(seat["score"] for seat in view["seats"]) >= 100
    shown = alice.run("show", game).stdout
    assert "Match over:" in shown and "clasico · finished" in shown
    log = alice.run("moves", game).stdout
    assert "hand_over" in log and "play [" in log
    moves = json.loads(alice.run("moves", game, "--json").stdout)
    assert [move["n"] for move in moves] == list(range(1, len(moves) + 1))
    assert {move["hand_number"] for move in moves} >= hands_seen


def test_two_players_play_one_hand_to_its_end(player: Callable[[str], Player]) -> None:
    alice, bob = player("Alice"), player("Bob")
    created = alice.run("new", "dos-jugadores", "--single")
    game = created_game(created.stdout)
    assert f"domino join {game}" in created.stdout
    assert f"/?join={game}" in created.stdout.replace("\n", "")  # the web client's link
    assert "Waiting for players" in alice.run("show", game).stdout
    joined = bob.run("join", game)
    assert "Bob (you)" in joined.stdout
    seats = {0: alice, 1: bob}
    view = alice.view(game)
    for _ in range(MAX_ACTIONS):
        if view["status"] == "finished":
            break
        view = take_turn(seats[view["turn"]], game)
    assert view["status"] == "finished" and view["rules"]["match"] == "single"
    last = view["last_hand"]
    assert last["match_over"] and last["reason"] in ("domino", "closed")
    for who in (alice, bob):
        shown = who.run("show", game).stdout
        assert "Last hand (hand 1)" in shown and "Match over:" in shown
        for tiles in last["hands"].values():  # every hand is revealed at the end
            for tile in tiles:
                low, high = tile.split("-")
                assert f"[{low}|{high}]" in shown
    listed = alice.run("games", "--status", "finished").stdout
    assert game in listed and "dos-jugadores" in listed


def test_games_says_whose_turn_and_inbox_lists_notifications(
    player: Callable[[str], Player], runtime: Runtime
) -> None:
    alice, bob = player("Alice"), player("Bob")
    game = created_game(alice.run("new", "dos-jugadores", "--private").stdout)
    bob.run("join", game)
    view = alice.view(game)
    on_turn, waiting = (alice, bob) if view["turn"] == 0 else (bob, alice)
    assert "you" in on_turn.run("games").stdout.split(game)[1].splitlines()[0]
    games = json.loads(waiting.run("games", "--json").stdout)
    assert [g["your_turn"] for g in games if g["id"] == game] == [False]
    assert json.loads(on_turn.run("games", "--my-turn", "--json").stdout)[0]["id"] == game
    deadline = time.monotonic() + 10  # the notifier runs off the table's stream
    while time.monotonic() < deadline:
        inbox = json.loads(alice.run("inbox", "--json").stdout)
        if inbox["notifications"]:
            break
        time.sleep(0.2)
    assert any(note["game"] == game for note in inbox["notifications"]), inbox
    shown = alice.run("inbox", "--mark-read").stdout
    assert f"{inbox['unread']} unread" in shown and game in shown
    assert json.loads(alice.run("inbox", "--json").stdout)["unread"] == 0


def watching(who: Player, game: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``domino watch GAME --count 1`` as ``who``, running, and what it printed up to its
    "watching" line (the first view, then that line once the socket is open)."""
    env = {**os.environ, **who.env, "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "domino_cli", "watch", game, "--count", "1", "--timeout", "60"]
    watcher = subprocess.Popen(
        args, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert watcher.stdout is not None
    before = []
    for line in watcher.stdout:
        before.append(line)
        if line.startswith("watching"):
            break
    return watcher, before


def test_watch_redraws_on_a_change(player: Callable[[str], Player]) -> None:
    alice, bob = player("Alice"), player("Bob")
    game = created_game(alice.run("new", "dos-jugadores").stdout)
    watcher, before = watching(alice, game)
    try:
        assert any("version 1" in line for line in before), before
        bob.run("join", game)  # version 2: the game is dealt
        out, errors = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert watcher.returncode == 0, errors
    assert "version 2" in out and "Bob" in out and "your hand:" in out


def test_watch_follows_someone_elses_public_game(player: Callable[[str], Player]) -> None:
    alice, bob, carla = player("Alice"), player("Bob"), player("Carla")
    game = created_game(alice.run("new", "dos-jugadores").stdout)
    bob.run("join", game)
    watcher, _ = watching(carla, game)
    try:
        deadline = time.monotonic() + 10  # the watch is taken once the socket has asked
        while alice.view(game)["watchers"] != 1:
            assert time.monotonic() < deadline, "carla's socket is not watching"
            time.sleep(0.1)
        view = alice.view(game)
        take_turn(alice if view["turn"] == view["you"]["seat"] else bob, game)
        out, errors = watcher.communicate(timeout=60)
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert watcher.returncode == 0, errors
    assert "version 3" in out and "your hand:" not in out  # a spectator sees no hand


@pytest.mark.parametrize(
    ("preset", "bots", "arms"),
    [
        ("cruzado", 2, ("north", "east", "south", "west")),
        ("chipre", 3, ("north", "east", "south", "west", "northeast", "northwest")),
    ],
)
def test_a_cross_or_star_is_shown_by_arm(
    player: Callable[[str], Player], preset: str, bots: int, arms: tuple[str, ...]
) -> None:
    alice = player("Alice")
    game = created_game(alice.run("new", preset, "--bots", str(bots)).stdout)
    view = alice.view(game)
    for _ in range(20):  # until the opening double is down and an arm holds a tile
        if len(view["board"]["tiles"]) > 1 or view["status"] != "playing":
            break
        view = take_turn(alice, game)
    shown = alice.run("show", game).stdout
    centre = view["board"]["tiles"][0]["tile"]
    assert centre.split("-")[0] == centre.split("-")[1]  # cross and star open with a double
    rows = shown.splitlines()
    assert any(row.startswith("centre ") for row in rows), shown
    for arm in arms:
        assert any(row.startswith(f"{arm} ") for row in rows), (arm, shown)
    for placed in view["board"]["tiles"][1:]:
        arm_rows = [row for row in rows if row.startswith(f"{placed['end']} ")]
        low, high = placed["tile"].split("-")
        if low != high:
            shown_on_arm = any(f"[{low}|{high}]" in r or f"[{high}|{low}]" in r for r in arm_rows)
            assert shown_on_arm, (placed, view["board"], shown)


def test_watch_play_asks_for_a_move_on_your_turn(player: Callable[[str], Player]) -> None:
    alice = player("Alice")
    game = created_game(alice.run("new", "clasico", "--bots", "3").stdout)
    view = alice.view(game)
    assert view["turn"] == 0  # the bots move inside the command that hands them the turn
    you = view["you"]
    if you["legal"]:
        choice = you["legal"][0]
        move = f"{choice['tile']} {choice['end'] or ''}"
    else:
        move = "draw" if you["can_draw"] else "pass"
    typed = f"7-7\n{move}\n"  # a refused move first: the prompt says why and asks again
    env = {**os.environ, **alice.env, "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "domino_cli", "watch", game, "--play", "--timeout", "3"]
    done = subprocess.run(
        args, cwd=REPO, env=env, input=typed, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "error invalid_request" in done.stderr
    after = alice.view(game)
    assert after["version"] > view["version"]
    assert f"version {after['version']}" in done.stdout
    assert done.stdout.count("your move (3-5 [end] / draw / pass") >= 2


def test_cede_hands_the_lead_to_the_partner_in_cubano(
    runtime: Runtime, player: Callable[[str], Player]
) -> None:
    alice = player("Alice")
    body = {"preset": "cubano", "players": 4, "bots": 3, "deal": {"lot": 0}}
    status, _, created = runtime.request("POST", "/games", body, token=alice.token)
    assert status == 201, created
    game = created["id"]
    shown = alice.run("show", game).stdout
    assert "your turn: play / cede" in shown and "Alice is offered the lead" in shown
    ceded = alice.run("cede", game).stdout
    view = alice.view(game)
    assert view["lead"] is None and view["board"]["tiles"][0]["seat"] == 2  # the bot partner led
    assert "cede" in alice.run("moves", game).stdout
    assert "error cannot_cede" in alice.run("cede", game, expect=1).stderr, ceded
