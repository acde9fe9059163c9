"""Safety among strangers without I/O: the display-name filter (offensive words refused,
ordinary names passed), ``Player 1234``, the request bodies, a nudge's notice and its timing,
muted pushes."""

from __future__ import annotations

import pytest
from domino.api.errors import InvalidRequest
from domino.api.identity import caller_from_event
from domino.api.models import EmoteBody, JoinGame, ReportBody, UpdateMeBody
from domino.service.devices import Devices, PushChannel
from domino.service.gestures import NUDGE_AFTER_SECONDS, nudge_time
from domino.service.names import offensive, placeholder, shown_name
from domino.service.notices import NOTIFICATION_TYPES, notices
from domino.service.texts import text
from domino.service.values import Caller, ChangeName, RegisterDevice
from domino.store.inbox import Note
from domino.store.records import GameRecord, Seat

from tests.unit.test_push import Devices_, Gateway

#: ordinary names in Spanish and English: none holds an offensive word as a whole word,
#: several hold one inside (the Scunthorpe problem) or are listed words that are names too
ORDINARY = [
    "Ana", "Beto", "Scunthorpe", "Analía", "Concha", "Concepción", "Cassandra", "Sussex",
    "Essex", "Middlesex", "Hancock", "Cockburn", "Penélope", "Assunta", "Dick", "Dickens",
    "Shitake", "Matsushita", "Bastian", "Pascual", "Nazario", "Mariana", "Maricarmen",
    "Culebra", "Pedro", "Pedrosa", "Clitheroe", "Cumbria", "Arsenal", "Titus", "Tita",
    "Pollito", "José Luis", "María José", "Sexton", "Cumberbatch", "Pepe", "Lola", "Manolo",
    "Nacho", "Chelo", "Rocío", "Sánchez", "Bass", "Grass", "Shirley", "Anastasia", "Hooker",
    "Butt", "Gato Negro", "Player 1234", "Beto77", "Putin", "Semenov", "Orinoco", "Pisa",
    "Martillo", "Vergara", "Juan XX", "Mamadou", "Pussycat Fan",
]  # fmt: skip
OFFENSIVE = [
    "fuck", "Fuck You", "f u c k", "F.U.C.K", "FuckFace99", "b1tch", "a$$hole", "Hijo de puta",
    "hijodeputa", "gilipollas", "cabrón", "CABRON", "Puta", "mierda", "Cunt", "coño",
    "Maricón", "🖕", "Asshole 22", "soplapollas",
]  # fmt: skip


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_pass(name: str) -> None:
    assert not offensive(name)
    assert JoinGame.parse(f'{{"name": "{name}"}}').name == name


@pytest.mark.parametrize("name", OFFENSIVE)
def test_offensive_names_are_refused_naming_the_field(name: str) -> None:
    assert offensive(name)
    with pytest.raises(InvalidRequest) as refused:
        UpdateMeBody.parse(f'{{"name": "{name}"}}')
    assert refused.value.fields == ["name"]
    assert refused.value.say(lambda t: t) == "name holds a word that is not allowed in names."


def test_a_tokens_offensive_name_shows_as_player_and_four_stable_digits() -> None:
    shown = shown_name("rude-1", "Hijo de puta")
    assert shown == placeholder("rude-1") and shown.startswith("Player ")
    assert len(shown) == 11 and 1000 <= int(shown[7:]) <= 9999
    assert placeholder("rude-1") == placeholder("rude-1") != placeholder("rude-2")
    assert shown_name("ana", "Ana") == "Ana"
    claims = {"sub": "rude-1", "name": "gilipollas"}
    event = {"requestContext": {"authorizer": {"jwt": {"claims": claims}}}}
    assert caller_from_event(event).name == shown


def test_bodies_of_the_new_routes() -> None:
    assert UpdateMeBody.parse('{"mute": ["nudge", "your_turn", "nudge"]}') == ChangeName(
        None, ("your_turn", "nudge")
    )
    assert UpdateMeBody.parse('{"mute": ["invited"]}').mute == ("invited",)
    for bad in ('{"mute": ["loud"]}', "{}", '{"mute": null}', '{"name": null}'):
        with pytest.raises(InvalidRequest):
            UpdateMeBody.parse(bad)
    assert EmoteBody.parse('{"emote": "well_played"}').emote == "well_played"
    with pytest.raises(InvalidRequest) as refused:
        EmoteBody.parse('{"emote": "hola"}')
    assert refused.value.fields == ["emote"]
    assert ReportBody.parse('{"reason": "other", "note": "' + "n" * 500 + '"}').reason == "other"
    with pytest.raises(InvalidRequest) as refused:
        ReportBody.parse('{"reason": "other", "note": "' + "n" * 501 + '"}')
    assert refused.value.fields == ["note"]
    assert "nudge" in NOTIFICATION_TYPES and "match_found" in NOTIFICATION_TYPES


def record(version: int = 5, **extra: object) -> GameRecord:
    seats = [Seat("alice", "Alice"), Seat("bob", "Bob")]
    fields: dict[str, object] = {"updated_at": 1000, "turn_player": "bob", "config": {}, **extra}
    return GameRecord("g" * 22, version, "playing", "dos-jugadores", seats=seats, **fields)  # type: ignore[arg-type]


def test_a_nudge_mark_notifies_the_player_on_turn_once() -> None:
    old = record()
    new = record(nudged=5, nudged_at=2000, nudger=0)
    (notice,) = notices(old, new)
    assert (notice.player, notice.type, notice.version, notice.at) == ("bob", "nudge", 5, 2000)
    assert notice.detail == "Alice"
    assert notices(new, new) == []  # the same mark again: nothing new
    stale = record(nudged=4, nudged_at=2000, nudger=0)  # a mark of an earlier turn
    assert notices(old, stale) == []
    _title, body = text("nudge", "en", "dos-jugadores", "Alice")
    assert body == "Alice is waiting for your move in your Two-player dominoes game."
    assert text("nudge", "es", "dos-jugadores", "Alice")[1].startswith("Alice espera tu jugada")


def test_a_turn_may_be_nudged_after_12_hours_or_80_percent_of_its_time() -> None:
    assert nudge_time(record()) == 1000 + NUDGE_AFTER_SECONDS
    timed = record(deadline=1000 + 10 * 3600, config={"turn_timeout_hours": 10})
    assert nudge_time(timed) == 1000 + 8 * 3600
    slow = record(deadline=1000 + 100 * 3600, config={"turn_timeout_hours": 100})
    assert nudge_time(slow) == 1000 + NUDGE_AFTER_SECONDS


def test_a_muted_type_is_not_pushed() -> None:
    store, gateway = Devices_(), Gateway()
    Devices(store, gateway).register(Caller("alice", "Alice"), "phone", RegisterDevice("apns", "t"))
    muted = {"alice": ("nudge",)}
    channel = PushChannel(store, gateway, lambda p: 0, muted=lambda p: muted.get(p, ()))
    nudge = Note("alice", "nudge", "g" * 22, 5, 1000, "dos-jugadores", "Bob")
    turn = Note("alice", "your_turn", "g" * 22, 6, 1001, "dos-jugadores")
    assert channel.send(nudge) is True  # settled: nothing to send again on a redelivery
    assert gateway.sent == []
    assert channel.send(turn) is True
    assert [m["APNS"]["type"] for _, m in gateway.sent] == ["your_turn"]
