"""`domino match`: quick match from the terminal, over HTTP on the local runtime."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from local.process import Runtime
from tests.cli.conftest import Player, cli_env

pytestmark = pytest.mark.e2e


def cli_player(runtime: Runtime, tmp_path: Path, name: str) -> Player:
    player_id = f"{name.lower()}-{secrets.token_hex(4)}"
    token = runtime.token(player_id, name)
    return Player(player_id, token, cli_env(runtime, tmp_path / player_id, token))


def test_match_waits_for_a_stranger_and_shows_the_game(runtime: Runtime, tmp_path: Path) -> None:
    ana, ben = cli_player(runtime, tmp_path, "Ana"), cli_player(runtime, tmp_path, "Ben")
    status, _, waiting = runtime.request(
        "POST",
        "/match/tickets",
        {"preset": "dos-jugadores", "players": 2, "wait_s": None},
        token=ana.token,
    )
    assert status == 201 and waiting["status"] == "searching", waiting
    view = json.loads(ben.run("match", "dos-jugadores", "--people-only", "--json").stdout)
    assert view["status"] == "playing"
    assert {s["player"] for s in view["seats"]} == {ana.id, ben.id}
    text = ana.run("show", view["id"]).stdout
    assert "Ben" in text


def test_match_with_wait_0_plays_bots_at_once(runtime: Runtime, tmp_path: Path) -> None:
    cid = cli_player(runtime, tmp_path, "Cid")
    result = cid.run("match", "parejas-111", "--wait", "0", "--no-ranked")
    assert "Matched into game" in result.stdout, result.output


def test_match_gives_up_and_cancels_its_ticket(runtime: Runtime, tmp_path: Path) -> None:
    dan = cli_player(runtime, tmp_path, "Dan")
    result = dan.run("match", "clasico", "--people-only", "--within", "1", expect=4)
    assert "the search was cancelled" in result.stdout, result.output
    # cancelled: another search may start at once
    status, _, ticket = runtime.request(
        "POST", "/match/tickets", {"preset": "clasico", "players": 4}, token=dan.token
    )
    assert status == 201, ticket
    assert runtime.request("DELETE", f"/match/tickets/{ticket['id']}", token=dan.token)[0] == 204
