"""`domino-admin` against the local runtime's DynamoDB Local (`--local`), as an operator runs
it beside `make run`: reports listed by day, a rename, a ban (401 everywhere, the search
cancelled, bots in the seats, the others' game going on) and its lifting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any

import pytest

from local.process import Runtime

pytestmark = pytest.mark.e2e


def admin(runtime: Runtime, *args: str) -> subprocess.CompletedProcess[str]:
    """One `domino-admin --local` run at this runtime (no table variables of the caller's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLE_", "IDEMPOTENCY_"))}
    return subprocess.run(
        [sys.executable, "-m", "domino_admin", "--local", f"--port={runtime.port}",
         f"--ddb-port={runtime.ddb_port}", *args],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip


def person(runtime: Runtime, name: str) -> tuple[str, str]:
    player = f"{name.lower()}-{uuid.uuid4().hex[:8]}"
    return player, runtime.token(player, name)


def test_a_ban_ends_every_token_and_hands_the_seats_to_bots(runtime: Runtime) -> None:
    cheat, cheat_token = person(runtime, "Cheat")
    _, other_token = person(runtime, "Honest")
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=cheat_token
    )
    assert status == 201
    assert runtime.request("POST", f"/games/{game['id']}/join", {}, token=other_token)[0] == 200
    ticket_body = {"preset": "clasico", "players": 4, "wait_s": None}
    status, _, ticket = runtime.request("POST", "/match/tickets", ticket_body, token=cheat_token)
    assert status == 201 and ticket["status"] == "searching"

    banned = admin(runtime, "ban", cheat, "--reason", "bot use", "--json")
    assert banned.returncode == 0, banned.stderr
    assert json.loads(banned.stdout) == {
        "player": cheat,
        "games_left": 1,
        "ticket_cancelled": True,
    }

    for method, path in [
        ("GET", "/me"),
        ("GET", f"/games/{game['id']}"),
        ("GET", f"/match/tickets/{ticket['id']}"),
        ("GET", "/me/games"),
        ("POST", "/games"),
    ]:
        body: dict[str, Any] | None = (
            {"preset": "clasico", "players": 4} if method == "POST" else None
        )
        status, _, refused = runtime.request(method, path, body, token=cheat_token)
        assert (status, refused["error"]["code"]) == (401, "unauthorized"), (method, path)
    # a token issued after the ban is refused as well: the ban is the account's, not a token's
    again = runtime.token(cheat, "Cheat")
    assert runtime.request("GET", "/me", token=again)[0] == 401

    # the other player's game goes on, a bot in the banned player's seat
    status, _, seen = runtime.request("GET", f"/games/{game['id']}", token=other_token)
    assert status == 200
    seat = next(s for s in seen["seats"] if s["player"] == cheat)
    assert seat["bot"] and seen["status"] in ("playing", "finished")

    # banning twice is banning once; unban gives the account back
    assert admin(runtime, "ban", cheat).returncode == 0
    lifted = admin(runtime, "unban", cheat)
    assert lifted.returncode == 0 and "may play again" in lifted.stdout
    assert runtime.request("GET", "/me", token=cheat_token)[0] == 200
    not_banned = admin(runtime, "unban", cheat)
    assert not_banned.returncode == 1 and "was not banned" in not_banned.stderr


def test_an_operator_renames_a_player_and_reads_the_days_reports(runtime: Runtime) -> None:
    rude, rude_token = person(runtime, "Rude")
    reporter, reporter_token = person(runtime, "Reporter")
    # other tests move the runtime's clock on: a report is of the runtime's day, not the machine's
    assert runtime.request("POST", "/dev/clock", {"advance": 86_400})[0] == 200
    # a name the filter let through, which other players find rude
    assert runtime.request("PATCH", "/me", {"name": "Rude Name"}, token=rude_token)[0] == 200
    status, _, _ = runtime.request(
        "POST", f"/players/{rude}/reports", {"reason": "name", "note": "see the name"},
        token=reporter_token,
    )  # fmt: skip
    assert status == 202

    listed = admin(runtime, "reports", "--json")
    assert listed.returncode == 0, listed.stderr
    mine = [r for r in json.loads(listed.stdout) if r["player"] == rude]
    assert [(r["reporter"], r["reason"], r["note"]) for r in mine] == [
        (reporter, "name", "see the name")
    ]

    renamed = admin(runtime, "rename", rude, "Polite Player")
    assert renamed.returncode == 0, renamed.stderr
    assert runtime.request("GET", "/me", token=rude_token)[2]["name"] == "Polite Player"
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=rude_token
    )
    assert status == 201 and game["seats"][0]["name"] == "Polite Player"

    # the operator is held to the names rule too, and a player nobody has been is refused
    refused = admin(runtime, "rename", rude, "\u202e")
    assert refused.returncode == 1 and "name" in refused.stderr
    unknown = admin(runtime, "ban", f"nobody-{uuid.uuid4().hex[:8]}")
    assert unknown.returncode == 1 and "no such player" in unknown.stderr
