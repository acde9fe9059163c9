"""Devices and mobile push on in-memory parts: registration, token rotation, the payloads SNS
gets for APNs and FCM, and devices whose token stopped working."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from domino.engine.errors import InvalidInput
from domino.limits import MAX_DEVICES
from domino.service.devices import Devices, PushChannel, message
from domino.service.values import Caller, RegisterDevice
from domino.store.devices import Device, Owner
from domino.store.inbox import Note

ALICE = Caller("alice", "Alice")
NOTE = Note("alice", "your_turn", "g" * 22, 7, 1_800_000_000, "clasico")


class Devices_:
    """An in-memory DeviceStore."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], Device] = {}

    def put(self, device: Device) -> None:
        self.items[device.player, device.device_id] = device

    def get(self, player: str, device_id: str) -> Device | None:
        return self.items.get((player, device_id))

    def delete(self, player: str, device_id: str) -> None:
        self.items.pop((player, device_id), None)

    def of_player(self, player: str) -> list[Device]:
        found = [d for (p, _), d in self.items.items() if p == player]
        return sorted(found, key=lambda d: d.updated_at, reverse=True)

    def owner(self, platform: str, token: str) -> Owner | None:
        found = [d for d in self.items.values() if (d.platform, d.token) == (platform, token)]
        return Owner(found[0].player, found[0].device_id, found[0].endpoint) if found else None

    def claim(self, device: Device, previous: Owner | None, replaced: Device | None) -> None:
        if previous is not None:
            self.delete(previous.player, previous.device_id)
        self.put(device)

    def release(self, device: Device) -> bool:
        self.delete(device.player, device.device_id)
        return True


class Gateway:
    """A PushGateway that records what it is asked; ``gone`` endpoints reach no device."""

    def __init__(self, platforms: tuple[str, ...] = ("apns", "apns_sandbox", "fcm")) -> None:
        self.platforms = platforms
        self.endpoints: dict[str, str] = {}  # arn -> token
        self.sent: list[tuple[str, Mapping[str, Any]]] = []
        self.collapses: list[str | None] = []
        self.gone: set[str] = set()
        self.made = 0

    def offered(self, platform: str) -> bool:
        return platform in self.platforms

    def register(self, platform: str, token: str, player: str, endpoint: str | None) -> str:
        self.made += endpoint is None
        arn = endpoint or f"arn:endpoint/{platform}/{self.made}"
        self.endpoints[arn] = token
        return arn

    def delete(self, endpoint: str) -> None:
        self.endpoints.pop(endpoint, None)

    def exists(self, endpoint: str) -> bool:
        return endpoint in self.endpoints

    def publish(
        self, endpoint: str, message: Mapping[str, Any], collapse: str | None = None
    ) -> bool:
        if endpoint in self.gone:
            return False
        self.sent.append((endpoint, message))
        self.collapses.append(collapse)
        return True


def test_a_player_keeps_at_most_ten_devices_the_stalest_making_room() -> None:
    """Each notification is pushed to every device: the bound caps one player's cost."""
    store, gateway = Devices_(), Gateway()
    now = [1000.0]
    devices = Devices(store, gateway, clock=lambda: now[0])
    for number in range(MAX_DEVICES):
        now[0] += 1
        devices.register(ALICE, f"phone-{number}", RegisterDevice("apns", f"token-{number}"))
    now[0] += 1
    devices.register(ALICE, "phone-0", RegisterDevice("apns", "rotated"))  # known: no eviction
    assert len(store.of_player("alice")) == MAX_DEVICES
    now[0] += 1
    devices.register(ALICE, "tablet", RegisterDevice("fcm", "token-t"))
    kept = {d.device_id for d in store.of_player("alice")}
    assert len(kept) == MAX_DEVICES and "tablet" in kept and "phone-0" in kept
    assert "phone-1" not in kept  # updated longest ago: forgotten, its endpoint deleted
    assert len(gateway.endpoints) == MAX_DEVICES and "token-1" not in gateway.endpoints.values()


def test_a_new_token_for_the_same_device_keeps_its_endpoint() -> None:
    store, gateway = Devices_(), Gateway()
    devices = Devices(store, gateway, clock=lambda: 100.0)
    devices.register(ALICE, "phone-1", RegisterDevice("apns", "token-a", "en-GB"))
    first = store.get("alice", "phone-1")
    devices.register(ALICE, "phone-1", RegisterDevice("apns", "token-b"))
    second = store.get("alice", "phone-1")
    assert first and second and first.endpoint == second.endpoint
    assert gateway.endpoints == {first.endpoint: "token-b"}
    devices.register(ALICE, "phone-1", RegisterDevice("fcm", "token-c"))  # moved platform
    third = store.get("alice", "phone-1")
    assert third and third.endpoint != first.endpoint and first.endpoint not in gateway.endpoints
    devices.remove(ALICE, "phone-1")
    assert store.get("alice", "phone-1") is None and gateway.endpoints == {}
    devices.remove(ALICE, "phone-1")  # unknown: nothing to do


def test_a_platform_without_an_application_is_refused_by_name() -> None:
    devices = Devices(Devices_(), Gateway(platforms=("fcm",)))
    with pytest.raises(InvalidInput, match="apns_sandbox"):
        devices.register(ALICE, "phone-1", RegisterDevice("apns_sandbox", "t"))


@pytest.mark.parametrize("device_id", ["", "a" * 129, "../x", "a b", "x\n"])
def test_device_ids_are_bounded(device_id: str) -> None:
    with pytest.raises(InvalidInput):
        Devices(Devices_(), Gateway()).register(ALICE, device_id, RegisterDevice("fcm", "t"))


def test_apns_payload() -> None:
    device = Device("alice", "p", "apns", "t", "arn", "en-US", 1)
    sent = message(NOTE._replace(by="Ana", move="6-4"), device, badge=3)
    assert set(sent) == {"default", "APNS"}
    assert sent["APNS"] == {
        "aps": {
            "alert": {
                "title": "Your turn",
                "body": "Ana played 6-4. It is your turn in your Classic dominoes game.",
                "title-loc-key": "YOUR_TURN_TITLE",
                "loc-key": "YOUR_TURN_AFTER_PLAY_BODY",
                "loc-args": ["Classic dominoes", "Ana", "6-4"],
            },
            "badge": 3,
            "sound": "default",
            "thread-id": NOTE.game,
            "category": "YOUR_TURN",
            "interruption-level": "active",  # a game without short turns
        },
        "game": NOTE.game,
        "version": "7",
        "type": "your_turn",
        "url": f"domino://games/{NOTE.game}",
    }


def test_fcm_payload_in_spanish_by_default() -> None:
    device = Device("alice", "p", "fcm", "t", "arn", None, 1)
    sent = message(NOTE, device, badge=3)
    v1 = sent["GCM"]["fcmV1Message"]["message"]
    assert v1["notification"] == {
        "title": "Te toca",
        "body": "Es tu turno en la partida de Dominó clásico.",
    }
    data = {
        "game": NOTE.game,
        "version": "7",
        "type": "your_turn",
        "url": f"domino://games/{NOTE.game}",
    }
    assert v1["data"] == data
    assert all(isinstance(v, str) for v in v1["data"].values())  # FCM data is strings
    assert v1["android"] == {
        "collapse_key": NOTE.game,
        "priority": "high",
        "notification": {
            "tag": NOTE.game,
            "channel_id": "turns",
            "notification_count": 3,
            "title_loc_key": "YOUR_TURN_TITLE",
            "body_loc_key": "YOUR_TURN_BODY",
            "body_loc_args": ["Dominó clásico"],
        },
    }
    assert v1["apns"]["headers"] == {"apns-priority": "10"}
    assert v1["apns"]["payload"]["aps"]["category"] == "YOUR_TURN"
    assert {k: v1["apns"]["payload"][k] for k in data} == data
    assert sent["default"] == "Es tu turno en la partida de Dominó clásico."


@pytest.mark.parametrize(
    ("note", "level", "priority"),
    [
        (NOTE, "active", "high"),
        (NOTE._replace(urgent=True), "time-sensitive", "high"),  # a turn under an hour
        (NOTE._replace(type="reminder"), "time-sensitive", "high"),
        (NOTE._replace(type="timeout"), "time-sensitive", "high"),
        (NOTE._replace(type="game_over"), "active", "normal"),
        (NOTE._replace(type="player_joined", detail="Ana"), "active", "normal"),
    ],
)
def test_what_must_reach_the_player_now_is_time_sensitive_and_high(
    note: Note, level: str, priority: str
) -> None:
    apns = message(note, Device("alice", "p", "apns", "t", "arn", "en", 1), badge=0)["APNS"]
    assert apns["aps"]["interruption-level"] == level
    fcm = message(note, Device("alice", "p", "fcm", "t", "arn", "en", 1), badge=0)["GCM"]
    assert fcm["fcmV1Message"]["message"]["android"]["priority"] == priority


def test_the_url_takes_the_apps_scheme_and_loc_args_the_name() -> None:
    joined = NOTE._replace(type="player_joined", detail="Ana")
    sent = message(joined, Device("alice", "p", "apns", "t", "arn", "en", 1), 0, scheme="myapp")
    assert sent["APNS"]["url"] == f"myapp://games/{NOTE.game}"
    assert sent["APNS"]["aps"]["alert"]["loc-args"] == ["Classic dominoes", "Ana"]
    assert sent["APNS"]["aps"]["category"] == "PLAYER_JOINED"


def test_a_push_reaches_every_device_and_forgets_a_dead_one() -> None:
    store, gateway = Devices_(), Gateway()
    devices = Devices(store, gateway)
    devices.register(ALICE, "phone", RegisterDevice("apns", "t1"))
    devices.register(ALICE, "tablet", RegisterDevice("fcm", "t2", "en"))
    tablet = store.get("alice", "tablet")
    assert tablet is not None
    gateway.gone.add(tablet.endpoint)  # FCM said the token is no longer valid
    PushChannel(store, gateway, awaiting=lambda player: 2).send(NOTE)
    assert [m["APNS"]["aps"]["badge"] for _, m in gateway.sent] == [2]
    assert gateway.collapses == [NOTE.game]  # a repeated push shows once; the next replaces it
    assert store.get("alice", "tablet") is None and tablet.endpoint not in gateway.endpoints
    assert store.get("alice", "phone") is not None


def test_a_device_whose_endpoint_was_deleted_under_it_gets_a_new_one() -> None:
    """Another account's registration of the same phone let it go at the moment this device
    took it, and deleted the endpoint: the push makes the endpoint again and is delivered."""
    store, gateway = Devices_(), Gateway()
    Devices(store, gateway).register(ALICE, "phone", RegisterDevice("apns", "t1"))
    before = store.get("alice", "phone")
    assert before is not None
    gateway.delete(before.endpoint)
    gateway.gone.add(before.endpoint)
    PushChannel(store, gateway, awaiting=lambda player: 0).send(NOTE)
    after = store.get("alice", "phone")
    assert after is not None and after.endpoint != before.endpoint
    assert [endpoint for endpoint, _ in gateway.sent] == [after.endpoint]


def test_nobody_without_a_device_costs_a_badge_query() -> None:
    asked: list[str] = []
    PushChannel(Devices_(), Gateway(), awaiting=lambda p: asked.append(p) or 0).send(NOTE)
    assert asked == []


@pytest.mark.parametrize(
    ("move", "language", "body", "key", "args"),
    [
        (None, "es", "Es tu turno en la partida de Dominó clásico.", "YOUR_TURN_BODY", []),
        ("6-4", "es", "Ana jugó el 6-4. Es tu turno", "YOUR_TURN_AFTER_PLAY_BODY", ["Ana", "6-4"]),
        ("draw", "en", "Ana drew. It is your turn", "YOUR_TURN_AFTER_DRAW_BODY", ["Ana"]),
        ("pass", "en", "Ana passed. It is your turn", "YOUR_TURN_AFTER_PASS_BODY", ["Ana"]),
    ],
)
def test_a_turns_body_names_the_move_that_led_to_it_on_both_platforms(
    move: str | None, language: str, body: str, key: str, args: list[str]
) -> None:
    note = NOTE._replace(by="Ana" if move else None, move=move)
    game = "Dominó clásico" if language == "es" else "Classic dominoes"
    apns = message(note, Device("alice", "p", "apns", "t", "arn", language, 1), 1)["APNS"]
    fcm = message(note, Device("alice", "q", "fcm", "t", "arn", language, 1), 1)["GCM"]
    v1 = fcm["fcmV1Message"]["message"]
    assert apns["aps"]["alert"]["body"].startswith(body)
    assert v1["notification"]["body"] == apns["aps"]["alert"]["body"]
    assert apns["aps"]["alert"]["loc-key"] == key == v1["android"]["notification"]["body_loc_key"]
    assert apns["aps"]["alert"]["loc-args"] == [game, *args]
    assert v1["android"]["notification"]["body_loc_args"] == [game, *args]


def test_every_preset_has_an_english_name() -> None:
    from domino.engine import PRESETS
    from domino.service.texts import PRESET_NAMES_EN, preset_name

    assert set(PRESET_NAMES_EN) == set(PRESETS)
    for preset in PRESETS:
        assert preset_name(preset, "es") == PRESETS[preset].name
        assert preset_name(preset, "en") != PRESETS[preset].name
