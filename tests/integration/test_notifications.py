"""Notifications through the handlers on DynamoDB Local: the table's stream feeds
functions/notify, players read their inbox with GET /me/notifications and mark it read."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.integration.client import DOS_DEAL, NO_CLAIMS, Api, Privileged, requests_to_dynamodb
from tests.integration.table import OUTSIDER

pytestmark = [pytest.mark.ddb, pytest.mark.long(35)]


def inbox(api: Api, player: str, query: str = "") -> dict[str, Any]:
    reply = api.call("GET", f"/me/notifications{query}", player=player)
    return dict(reply.ok())


def everything(api: Api, player: str) -> list[dict[str, Any]]:
    """Every notification of ``player``, page after page (newest first)."""
    found: list[dict[str, Any]] = []
    page = inbox(api, player, "?limit=3")
    while True:
        found += page["notifications"]
        if not page["next"]:
            return found
        page = inbox(api, player, f"?limit=3&cursor={page['next']}")


def play_out(api: Api, game: str, players: list[str]) -> None:
    while True:
        view = api.get(game, OUTSIDER).ok()
        if view["status"] != "playing":
            return
        player = players[view["turn"]]
        you = api.get(game, player).ok()["you"]
        if you["legal"]:
            api.play(game, player, you["legal"][0]["tile"], you["legal"][0]["end"]).ok()
        elif you["can_draw"]:
            api.draw(game, player).ok()
        else:
            api.pass_(game, player).ok()


def test_a_match_notifies_each_player_once_per_change(api: Api, privileged: Privileged) -> None:
    # to 100, not the preset's 300: six hands and 190 moves instead of 22 and 660
    rules = {"target": 100}
    game = api.create("nia", preset="dos-jugadores", players=2, deal=DOS_DEAL, seed=21, rules=rules)
    game_id = game.ok(201)["id"]
    api.join(game_id, "teo").ok()  # teo holds 6-6 and leads
    api.drain()
    assert [(n["type"], n["version"]) for n in everything(api, "nia")] == [
        ("player_joined", 2),
        ("game_started", 2),
    ]
    assert everything(api, "teo") == []
    api.play(game_id, "teo", "6-6").ok()
    api.drain()
    newest = inbox(api, "nia")["notifications"][0]
    assert (newest["type"], newest["version"], newest["game"]) == ("your_turn", 3, game_id)
    assert newest["title"] == "Te toca" and not newest["read"]
    play_out(api, game_id, ["nia", "teo"])
    api.drain()
    api.drain()  # nothing new the second time
    final = api.get(game_id, OUTSIDER).ok()
    assert final["status"] == "finished" and final["hand_number"] >= 3, final["hand_number"]
    for player in ("nia", "teo"):
        notes = everything(api, player)
        keys = [(n["game"], n["version"], n["type"]) for n in notes]
        assert len(keys) == len(set(keys)), player  # never twice
        assert [n["version"] for n in notes] == sorted((n["version"] for n in notes), reverse=True)
        privileged.assert_hides(game_id, None, notes)  # no tile in any text
        assert Counter(n["type"] for n in notes)["your_turn"] > 0
    told_over = [
        p for p in ("nia", "teo") if any(n["type"] == "game_over" for n in everything(api, p))
    ]
    assert len(told_over) == 1  # the player who ended the match was told by the answer
    assert all(n["version"] <= final["version"] for n in everything(api, "nia"))


def test_unread_and_read(api: Api) -> None:
    game = api.create("ona", preset="clasico", players=3, seed=5).ok(201)["id"]
    api.join(game, "pau").ok()
    api.join(game, "quim").ok()
    api.drain()
    first = inbox(api, "ona")
    assert first["unread"] == len(first["notifications"]) >= 3
    newest = first["notifications"][0]["id"]
    reply = api.call("POST", "/me/notifications/read", {"until": newest}, player="ona")
    assert (reply.status, reply.raw) == (204, "")
    after = inbox(api, "ona")
    assert after["unread"] == 0 and all(n["read"] for n in after["notifications"])
    oldest = first["notifications"][-1]["id"]
    api.call("POST", "/me/notifications/read", {"until": oldest}, player="ona")  # never back
    assert inbox(api, "ona")["unread"] == 0


def test_the_unread_count_is_the_same_however_the_page_falls(api: Api) -> None:
    """A first page that holds every unread notification counts them itself; one that may not
    asks the table. Either way the count is the inbox's."""
    game = api.create("ula", preset="clasico", players=3, seed=6).ok(201)["id"]
    api.join(game, "vic").ok()
    api.join(game, "wen").ok()
    api.drain()
    notes = everything(api, "ula")
    assert len(notes) >= 3

    def polled(query: str) -> tuple[int, Counter[str]]:
        with requests_to_dynamodb() as calls:
            unread = inbox(api, "ula", query)["unread"]
        return unread, calls

    assert polled("") == (len(notes), Counter({"BatchGetItem": 1, "Query": 2}))  # the whole inbox
    assert polled("?limit=1") == (len(notes), Counter({"BatchGetItem": 1, "Query": 3}))
    api.call("POST", "/me/notifications/read", {"until": notes[1]["id"]}, player="ula")
    assert polled("?limit=2") == (1, Counter({"BatchGetItem": 1, "Query": 2}))  # reaches a read one
    assert polled("?limit=1") == (1, Counter({"BatchGetItem": 1, "Query": 3}))
    assert polled(f"?limit=1&cursor={inbox(api, 'ula', '?limit=1')['next']}")[0] == 1


def test_an_empty_inbox_is_polled_in_two_requests(api: Api) -> None:
    with requests_to_dynamodb() as calls:
        assert inbox(api, "xan") == {"notifications": [], "next": None, "unread": 0}
    assert calls == Counter(
        {"BatchGetItem": 1, "Query": 1}
    )  # the read mark with the ban mark, the page


def test_texts_follow_the_tokens_locale(api: Api) -> None:
    game = api.create("rut", preset="dos-jugadores", players=2, seed=8).ok(201)["id"]
    api.join(game, "sam").ok()
    api.drain()
    english = api.call("GET", "/me/notifications", player="rut", locale="en-GB").ok()
    titles = {n["title"] for n in english["notifications"]}
    assert titles and titles <= {"New player", "Game on", "Your turn"}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"until": "2026-01-01T00:00:00Z#nosuchgame1#0000000001#your_turn"}, 400),
        ({"until": "../../etc/passwd"}, 400),
        ({"until": "x" * 121}, 400),
        ({}, 400),
        ("[]", 400),
        ("[" * 1000 + "]" * 1000, 400),
    ],
)
def test_read_refusals(api: Api, body: Any, status: int) -> None:
    reply = api.call("POST", "/me/notifications/read", body, player="ona")
    assert (reply.status, reply.code) == (status, "invalid_request"), reply.body


def test_the_inbox_needs_a_caller(api: Api) -> None:
    assert api.call("GET", "/me/notifications", player=NO_CLAIMS).code == "unauthorized"
    reply = api.call("POST", "/me/notifications/read", {"until": "x"}, player=NO_CLAIMS)
    assert reply.code == "unauthorized"
    for query in ("?limit=0", "?limit=101", "?cursor=bm90IGpzb24"):
        assert api.call("GET", f"/me/notifications{query}", player="ona").status == 400


def test_a_poisoned_record_fails_only_itself(api: Api) -> None:
    """A batch with one record the notifier cannot read: that record is reported failed
    (the stream retries it, then the on-failure queue keeps it); the others are handled."""
    event = json.loads((Path(__file__).resolve().parents[2] / "events" / "notify.json").read_text())
    good = event["Records"][0]
    poisoned = json.loads(json.dumps(good))
    poisoned["eventID"] = "poisoned0000000000000000000000000"
    poisoned["dynamodb"]["SequenceNumber"] = "111100000000000000000002"
    poisoned["dynamodb"]["NewImage"]["state"] = {"B": "bm90IGEgc3RhdGU="}  # not a game state
    poisoned["dynamodb"]["NewImage"]["version"] = {"N": "3"}
    batch = {"Records": [good, poisoned]}
    result = api.invoke("notify", batch).body
    assert result == {"batchItemFailures": [{"itemIdentifier": "111100000000000000000002"}]}
    from domino.api import wiring

    stem = "2026-11-29T12:00:00Z#EventNotifyGame01#0000000002#"
    for kind in ("player_joined", "game_started"):  # alice plays elsewhere too: by id
        assert wiring.inbox().inbox.get("alice", stem + kind) is not None, kind
