"""Quiet hours through the handlers on DynamoDB Local and moto's SNS: PATCH /me keeps the window,
pushes inside it are never sent while the inbox still gets every notification, and one summary
push follows its end, whether its timer fires (twice: redelivered) or the sweep finds it."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from domino.api import wiring
from domino.service.quiet import QUIET_TIMER
from domino.service.timers import Timer

from tests.integration.client import DOS_DEAL, Api
from tests.integration.test_deadlines import sweep
from tests.integration.test_push import pushes_to, register

pytestmark = pytest.mark.ddb

KOLKATA = ZoneInfo("Asia/Kolkata")  # UTC+5:30: east of UTC, half-hour offset


def window_around_now(dev_clock: Any) -> tuple[dict[str, str], int]:
    """A window from 30 minutes ago to 90 minutes on, in Kolkata's time by the handlers'
    clock, and the epoch second it ends."""
    now = datetime.now(KOLKATA) + timedelta(seconds=dev_clock.offset())
    start, end = now - timedelta(minutes=30), now + timedelta(minutes=90)
    quiet = {"from": start.strftime("%H:%M"), "to": end.strftime("%H:%M"), "tz": "Asia/Kolkata"}
    return quiet, int(end.replace(second=0, microsecond=0).timestamp())


def types_pushed(sns: Any, player: str) -> list[str]:
    return [p["payload"].get("type") for p in pushes_to(sns, player)]


def test_patch_me_keeps_quiet_hours_and_refuses_a_zone_it_does_not_know(api: Api) -> None:
    quiet = {"from": "22:00", "to": "08:00", "tz": "Europe/Madrid"}
    assert api.call("GET", "/me", player="quico").ok()["quiet_hours"] is None
    assert (
        api.call("PATCH", "/me", {"quiet_hours": quiet}, player="quico").ok()["quiet_hours"]
        == quiet
    )
    assert api.call("GET", "/me", player="quico").ok()["quiet_hours"] == quiet
    bad = api.call("PATCH", "/me", {"quiet_hours": {**quiet, "tz": "Madrid"}}, player="quico")
    assert (bad.status, bad.body["error"]["code"]) == (400, "invalid_request")
    assert bad.body["error"]["params"]["fields"] == ["quiet_hours.tz"]
    assert api.call("GET", "/me", player="quico").ok()["quiet_hours"] == quiet  # unchanged
    assert (
        api.call("PATCH", "/me", {"auto_forced": True}, player="quico").ok()["quiet_hours"] == quiet
    )  # another field leaves them as they are
    assert (
        api.call("PATCH", "/me", {"quiet_hours": None}, player="quico").ok()["quiet_hours"] is None
    )


def test_held_pushes_end_in_one_summary_sent_once(api: Api, sns: Any, dev_clock: Any) -> None:
    phone = register(api, "rosa", "rosa-phone", platform="apns", token="apns-rosa", locale="en")
    assert phone.status == 204, phone.body
    quiet, end = window_around_now(dev_clock)
    api.call("PATCH", "/me", {"quiet_hours": quiet}, player="rosa").ok()
    game = api.create("rosa", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "tito").ok()
    api.play(game, "tito", "6-6").ok()  # rosa's turn
    api.drain()
    inbox = api.call("GET", "/me/notifications?limit=100", player="rosa").ok()["notifications"]
    assert {"player_joined", "game_started", "your_turn"} <= {n["type"] for n in inbox}
    assert types_pushed(sns, "rosa") == []  # held: none sent in the window
    api.drain()  # the stream again: still nothing
    assert types_pushed(sns, "rosa") == []

    timers = wiring.timers()
    body = Timer(QUIET_TIMER, "rosa", end).body()
    assert wiring.quiet_summary().fire("rosa") is False  # early: still held
    dev_clock.advance(2 * 3600 + 60)  # the window is over
    assert timers.fire(body) == "fired"
    assert timers.fire(body) == "fired"  # delivered twice
    assert sweep()["summaries"] == 0  # and the sweep finds nothing left to sum up
    (summary,) = [p for p in pushes_to(sns, "rosa")]
    aps = summary["payload"]["aps"]
    assert summary["payload"]["type"] == "quiet_summary"
    assert aps["alert"]["body"] == "A game awaits your move." and aps["badge"] == 1

    other = api.create("rosa", preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(other, "uma").ok()  # outside the window pushes go out at once
    api.drain()
    assert types_pushed(sns, "rosa")[:2] == ["quiet_summary", "player_joined"]


def test_the_sweep_sends_the_summary_whose_timer_was_lost(
    api: Api, sns: Any, dev_clock: Any
) -> None:
    phone = register(api, "sole", "sole-phone", platform="fcm", token="fcm-sole")
    assert phone.status == 204, phone.body
    quiet, _end = window_around_now(dev_clock)
    api.call("PATCH", "/me", {"quiet_hours": quiet}, player="sole").ok()
    game = api.create("sole", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "tavi").ok()
    api.drain()
    assert types_pushed(sns, "sole") == []
    assert sweep()["summaries"] == 0  # inside the window: nothing due
    dev_clock.advance(2 * 3600 + 60)
    assert sweep()["summaries"] >= 1
    assert sweep()["summaries"] == 0
    (summary,) = pushes_to(sns, "sole")
    message = summary["payload"]["fcmV1Message"]["message"]
    assert message["data"]["type"] == "quiet_summary"
    # tavi leads: no game awaits sole's move, so the summary counts the game with news
    assert message["notification"]["body"] == "Hay novedades en una de tus partidas."
