"""One language per player (docs/api.md "One language per player"), on the local runtime: the
inbox and every socket of a player speak the language they chose with PATCH /me, else their
latest device's; each device's pushes its own language, a device without one the player's."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from websockets.sync.client import connect

from local.process import Runtime
from tests.e2e.test_live import WITHIN, receive, wait_for_connections, ws_url

pytestmark = pytest.mark.e2e

JOINED = {"en": "New player", "es": "Nuevo jugador"}


def pushes_of(runtime: Runtime, game: str, tokens: set[str]) -> dict[str, str]:
    """device token -> the title of its ``player_joined`` push of ``game`` (waits for all)."""
    deadline = time.monotonic() + WITHIN * 2
    while True:
        found = {
            p["token"]: title(p["payload"])
            for p in runtime.request("GET", "/dev/pushes")[2]["pushes"]
            if p["token"] in tokens
            and data(p["payload"]) == {"type": "player_joined", "game": game}
        }
        if len(found) == len(tokens) or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def data(payload: dict[str, Any]) -> dict[str, str]:
    fields = payload if "aps" in payload else payload["fcmV1Message"]["message"]["data"]
    return {"type": fields["type"], "game": fields["game"]}


def title(payload: dict[str, Any]) -> str:
    if "aps" in payload:
        return str(payload["aps"]["alert"]["title"])
    return str(payload["fcmV1Message"]["message"]["notification"]["title"])


def inbox_titles(runtime: Runtime, token: str) -> set[str]:
    notes = runtime.request("GET", "/me/notifications", token=token)[2]["notifications"]
    return {n["title"] for n in notes if n["type"] == "player_joined"}


def joined_on_socket(ws: Any, game: str) -> str:
    messages = receive(
        ws,
        lambda ms: any(
            m.get("game") == game and (m.get("notification") or {}).get("type") == "player_joined"
            for m in ms
        ),
    )
    note = next(
        m["notification"]
        for m in messages
        if m.get("game") == game and (m.get("notification") or {}).get("type") == "player_joined"
    )
    return str(note["title"])


def test_the_inbox_and_sockets_speak_one_language_and_each_device_its_own(
    runtime: Runtime,
) -> None:
    suffix = uuid.uuid4().hex[:8]
    ana = runtime.token(f"ana{suffix}", "Ana")  # a token with no locale claim
    devices = {  # registered in this order: the English phone is the latest with a locale
        f"es-{suffix}": {"platform": "fcm", "locale": "es-MX"},
        f"en-{suffix}": {"platform": "apns", "locale": "en-GB"},
        f"none-{suffix}": {"platform": "fcm"},
    }
    for token, device in devices.items():
        status, _, _ = runtime.request(
            "PUT", f"/me/devices/{token}", {**device, "token": token}, token=ana
        )
        assert status == 204
        time.sleep(0.01)  # distinct registration times
    expected = {  # PATCH /me's locale -> (inbox and sockets, each device's pushes)
        None: ("en", {"es": "es", "en": "en", "none": "en"}),  # the latest device's
        "es": ("es", {"es": "es", "en": "en", "none": "es"}),  # chosen
        "null": ("en", {"es": "es", "en": "en", "none": "en"}),  # forgotten
    }
    with (
        connect(ws_url(runtime, ana), open_timeout=10) as first,
        connect(ws_url(runtime, ana), open_timeout=10) as second,
    ):
        wait_for_connections(runtime, f"ana{suffix}", 2)
        for choice, (language, per_device) in expected.items():
            if choice is not None:
                body = {"locale": None if choice == "null" else choice}
                status, _, me = runtime.request("PATCH", "/me", body, token=ana)
                assert status == 200 and me["locale"] == body["locale"], me
            game = runtime.request(
                "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=ana
            )[2]["id"]
            guest = runtime.token(f"guest{uuid.uuid4().hex[:8]}", "Guest")
            assert runtime.request("POST", f"/games/{game}/join", {}, token=guest)[0] == 200
            assert joined_on_socket(first, game) == JOINED[language], choice
            assert joined_on_socket(second, game) == JOINED[language], choice
            assert inbox_titles(runtime, ana) == {JOINED[language]}, choice
            pushed = pushes_of(runtime, game, set(devices))
            assert pushed == {
                f"{device}-{suffix}": JOINED[spoken] for device, spoken in per_device.items()
            }, choice


def test_the_tokens_locale_claim_speaks_when_nothing_else_does(runtime: Runtime) -> None:
    """A player with no PATCH /me locale and no device hears the language of their token's
    ``locale`` claim (a dev token carries one when asked; a bad tag is 400)."""
    status, _, body = runtime.request("POST", "/dev/token", {"player": "loc-x", "locale": "e n"})
    assert status == 400 and body["error"]["params"]["fields"] == ["locale"], body
    player = f"leo{uuid.uuid4().hex[:8]}"
    leo = runtime.token(player, "Leo", locale="en-GB")
    game = runtime.request("POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=leo)
    assert game[0] == 201, game
    guest = runtime.token(f"guest{uuid.uuid4().hex[:8]}", "Guest")
    assert runtime.request("POST", f"/games/{game[2]['id']}/join", {}, token=guest)[0] == 200
    deadline = time.monotonic() + WITHIN
    while not inbox_titles(runtime, leo) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert inbox_titles(runtime, leo) == {JOINED["en"]}
