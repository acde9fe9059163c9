"""Notifications over HTTP on the local runtime: its stream pump feeds functions/notify as
Lambda's event source would, and players read their inboxes with GET /me/notifications."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from local.process import Runtime

pytestmark = pytest.mark.e2e


def wait_for(
    rt: Runtime, token: str, count: int, within: float = 10, kind: str | None = None
) -> dict[str, Any]:
    """The inbox once it holds ``count`` notifications, one of them of ``kind`` if given. It
    asks every 0.1 s (the stream pump's own pace) for the first two seconds, where nearly every
    note arrives, then every 0.5 s: a wait for a 36 s turn's timer is 80 polls, not 360."""
    began = time.monotonic()
    deadline = began + within
    while True:
        status, _, body = rt.request("GET", "/me/notifications?limit=100", token=token)
        assert status == 200, body
        notes = body["notifications"]
        arrived = len(notes) >= count and (kind is None or any(n["type"] == kind for n in notes))
        now = time.monotonic()
        if arrived or now > deadline:
            return dict(body)
        time.sleep(0.1 if now - began < 2 else 0.5)


def test_a_join_reaches_the_creators_inbox(runtime: Runtime) -> None:
    suffix = uuid.uuid4().hex[:8]
    ana, ben = runtime.token(f"ana{suffix}", "Ana"), runtime.token(f"ben{suffix}", "Ben")
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=ana
    )
    assert status == 201, game
    status, _, _ = runtime.request("POST", f"/games/{game['id']}/join", {}, token=ben)
    assert status == 200
    status, _, view = runtime.request("GET", f"/games/{game['id']}", token=ana)
    # player_joined and game_started; your_turn too when the deal made ana the opener: all of
    # them before "read", or a late one would stay unread
    expected = 3 if view["turn"] == view["you"]["seat"] else 2
    inbox = wait_for(runtime, ana, expected)
    assert len(inbox["notifications"]) == expected
    kinds = {(n["type"], n["game"], n["version"]) for n in inbox["notifications"]}
    assert {("player_joined", game["id"], 2), ("game_started", game["id"], 2)} <= kinds
    assert inbox["unread"] >= 2
    joined = next(n for n in inbox["notifications"] if n["type"] == "player_joined")
    assert joined["body"] == "Ben se ha sentado en tu partida de Dominó para dos jugadores."
    status, _, raw = runtime.request(
        "POST", "/me/notifications/read", {"until": inbox["notifications"][0]["id"]}, token=ana
    )
    assert (status, raw) == (204, None)
    assert wait_for(runtime, ana, 0)["unread"] == 0


def test_a_push_reaches_a_registered_phone(runtime: Runtime) -> None:
    """PUT /me/devices over HTTP; the notifier pushes through boto3's SNS code path to the
    runtime's moto server; GET /dev/pushes shows what reached the phone."""
    suffix = uuid.uuid4().hex[:8]
    ana, ben = runtime.token(f"ana{suffix}", "Ana"), runtime.token(f"ben{suffix}", "Ben")
    token = f"apns-{suffix}"
    device = {"platform": "apns", "token": token, "locale": "en"}
    status, _, _ = runtime.request("PUT", f"/me/devices/phone-{suffix}", device, token=ana)
    assert status == 204
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=ana
    )
    runtime.request("POST", f"/games/{game['id']}/join", {}, token=ben)
    deadline = time.monotonic() + 10
    mine: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        status, _, body = runtime.request("GET", "/dev/pushes")
        assert status == 200
        mine = [p for p in body["pushes"] if p["token"] == token]
        if len(mine) >= 2:
            break
        time.sleep(0.1)
    kinds = {p["payload"]["type"] for p in mine}
    assert {"player_joined", "game_started"} <= kinds, mine
    joined = next(p for p in mine if p["payload"]["type"] == "player_joined")
    assert (
        joined["payload"]["aps"]["alert"]["body"] == "Ben has joined your Two-player dominoes game."
    )
