"""Mobile push through the handlers: devices registered with PUT /me/devices on DynamoDB Local,
SNS endpoints on moto's server (local.sns), notifications pushed by functions/notify."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.client import DOS_DEAL, Api, Privileged

pytestmark = pytest.mark.ddb


def register(api: Api, player: str, device: str, **body: Any) -> Any:
    return api.call("PUT", f"/me/devices/{device}", body, player=player)


def pushes_to(sns: Any, player: str) -> list[dict[str, Any]]:
    return [p for p in sns.pushes() if p["player"] == player]


def test_a_notification_reaches_each_device_in_its_language(
    api: Api, sns: Any, privileged: Privileged
) -> None:
    assert (
        register(api, "pia", "pia-phone", platform="apns", token="apns-pia", locale="en").status
        == 204
    )
    assert register(api, "pia", "pia-tab", platform="fcm", token="fcm-pia").status == 204
    game = api.create("pia", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "raul").ok()  # raul leads: pia hears of the join and the start
    api.drain()
    sent = pushes_to(sns, "pia")
    by_platform = {
        (
            p["platform"],
            p["payload"].get("type") or p["payload"]["fcmV1Message"]["message"]["data"]["type"],
        )
        for p in sent
    }
    assert {("apns", "player_joined"), ("fcm", "player_joined")} <= by_platform
    apns = next(
        p for p in sent if p["platform"] == "apns" and p["payload"]["type"] == "player_joined"
    )
    assert apns["payload"]["aps"]["alert"]["title"] == "New player"  # the phone says English
    assert apns["payload"]["aps"]["thread-id"] == game and apns["token"] == "apns-pia"
    fcm = next(p for p in sent if p["platform"] == "fcm")
    # the tablet has no locale of its own: it speaks the player's, the phone's English
    assert fcm["payload"]["fcmV1Message"]["message"]["notification"]["title"] in (
        "New player",
        "Game on",
    )
    privileged.assert_hides(game, 0, [p["payload"] for p in sent])
    api.play(game, "raul", "6-6").ok()
    api.drain()
    turn = [
        p
        for p in pushes_to(sns, "pia")
        if p["platform"] == "apns" and p["payload"]["type"] == "your_turn"
    ]
    assert turn and turn[-1]["payload"]["aps"]["badge"] >= 1  # her game awaits her


def test_a_redelivered_change_pushes_nothing_again(api: Api, sns: Any) -> None:
    register(api, "quin", "quin-phone", platform="apns_sandbox", token="sandbox-quin")
    game = api.create("quin", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "sara").ok()
    api.drain()
    before = len(pushes_to(sns, "quin"))
    assert before == 2  # joined, started
    api.drain()  # nothing new on the stream
    assert len(pushes_to(sns, "quin")) == before


def test_a_token_the_platform_refuses_removes_the_device(api: Api, sns: Any) -> None:
    register(api, "tere", "tere-phone", platform="apns", token="apns-tere-old")
    sns.disable("apns-tere-old")  # APNs told SNS the token is invalid
    game = api.create("tere", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "ugo").ok()
    api.drain()
    assert pushes_to(sns, "tere") == []
    # the device is gone: registering again makes a working endpoint
    register(api, "tere", "tere-phone", platform="apns", token="apns-tere-new")
    api.play(game, "ugo", "6-6").ok()
    api.drain()
    assert [p["token"] for p in pushes_to(sns, "tere")] == ["apns-tere-new"]


def test_a_removed_device_gets_nothing(api: Api, sns: Any) -> None:
    register(api, "vale", "vale-phone", platform="fcm", token="fcm-vale")
    assert api.call("DELETE", "/me/devices/vale-phone", player="vale").status == 204
    assert api.call("DELETE", "/me/devices/vale-phone", player="vale").status == 204
    game = api.create("vale", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "walt").ok()
    api.drain()
    assert pushes_to(sns, "vale") == []


def test_the_inbox_speaks_the_latest_devices_language(api: Api) -> None:
    register(api, "ximo", "ximo-phone", platform="fcm", token="fcm-ximo", locale="en-US")
    game = api.create("ximo", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "yago").ok()
    api.drain()
    titles = {
        n["title"]
        for n in api.call("GET", "/me/notifications", player="ximo").ok()["notifications"]
    }
    assert titles == {"New player", "Game on"}


@pytest.mark.parametrize(
    ("device", "body"),
    [
        ("phone", {"platform": "windows", "token": "t"}),
        ("phone", {"platform": "apns"}),
        ("phone", {"platform": "apns", "token": ""}),
        ("phone", {"platform": "apns", "token": "x" * 4097}),
        ("phone", {"platform": "apns", "token": "t", "locale": "x" * 36}),
        ("a" * 129, {"platform": "apns", "token": "t"}),
        ("bad%20id", {"platform": "apns", "token": "t"}),
    ],
)
def test_device_refusals(api: Api, device: str, body: Any) -> None:
    reply = register(api, "zoe", device, **body)
    assert (reply.status, reply.code) == (400, "invalid_request"), reply.body


def test_one_query_reads_a_players_devices_and_open_sockets_and_nothing_else(api: Api) -> None:
    """The notifier's read (store/reach.py): CONN# and DEVICE# sort together in the player's
    partition, between the bounds of one query; the rest of the partition stays unread."""
    from domino.api import wiring
    from domino.store.connections import DynamoConnections
    from domino.store.reach import DynamoReach

    player = "rhea"
    api.call("PUT", "/me/devices/old", {"platform": "fcm", "token": "t-old"}, player=player).ok(204)
    api.call("PUT", "/me/devices/new", {"platform": "fcm", "token": "t-new"}, player=player).ok(204)
    connections = DynamoConnections(wiring.table())
    connections.add(player, "open", 1000.0, "en")
    connections.add(player, "stale", 1000.0 - 3 * 3600, None)  # past its TTL, not deleted yet
    game = api.create(player, preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "sol").ok()  # her memberships, and a notification in her inbox
    api.drain()
    api.call("PATCH", "/me", {"name": "Rhea"}, player=player).ok()  # her profile

    queries: list[dict[str, Any]] = []
    events = wiring.table().client.meta.events
    listen = lambda params, **_: queries.append(params)  # noqa: E731
    events.register("provide-client-params.dynamodb.Query", listen)
    try:
        reach = DynamoReach(wiring.table()).of_player(player, 1000)
    finally:
        events.unregister("provide-client-params.dynamodb.Query", listen)
    assert len(queries) == 1
    assert sorted(d.device_id for d in reach.devices) == ["new", "old"]
    assert reach.devices[0].updated_at >= reach.devices[1].updated_at  # newest first
    assert reach.sockets == [("open", "en")]
