"""docs/asyncapi.yaml describes what the code sends: socket frames and push payloads built by the
real code validate against its message payloads (JSON Schema, the whole document as the
resource its ``$ref``s resolve in), its enums are the code's, its examples are valid, and a
push names no tile but one laid on the table. tests/test_asyncapi.py parses the document itself
with @asyncapi/parser."""

from __future__ import annotations

import itertools
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from domino.api.websocket import handle
from domino.engine import decode
from domino.engine.errors import InvalidInput
from domino.service.devices import (
    PLATFORMS,
    PUSH_KINDS,
    SNS_KEYS,
    Devices,
    PushChannel,
    body_localisation,
    message,
)
from domino.service.gestures import Gestures
from domino.service.inbox import Notifier
from domino.service.live import MAX_RESUMED, LiveChannel, LiveUpdates
from domino.service.loaded import GAME_ID
from domino.service.matchmaking import TICKET_ID
from domino.service.notices import MOVE_TOLD, NOTICE_TYPES, NOTIFICATION_TYPES
from domino.service.safety import Safety
from domino.service.values import EMOTES, Caller, NewGame, RegisterDevice, SendEmote, TakeSeat
from domino.store.devices import Device
from domino.store.inbox import Note
from domino.store.records import MARKS, from_item, to_attributes
from domino.store.tickets import Ticket, ticket_item
from jsonschema import Draft7Validator
from referencing import Registry
from referencing.jsonschema import DRAFT7

from tests.unit.memory_store import MemoryInbox
from tests.unit.test_live import Connections, Sockets, ws_event
from tests.unit.test_notices import Table
from tests.unit.test_push import Devices_, Gateway

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml"
DOCUMENT: dict[str, Any] = yaml.safe_load(DOCUMENT_PATH.read_text())
URI = "urn:domino:asyncapi"
REGISTRY: Registry[Any] = Registry().with_resource(URI, DRAFT7.create_resource(DOCUMENT))
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
ALICE, BOB = Caller("alice", "Alice"), Caller("bob", "Bob")
GAME = "Yx2kq9TzQ3mW8bLrV1nC0a"
#: the message each platform's payload is (docs/asyncapi.yaml components/messages)
PUSH_MESSAGE = {"apns": "apnsPush", "apns_sandbox": "apnsPush", "fcm": "fcmPush"}
#: what a notification's text names beside the game (notices.py: a name, or a hand number)
DETAIL = {
    "player_joined": "Ana",
    "nudge": "Ana",
    "invited": "Ana",
    "invite_declined": "Ana",
    "rematch": "Ana",
    "hand_over": "2",
}
#: a tile in text: not part of a longer run of digits, dashes or letters (a game id's)
TILE_IN_TEXT = re.compile(r"(?<![\w-])(\d{1,2})-(\d{1,2})(?![\w-])")


@cache
def validator(name: str) -> Draft7Validator:
    """The payload schema of the document's message ``name``."""
    assert name in DOCUMENT["components"]["messages"], name
    schema = {"$ref": f"{URI}#/components/messages/{name}/payload"}
    return Draft7Validator(schema, registry=REGISTRY, format_checker=Draft7Validator.FORMAT_CHECKER)


def problems(name: str, payload: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
        for e in validator(name).iter_errors(payload)
    ]


def assert_valid(name: str, payload: Any) -> None:
    found = problems(name, payload)
    assert not found, f"{name}: {found}\n{json.dumps(payload, ensure_ascii=False)[:2000]}"


def enum(schema: str) -> list[Any]:
    return list(SCHEMAS[schema]["enum"])


def tiles_named(payload: Any, game: str) -> set[str]:
    """Every tile the payload's text names (the game id, which may look like one, left out)."""
    text = json.dumps(payload, ensure_ascii=False).replace(game, "")
    return {norm(*pair) for pair in TILE_IN_TEXT.findall(text)}


def norm(a: str, b: str) -> str:
    """A tile as the engine writes it (``6-4`` is ``4-6``)."""
    low, high = sorted((int(a), int(b)))
    return f"{low}-{high}"


# ------------------------------------------------------------------ the document and the code


def test_the_documents_enums_are_the_codes() -> None:
    assert enum("NotificationType") == list(NOTICE_TYPES)
    assert set(NOTIFICATION_TYPES) == set(NOTICE_TYPES) == set(PUSH_KINDS)
    assert enum("PushCategory") == [category for category, _ in PUSH_KINDS.values()]
    assert set(enum("AndroidChannel")) == {channel for _, channel in PUSH_KINDS.values()}
    assert enum("TitleLocKey") == [f"{t.upper()}_TITLE" for t in NOTICE_TYPES]
    after = [f"{t.upper()}_AFTER_{k}_BODY" for t in MOVE_TOLD for k in ("PLAY", "DRAW", "PASS")]
    assert set(enum("BodyLocKey")) == {f"{t.upper()}_BODY" for t in NOTICE_TYPES} | set(after)
    assert SCHEMAS["Emote"]["properties"]["emote"]["enum"] == list(EMOTES)
    assert SCHEMAS["Resume"]["properties"]["games"]["maxProperties"] == MAX_RESUMED
    assert SCHEMAS["GameId"]["pattern"] == f"^{GAME_ID.pattern}$" == f"^{TICKET_ID.pattern}$"


def test_the_documents_examples_are_valid() -> None:
    """The parser does not check a message's examples against its payload: this does."""
    assert not Draft7Validator.FORMAT_CHECKER.conforms("today", "date-time")  # formats checked
    checked = 0
    for name, msg in DOCUMENT["components"]["messages"].items():
        assert msg.get("examples"), f"{name} has no example"
        for example in msg["examples"]:
            assert_valid(name, example["payload"])
            checked += 1
    assert checked >= len(DOCUMENT["components"]["messages"])


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("pong", {"type": "pong", "extra": 1}),
        ("ping", {"action": "pong"}),
        ("resume", {"action": "resume", "games": {f"game{n:08d}": 1 for n in range(101)}}),
        ("resume", {"action": "resume", "games": {GAME: -1}}),
        ("gameChanged", {"type": "game_changed", "game": GAME, "version": 3, "view": None}),
        ("emote", {"type": "emote", "game": GAME, "seat": 0, "emote": "hola"}),
        ("error", {"type": "error"}),
    ],
)
def test_a_socket_message_off_its_shape_is_refused(name: str, payload: Any) -> None:
    assert problems(name, payload)


# ------------------------------------------------------------------ pushes


def notes() -> list[Note]:
    """A notification of every type, as notices.py makes them: with a detail where its text
    has one, urgent or not, and for the types that tell a move, after each kind of move."""
    found = []
    for kind in NOTICE_TYPES:
        moves: list[tuple[str | None, str | None]] = [(None, None)]
        if kind in MOVE_TOLD:
            moves += [("Ana", "6-4"), ("Ana", "draw"), ("Ana", "pass")]
        for (by, move), urgent in itertools.product(moves, (False, True)):
            note = Note("alice", kind, GAME, 7, 1_800_000_000, "clasico", DETAIL.get(kind))
            found.append(note._replace(urgent=urgent, by=by, move=move))
    return found


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("locale", [None, "en-GB"])
def test_every_notification_pushed_is_a_documented_payload(platform: str, locale: str) -> None:
    key = SNS_KEYS[platform]
    for note in notes():
        device = Device("alice", "phone", platform, "t", "arn", locale, 1)
        sent = message(note, device, badge=2, scheme="myapp")
        assert set(sent) == {"default", key}
        assert_valid(PUSH_MESSAGE[platform], sent[key])
        told = {norm(*note.move.split("-"))} if note.move not in (None, "draw", "pass") else set()
        assert tiles_named(sent, GAME) == told, (note, sent)
        if platform == "fcm":
            shown = sent[key]["fcmV1Message"]["message"]["android"]["notification"]
            loc = shown["body_loc_key"], shown["body_loc_args"]
        else:
            loc = sent[key]["aps"]["alert"]["loc-key"], sent[key]["aps"]["alert"]["loc-args"]
        assert loc == body_localisation(note, "en" if locale else "es")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda p: p["aps"].update(badge="2"), "aps/badge"),
        (lambda p: p["aps"]["alert"].pop("loc-args"), "aps/alert"),
        (lambda p: p.update(version=7), "version"),
        (lambda p: p.update(extra="x"), "(root)"),
        (lambda p: p["aps"].update({"interruption-level": "critical"}), "aps/interruption-level"),
        (lambda p: p["aps"].update(category="WHATEVER"), "aps/category"),
    ],
)
def test_an_apns_payload_off_its_shape_is_refused(change: Any, where: str) -> None:
    payload = message(Note("alice", "your_turn", GAME, 7, 1, "clasico"), device("apns"), 1)
    change(payload["APNS"])
    assert any(p.startswith(where) for p in problems("apnsPush", payload["APNS"]))


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda m: m["data"].update(version=7), "fcmV1Message/message/data/version"),
        (lambda m: m["android"].update(priority="max"), "fcmV1Message/message/android/priority"),
        (
            lambda m: m["android"]["notification"].update(channel_id="misc"),
            "fcmV1Message/message/android/notification/channel_id",
        ),
        (lambda m: m.pop("apns"), "fcmV1Message/message"),
        (lambda m: m["notification"].update(image="x"), "fcmV1Message/message/notification"),
    ],
)
def test_an_fcm_payload_off_its_shape_is_refused(change: Any, where: str) -> None:
    payload = message(Note("alice", "your_turn", GAME, 7, 1, "clasico"), device("fcm"), 1)
    change(payload["GCM"]["fcmV1Message"]["message"])
    assert any(p.startswith(where) for p in problems("fcmPush", payload["GCM"]))


def device(platform: str) -> Device:
    return Device("alice", "phone", platform, "t", "arn", "en", 1)


# ------------------------------------------------------------------ a whole match, live


def played_match() -> tuple[Table, str, Sockets, Gateway]:
    """A dos-jugadores match played to its end in memory: Bob invited, then seated; both
    players with a socket, Alice with an APNs and an APNs sandbox device, Bob an FCM one.
    Each change's pushes are checked against the tiles laid so far as they are made."""
    connections, sockets, gateway, devices = Connections(), Sockets(), Gateway(), Devices_()
    connections.add("alice", "a-phone", 0, "en")
    connections.add("bob", "b-web", 0, None)
    registry = Devices(devices, gateway)
    registry.register(ALICE, "iphone", RegisterDevice("apns", "t-1", "en"))
    registry.register(ALICE, "ipad", RegisterDevice("apns_sandbox", "t-2"))
    registry.register(BOB, "android", RegisterDevice("fcm", "t-3"))
    table = Table()
    live = LiveChannel(connections, sockets)
    push = PushChannel(devices, gateway, awaiting=lambda _player: 1)
    table.notifier = Notifier(table.inbox, [live, push], live)
    created = NewGame("dos-jugadores", 2, seed=5, invite=["bob"], turn_timeout_hours=0.5)
    game = table.service.commands.create(ALICE, created).game_id
    laid: set[str] = set()  # every tile laid on the table so far, in any hand
    read = pushed = 0

    def drain() -> None:
        nonlocal read, pushed
        table.drain()
        for _, item in table.store.stream[read:]:
            record = from_item(item)
            for move in decode(record.state).moves(None, 0) if record.state else []:
                if move["action"] == "play" or move.get("move") == "play":
                    laid.add(move["tile"])
        read = len(table.store.stream)
        for _endpoint, sent in gateway.sent[pushed:]:
            named = tiles_named(sent, game)
            assert named <= laid, f"{sorted(named - laid)} not laid: {sent}"
        pushed = len(gateway.sent)

    drain()
    table.service.commands.join(BOB, game, TakeSeat(), None)
    drain()
    who = {0: ALICE, 1: BOB}
    while table.service.queries.get(ALICE, game).view["status"] == "playing":
        table.play_on(game, who)
        drain()
    return table, game, sockets, gateway


@pytest.fixture(scope="module")
def match() -> tuple[Table, str, Sockets, Gateway]:
    return played_match()


def test_a_played_matchs_pushes_are_documented_payloads(
    match: tuple[Table, str, Sockets, Gateway],
) -> None:
    _table, game, _sockets, gateway = match
    types: dict[str, set[str]] = {}  # SNS key -> the notification types pushed
    for _endpoint, sent in gateway.sent:
        [key] = set(sent) - {"default"}
        platform = next(p for p, k in SNS_KEYS.items() if k == key)
        assert_valid(PUSH_MESSAGE[platform], sent[key])
        data = sent[key]["fcmV1Message"]["message"]["data"] if key == "GCM" else sent[key]
        assert data["game"] == game
        types.setdefault(key, set()).add(data["type"])
    assert types.keys() == {"APNS", "APNS_SANDBOX", "GCM"}
    told = {"invited", "player_joined", "game_started", "your_turn", "game_over"}
    assert told <= set().union(*types.values()), types


def test_a_played_matchs_socket_frames_are_documented_messages(
    match: tuple[Table, str, Sockets, Gateway],
) -> None:
    table, game, sockets, _gateway = match
    frames = sockets.sent["a-phone"] + sockets.sent["b-web"]
    for frame in frames:
        assert_valid("gameChanged", frame)
    notified = {f["notification"]["type"] for f in frames if f["notification"]}
    assert {"invited", "player_joined", "game_started", "your_turn", "game_over"} <= notified
    assert any(f["notification"] is None for f in frames)
    assert any(f["moves"] and any(m["action"] == "draw" for m in f["moves"]) for f in frames)
    assert all(f["view"] is not None for f in frames)
    last = sockets.sent["b-web"][-1]
    assert last["view"] == table.service.queries.get(BOB, game).view  # the view GET answers


def test_an_expired_tickets_frame_and_push_are_documented_too() -> None:
    """``match_expired`` names the ticket as its game, and no view or moves come with it."""
    connections, sockets, gateway, devices = Connections(), Sockets(), Gateway(), Devices_()
    connections.add("alice", "a-phone", 0, "en")
    Devices(devices, gateway).register(ALICE, "android", RegisterDevice("fcm", "t-1"))
    live = LiveChannel(connections, sockets)
    notifier = Notifier(MemoryInbox(), [live, PushChannel(devices, gateway, lambda _p: 0)], live)
    searching = Ticket(
        "TicketId0123456789abcd", "alice", "Alice", "searching", "clasico", 4, True, None,
        "auto", 60, 1000, 1_800_000_000_000,
    )  # fmt: skip
    expired = Ticket(**{**searching.__dict__, "status": "expired", "version": 2})
    images = (to_attributes(ticket_item(t)) for t in (searching, expired))
    assert notifier.on_change(*images) == 1
    [frame] = sockets.sent["a-phone"]
    assert_valid("gameChanged", frame)
    assert (frame["game"], frame["version"], frame["view"]) == (searching.id, 2, None)
    assert frame["notification"]["type"] == "match_expired"
    [(_endpoint, sent)] = gateway.sent
    assert_valid("fcmPush", sent["GCM"])


def test_a_frame_past_32_kb_is_documented_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import domino.service.live as live_module

    monkeypatch.setattr(live_module, "MAX_MESSAGE_BYTES", 200)
    frame = json.loads(live_module.game_changed(GAME, 9, None, {"big": "x" * 300}, []))
    assert frame["view"] is None and frame["moves"] is None
    assert_valid("gameChanged", frame)


def test_ping_resume_and_their_answers_are_documented_messages(
    match: tuple[Table, str, Sockets, Gateway],
) -> None:
    table, game, _sockets, _gateway = match
    connections, sockets = Connections(), Sockets()
    live = LiveUpdates(connections, sockets=sockets, games=table.store)
    assert handle(ws_event("$connect"), live)["statusCode"] == 200
    ping = {"action": "ping"}
    assert_valid("ping", ping)
    assert_valid("pong", json.loads(handle(ws_event("ping", body=json.dumps(ping)), live)["body"]))
    resume = {"action": "resume", "games": {game: 1, "NoSuchGame00": 4}}
    assert_valid("resume", resume)
    answer = handle(ws_event("$default", body=json.dumps(resume)), live)
    assert answer == {"statusCode": 200}  # the games come as frames, not as the answer
    [frame] = sockets.sent["c-1"]
    assert_valid("gameChanged", frame)
    # version 1 is older than the last MARKS writes the item keeps: moves null (the client
    # reads them); a version among them gets the moves since, as GET /games/{id}/moves lists
    assert frame["game"] == game and frame["notification"] is None and frame["moves"] is None
    record = table.store.load(game)
    assert record is not None and len(record.marks) == MARKS
    version, first = record.marks[-3]
    live.resume(ALICE, "c-1", {game: version})
    frame = sockets.sent["c-1"][-1]
    assert_valid("gameChanged", frame)
    assert [m["n"] for m in frame["moves"]] == list(range(first, first + len(frame["moves"])))
    assert frame["moves"] and frame["version"] == record.version
    too_many = {"action": "resume", "games": {f"game{n:08d}": 0 for n in range(MAX_RESUMED + 1)}}
    assert problems("resume", too_many)  # the document's bound is the code's
    with pytest.raises(InvalidInput):
        live.resume(ALICE, "c-1", too_many["games"])
    for body in (json.dumps(too_many), '{"action": "hello"}', "not json"):
        error = json.loads(handle(ws_event("$default", body=body), live)["body"])
        assert_valid("error", error)


def test_an_emote_frame_is_a_documented_message() -> None:
    class NoBlocks:
        def blocks_among(self, pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
            return set()

        def take_emote_slot(self, player: str, game_id: str, at_ms: int, interval: int) -> int:
            return 0

    connections, sockets = Connections(), Sockets()
    connections.add("alice", "a-phone", 0, None)
    connections.add("bob", "b-web", 0, None)
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, seed=3)).game_id
    table.service.commands.join(BOB, game, TakeSeat(), None)
    gestures = Gestures(table.store, Safety(NoBlocks()), connections, sockets)
    for emote in EMOTES:
        sent = gestures.emote(BOB, game, lambda emote=emote: SendEmote(emote))
        assert_valid("emote", sent)
    frames = sockets.sent["a-phone"] + sockets.sent["b-web"]
    assert len(frames) == 2 * len(EMOTES)
    for frame in frames:
        assert_valid("emote", frame)
