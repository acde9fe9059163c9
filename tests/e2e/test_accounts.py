"""Accounts over HTTP on the local runtime (what `make run` serves): PATCH /me and DELETE /me
are template routes the runtime serves like any other; dev mode has no user pool, so deletion
skips that step; dev tokens carry `iat`, so a token issued before the deletion is refused."""

from __future__ import annotations

import time
import uuid

import pytest

from local.process import Runtime

pytestmark = pytest.mark.e2e


def test_a_player_names_themself_then_deletes_the_account(runtime: Runtime) -> None:
    player = f"acct-{uuid.uuid4().hex[:8]}"
    token = runtime.token(player, "Zoe")
    me = {
        "player": player,
        "name": "Zoe",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    assert runtime.request("GET", "/me", token=token)[2] == me
    status, _, body = runtime.request("PATCH", "/me", {"name": "Zoé"}, token=token)
    assert (status, body) == (
        200,
        {
            "player": player,
            "name": "Zoé",
            "mute": [],
            "locale": None,
            "auto_forced": False,
            "quiet_hours": None,
        },
    )
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2, "bots": 1}, token=token
    )
    assert status == 201 and game["seats"][0]["name"] == "Zoé"
    assert runtime.request("PATCH", "/me", {"name": "Zo\u202ee"}, token=token)[0] == 400

    status, _, body = runtime.request("DELETE", "/me", token=token)
    assert (status, body) == (204, None)
    assert runtime.request("DELETE", "/me", token=token)[0] == 204
    # the game played on without them: a bot took the seat and played the match out
    status, _, seen = runtime.request("GET", f"/games/{game['id']}", token=token)
    assert status == 200 and seen["seats"][0]["bot"] and seen["status"] == "finished"
    assert runtime.request("GET", "/me/games", token=token)[2]["games"] == []
    # the token still passes the authorizer, but brings nothing back
    status, _, body = runtime.request("GET", "/me", token=token)
    assert status == 401 and body["error"]["code"] == "unauthorized"
    refused = runtime.request("POST", "/games", {"preset": "dos-jugadores", "players": 2},
                              token=token)  # fmt: skip
    assert refused[0] == 401
    time.sleep(1.1)  # a token's iat is in whole seconds: sign in again a second later
    fresh = runtime.token(player, "Zoe")
    assert runtime.request("GET", "/me", token=fresh)[2] == me
