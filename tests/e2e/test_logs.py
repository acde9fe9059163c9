"""The local runtime's logs (docs/SECURITY.md "Log contents"): its access log, what the handlers
and stream consumers write, the pushes it shows. A game played over HTTP with dev tokens leaves
no token, no dev token secret and no tile in them."""

from __future__ import annotations

from pathlib import Path

import pytest

from local.ddb import free_port
from local.paths import local_dir
from local.process import Runtime
from tests.deals import DOS_DEAL
from tests.e2e.api_helpers import TILE_IN_TEXT, Table, laid_tiles, tile

pytestmark = pytest.mark.e2e


def test_a_game_over_http_leaves_no_token_and_no_tile_in_the_runtimes_logs(
    tmp_path: Path,
) -> None:
    # the access log on, its stdout and stderr kept in the log file
    rt = Runtime(free_port(), free_port(), None, quiet=False, log=tmp_path / "runtime.log")
    rt.start()
    try:
        tokens = {0: rt.token("alice-log", "Alice"), 1: rt.token("bob-log", "Bob")}
        status, _, game = rt.request(
            "POST",
            "/games",
            {"preset": "dos-jugadores", "players": 2, "deal": DOS_DEAL},
            token=tokens[0],
        )
        assert status == 201, game
        table = Table(rt, game["id"], tokens)
        status, _, _ = rt.request(
            "PUT",
            "/me/devices/phone-1",
            {"platform": "fcm", "token": "fcm-device-token-2"},
            token=tokens[1],
        )
        assert status == 204
        status, _, _ = table.act(1, "join")
        assert status == 200
        # refusals naming the other seat's tile, in and out of turn
        assert table.act(1, "play", {"tile": "0-0"})[0] == 422
        assert table.act(0, "play", {"tile": "6-6"})[0] == 422
        for actions, _ in enumerate(table.play_out(), 1):
            if actions == 40:
                break
        for seat in tokens:
            rt.get_retrying(f"/games/{game['id']}/moves", token=tokens[seat])
            rt.request("GET", "/me/notifications", token=tokens[seat])
        laid = laid_tiles(rt, game["id"], tokens[0])
    finally:
        rt.stop()
    everything = rt.log.read_text()
    # a push's text is logged as a phone would show it, naming the public move ("Alice played
    # 4-6"): those lines may name a laid tile, and every other line no tile at all
    pushes = [line for line in everything.splitlines() if line.startswith("push -> ")]
    assert pushes  # Bob's phone was pushed to
    in_pushes = {tile(f"{a}-{b}") for line in pushes for a, b in TILE_IN_TEXT.findall(line)}
    assert in_pushes <= laid, sorted(in_pushes - laid)
    log = "\n".join(line for line in everything.splitlines() if not line.startswith("push -> "))
    assert f"/games/{game['id']}/play" in log  # the access log was on
    for token in tokens.values():
        assert token not in log
        assert token.rpartition(".")[2] not in log
    secret = (local_dir() / "dev-token-secret").read_text().strip()
    assert secret not in log
    assert "fcm-device-token-2" not in log
    named = {tile(f"{a}-{b}") for a, b in TILE_IN_TEXT.findall(log)}
    assert not named, sorted(named)  # every tile of the deal was hidden from some seat
