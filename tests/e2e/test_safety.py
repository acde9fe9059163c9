"""Safety among strangers and emotes over HTTP on the local runtime (docs/api.md, "Strangers and
friends"): blocks, reports, the display-name filter, muted pushes, nudges and emotes, each
route's success and its error cases."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from local.process import Runtime
from tests.e2e.api_helpers import runtime_now
from tests.e2e.test_live import players, receive, sockets, wait_for_connections, ws_url

pytestmark = pytest.mark.e2e
__all__ = ["sockets"]  # the fixture, used by name

#: ordinary names in Spanish and English that must pass the filter (the Scunthorpe problem)
ORDINARY_NAMES = [
    "Ana", "Beto", "Scunthorpe", "Concha", "Analía", "Cassandra", "Sussex", "Dick", "Penélope",
    "Mariana", "Nacho", "Pepe", "Rocío", "José Luis", "Gato Negro", "Hancock", "Matsushita",
]  # fmt: skip


def fresh(runtime: Runtime, *names: str) -> list[tuple[str, str]]:
    return players(runtime, *names)


def code_of(body: Any) -> str:
    return str(body["error"]["code"])


def two_player_game(
    runtime: Runtime, alice: str, bob: str, **options: Any
) -> tuple[str, dict[str, Any]]:
    body = {"preset": "dos-jugadores", "players": 2, **options}
    status, _, game = runtime.request("POST", "/games", body, token=alice)
    assert status == 201, game
    status, _, view = runtime.request("POST", f"/games/{game['id']}/join", {}, token=bob)
    assert status == 200 and view["status"] == "playing", view
    return game["id"], view


# ---------------------------------------------------------------------- blocks


def test_blocks_are_kept_listed_and_lifted(runtime: Runtime) -> None:
    (alice, alice_t), (bob, bob_t), (carol, _) = fresh(runtime, "Alice", "Bob", "Carol")
    runtime.request("PATCH", "/me", {"name": "Roberto"}, token=bob_t)
    assert runtime.request("PUT", f"/me/blocks/{bob}", token=alice_t)[0] == 204
    assert runtime.request("PUT", f"/me/blocks/{carol}", token=alice_t)[0] == 204
    status, _headers, page = runtime.request("GET", "/me/blocks?limit=1", token=alice_t)
    assert status == 200 and len(page["blocks"]) == 1 and page["next"], page
    status, _, rest = runtime.request(
        "GET", f"/me/blocks?limit=1&cursor={page['next']}", token=alice_t
    )
    assert status == 200 and rest["next"] is None, rest
    listed = {b["player"]: b for b in page["blocks"] + rest["blocks"]}
    assert set(listed) == {bob, carol}
    assert listed[bob]["name"] == "Roberto" and listed[carol]["name"] == carol
    assert set(listed[bob]) == {"player", "name", "since"}
    # blocking again keeps the first block; the blocked player sees nothing of it
    assert runtime.request("PUT", f"/me/blocks/{bob}", token=alice_t)[0] == 204
    assert runtime.request("GET", "/me/blocks", token=bob_t)[2] == {"blocks": [], "next": None}
    assert runtime.request("DELETE", f"/me/blocks/{bob}", token=alice_t)[0] == 204
    assert runtime.request("DELETE", f"/me/blocks/{bob}", token=alice_t)[0] == 204  # again
    after = runtime.request("GET", "/me/blocks", token=alice_t)[2]
    assert [b["player"] for b in after["blocks"]] == [carol]
    assert alice  # the blocker's id is nowhere in the blocked player's answers


def test_bad_block_requests_are_refused(runtime: Runtime) -> None:
    ((alice, alice_t),) = fresh(runtime, "Alice")
    status, _, body = runtime.request("PUT", f"/me/blocks/{alice}", token=alice_t)
    assert (status, code_of(body)) == (400, "invalid_request")
    status, _, body = runtime.request("PUT", "/me/blocks/" + "x" * 256, token=alice_t)
    assert (status, code_of(body)) == (400, "invalid_request")
    status, _, body = runtime.request("PUT", "/me/blocks/bob")
    assert (status, code_of(body)) == (401, "unauthorized")
    status, _, body = runtime.request("GET", "/me/blocks?cursor=bm9wZQ", token=alice_t)
    assert (status, code_of(body)) == (400, "invalid_request")
    status, _, body = runtime.request("GET", "/me/blocks?limit=101", token=alice_t)
    assert (status, code_of(body)) == (400, "invalid_request")
    assert runtime.request("GET", "/me/blocks", token=alice_t)[2]["blocks"] == []


# ---------------------------------------------------------------------- reports


def reports_of(runtime: Runtime, reporter: str) -> list[dict[str, Any]]:
    day = runtime_now(runtime).strftime("%Y-%m-%d")
    items = runtime.database().query(
        TableName="GameTable",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"REPORTS#{day}"}},
    )["Items"]
    return [i for i in items if i["reporter"]["S"] == reporter]


def test_a_report_is_kept_once_a_day(runtime: Runtime) -> None:
    (alice, alice_t), (bob, bob_t) = fresh(runtime, "Alice", "Bob")
    game, _ = two_player_game(runtime, alice_t, bob_t)
    report = {"reason": "abuse", "game": game, "note": "Insults at the table."}
    status, _, body = runtime.request("POST", f"/players/{alice}/reports", report, token=bob_t)
    assert (status, body) == (202, None)
    again = {"reason": "abuse"}  # the same reporter, player and reason: the same report
    assert runtime.request("POST", f"/players/{alice}/reports", again, token=bob_t)[0] == 202
    kept = reports_of(runtime, bob)
    assert len(kept) == 1, kept
    assert kept[0]["player"]["S"] == alice and kept[0]["note"]["S"] == "Insults at the table."
    # another reason is another report
    other = {"reason": "name"}
    assert runtime.request("POST", f"/players/{alice}/reports", other, token=bob_t)[0] == 202
    assert {r["reason"]["S"] for r in reports_of(runtime, bob)} == {"abuse", "name"}


def test_bad_reports_are_refused_and_keep_nothing(runtime: Runtime) -> None:
    (alice, alice_t), (bob, bob_t) = fresh(runtime, "Alice", "Bob")
    two_player_game(runtime, alice_t, bob_t)
    cases = [
        ({"reason": "abuse", "note": "x" * 501}, "note"),
        ({"reason": "rude"}, "reason"),
        ({}, "reason"),
        ({"reason": "name", "game": "../x"}, "game"),
        ({"reason": "name", "extra": 1}, "extra"),
    ]
    for body, field in cases:
        status, _, answer = runtime.request("POST", f"/players/{alice}/reports", body, token=bob_t)
        assert (status, code_of(answer)) == (400, "invalid_request"), body
        assert field in answer["error"]["params"]["fields"], answer
    ok = {"reason": "other", "note": "y" * 500}
    assert runtime.request("POST", f"/players/{alice}/reports", ok, token=bob_t)[0] == 202
    status, _, answer = runtime.request(
        "POST", f"/players/{bob}/reports", {"reason": "name"}, token=bob_t
    )
    assert (status, code_of(answer)) == (400, "invalid_request")  # yourself
    nobody = f"nobody{uuid.uuid4().hex[:8]}"
    status, _, answer = runtime.request(
        "POST", f"/players/{nobody}/reports", {"reason": "name"}, token=bob_t
    )
    assert (status, code_of(answer)) == (404, "not_found")
    status, _, answer = runtime.request("POST", f"/players/{alice}/reports", {"reason": "name"})
    assert (status, code_of(answer)) == (401, "unauthorized")
    assert len(reports_of(runtime, bob)) == 1


# ---------------------------------------------------------------------- names


def test_offensive_names_are_refused_and_ordinary_ones_pass(runtime: Runtime) -> None:
    (_, alice_t), (_, bob_t) = fresh(runtime, "Alice", "Bob")
    for name in ("fuck", "Hijo de puta", "gilipollas", "Cabrón", "f u c k", "B1tch"):
        status, _, body = runtime.request("PATCH", "/me", {"name": name}, token=alice_t)
        assert (status, code_of(body)) == (400, "invalid_request"), name
        assert body["error"]["params"]["fields"] == ["name"], body
    assert runtime.request("GET", "/me", token=alice_t)[2]["name"] == "Alice"
    for name in ORDINARY_NAMES:
        status, _, body = runtime.request("PATCH", "/me", {"name": name}, token=alice_t)
        assert status == 200 and body["name"] == name, (name, body)
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=alice_t
    )
    status, _, body = runtime.request(
        "POST", f"/games/{game['id']}/join", {"name": "mierda"}, token=bob_t
    )
    assert (status, code_of(body)) == (400, "invalid_request")
    assert body["error"]["params"]["fields"] == ["name"]
    status, _, body = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2, "name": "cunt"}, token=bob_t
    )
    assert (status, code_of(body)) == (400, "invalid_request")
    assert runtime.request("GET", f"/games/{game['id']}", token=bob_t)[2]["status"] == "waiting"


def test_a_tokens_offensive_name_shows_as_player_and_four_digits(runtime: Runtime) -> None:
    player = f"rude{uuid.uuid4().hex[:8]}"
    token = runtime.token(player, "Puta Madre")
    status, _, me = runtime.request("GET", "/me", token=token)
    assert status == 200 and me["name"].startswith("Player ") and len(me["name"]) == 11, me
    assert me["name"][7:].isdigit()
    again = runtime.request("GET", "/me", token=runtime.token(player, "Puta Madre"))[2]
    assert again["name"] == me["name"]  # stable for the player
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=token
    )
    assert status == 201 and game["seats"][0]["name"] == me["name"], game


# ---------------------------------------------------------------------- mute


def test_muted_types_are_not_pushed_but_reach_the_inbox(runtime: Runtime) -> None:
    (ana, ana_t), (_, ben_t) = fresh(runtime, "Ana", "Ben")
    device = {"platform": "apns", "token": f"apns-{ana}", "locale": "en"}
    assert runtime.request("PUT", f"/me/devices/phone-{ana}", device, token=ana_t)[0] == 204
    status, _, me = runtime.request("PATCH", "/me", {"mute": ["player_joined"]}, token=ana_t)
    assert status == 200 and me["mute"] == ["player_joined"] and me["name"] == "Ana", me
    assert runtime.request("GET", "/me", token=ana_t)[2]["mute"] == ["player_joined"]
    two_player_game(runtime, ana_t, ben_t)
    deadline = time.monotonic() + 10
    kinds: set[str] = set()
    while time.monotonic() < deadline and "game_started" not in kinds:
        pushes = runtime.request("GET", "/dev/pushes")[2]["pushes"]
        kinds = {p["payload"]["type"] for p in pushes if p["token"] == device["token"]}
        time.sleep(0.1)
    assert "game_started" in kinds and "player_joined" not in kinds, kinds
    inbox = runtime.request("GET", "/me/notifications", token=ana_t)[2]["notifications"]
    assert "player_joined" in {n["type"] for n in inbox}
    # [] pushes everything again; bad types and an empty body are refused
    assert runtime.request("PATCH", "/me", {"mute": []}, token=ana_t)[2]["mute"] == []
    for body in ({"mute": ["loud"]}, {"mute": "nudge"}, {}, {"mute": None}):
        status, _, answer = runtime.request("PATCH", "/me", body, token=ana_t)
        assert (status, code_of(answer)) == (400, "invalid_request"), body
    assert runtime.request("GET", "/me", token=ana_t)[2]["mute"] == []


# ---------------------------------------------------------------------- nudges


def on_turn(
    runtime: Runtime, game: str, view: dict[str, Any], tokens: list[str]
) -> tuple[str, str]:
    """(token on turn, token not on turn)."""
    by_seat = {
        runtime.request("GET", f"/games/{game}", token=t)[2]["you"]["seat"]: t for t in tokens
    }
    return by_seat[view["turn"]], by_seat[1 - view["turn"]]


def nudges_of(runtime: Runtime, token: str) -> list[dict[str, Any]]:
    inbox = runtime.request("GET", "/me/notifications", token=token)[2]["notifications"]
    return [n for n in inbox if n["type"] == "nudge"]


def test_a_nudge_reaches_the_player_on_turn_once_per_turn(runtime: Runtime) -> None:
    (_, alice_t), (_, bob_t), (_, carol_t) = fresh(runtime, "Alice", "Bob", "Carol")
    game, view = two_player_game(runtime, alice_t, bob_t)
    turn_t, other_t = on_turn(runtime, game, view, [alice_t, bob_t])
    path = f"/games/{game}/nudge"
    status, headers, body = runtime.request("POST", path, {}, token=other_t)
    assert (status, code_of(body)) == (429, "throttled"), body  # too early
    assert int(headers["Retry-After"]) > 11 * 3600
    status, _, body = runtime.request("POST", path, {}, token=turn_t)
    assert (status, code_of(body)) == (400, "invalid_request")  # yourself
    status, _, body = runtime.request("POST", path, {}, token=carol_t)
    assert (status, code_of(body)) == (403, "not_a_player")
    status, _, body = runtime.request("POST", "/games/nosuchgame000/nudge", {}, token=other_t)
    assert (status, code_of(body)) == (404, "game_not_found")
    status, _, body = runtime.request("POST", path, {"x": 1}, token=other_t)
    assert (status, code_of(body)) == (400, "invalid_request")
    status, _, body = runtime.request("POST", path, {})
    assert (status, code_of(body)) == (401, "unauthorized")
    assert runtime.request("POST", "/dev/clock", {"advance": 12 * 3600 + 5})[0] == 200
    status, _, body = runtime.request("POST", path, {}, token=other_t)
    assert (status, body) == (204, None)
    status, _, body = runtime.request("POST", path, None, token=other_t)
    assert (status, code_of(body)) == (409, "already_nudged")
    deadline = time.monotonic() + 10
    while not nudges_of(runtime, turn_t) and time.monotonic() < deadline:
        time.sleep(0.1)
    (note,) = nudges_of(runtime, turn_t)
    assert note["game"] == game and note["body"].endswith("Dominó para dos jugadores.")
    assert not nudges_of(runtime, other_t)
    after = runtime.request("GET", f"/games/{game}", token=turn_t)[2]
    assert after["version"] == view["version"]  # a nudge is no change of the game
    time.sleep(0.5)
    assert len(nudges_of(runtime, turn_t)) == 1  # once


def test_a_timed_turn_may_be_nudged_at_80_percent(runtime: Runtime) -> None:
    (_, alice_t), (_, bob_t) = fresh(runtime, "Alice", "Bob")
    game, view = two_player_game(runtime, alice_t, bob_t, turn_timeout_hours=10)
    _, other_t = on_turn(runtime, game, view, [alice_t, bob_t])
    assert runtime.request("POST", "/dev/clock", {"advance": 7 * 3600})[0] == 200
    status, headers, body = runtime.request("POST", f"/games/{game}/nudge", {}, token=other_t)
    assert (status, code_of(body)) == (429, "throttled") and int(headers["Retry-After"]) <= 3600
    assert runtime.request("POST", "/dev/clock", {"advance": 3600 + 5})[0] == 200
    assert runtime.request("POST", f"/games/{game}/nudge", {}, token=other_t)[0] == 204


def test_a_game_not_being_played_is_not_nudged(runtime: Runtime) -> None:
    (_, alice_t), (_, _bob_t) = fresh(runtime, "Alice", "Bob")
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=alice_t
    )
    status, _, body = runtime.request("POST", f"/games/{game['id']}/nudge", {}, token=alice_t)
    assert (status, code_of(body)) == (422, "game_not_in_progress")
    status, _, body = runtime.request(
        "POST", f"/games/{game['id']}/emotes", {"emote": "hello"}, token=alice_t
    )
    assert (status, code_of(body)) == (422, "game_not_in_progress")


# ---------------------------------------------------------------------- emotes


def emotes(ws: ClientConnection, within: float) -> list[dict[str, Any]]:
    """The emotes ``ws`` receives within ``within`` seconds."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        if message["type"] == "emote":
            got.append(message)
    return got


def test_an_emote_reaches_every_seated_players_socket(runtime: Runtime, sockets: Any) -> None:
    (alice, alice_t), (bob, bob_t), (_, carol_t) = fresh(runtime, "Alice", "Bob", "Carol")
    alice_ws, bob_ws = sockets(ws_url(runtime, alice_t)), sockets(ws_url(runtime, bob_t))
    wait_for_connections(runtime, alice, 1)
    wait_for_connections(runtime, bob, 1)
    game, _ = two_player_game(runtime, alice_t, bob_t)
    seat = runtime.request("GET", f"/games/{game}", token=alice_t)[2]["you"]["seat"]
    path = f"/games/{game}/emotes"
    status, _, body = runtime.request("POST", path, {"emote": "good_game"}, token=alice_t)
    assert (status, body) == (204, None)
    expected = {"type": "emote", "game": game, "seat": seat, "emote": "good_game"}
    for ws in (alice_ws, bob_ws):
        got = receive(ws, lambda ms: any(m["type"] == "emote" for m in ms))
        assert [m for m in got if m["type"] == "emote"] == [expected]
    status, headers, body = runtime.request("POST", path, {"emote": "thanks"}, token=alice_t)
    assert (status, code_of(body)) == (429, "throttled") and 1 <= int(headers["Retry-After"]) <= 3
    # another player's limit is their own
    assert runtime.request("POST", path, {"emote": "thanks"}, token=bob_t)[0] == 204
    # never stored: no notification of an emote
    inbox = runtime.request("GET", "/me/notifications", token=bob_t)[2]["notifications"]
    assert "emote" not in {n["type"] for n in inbox}
    for body, code, status_ in (
        ({"emote": "you suck"}, "invalid_request", 400),
        ({"emote": "hello", "text": "hi"}, "invalid_request", 400),
        ({}, "invalid_request", 400),
    ):
        status, _, answer = runtime.request("POST", path, body, token=bob_t)
        assert (status, code_of(answer)) == (status_, code), body
    status, _, answer = runtime.request("POST", path, {"emote": "hello"}, token=carol_t)
    assert (status, code_of(answer)) == (403, "not_a_player")
    status, _, answer = runtime.request(
        "POST", "/games/nosuchgame000/emotes", {"emote": "hello"}, token=bob_t
    )
    assert (status, code_of(answer)) == (404, "game_not_found")
    status, _, answer = runtime.request("POST", path, {"emote": "hello"})
    assert (status, code_of(answer)) == (401, "unauthorized")


def test_a_blocked_players_emotes_never_reach_the_blocker(runtime: Runtime, sockets: Any) -> None:
    (alice, alice_t), (bob, bob_t) = fresh(runtime, "Alice", "Bob")
    alice_ws, bob_ws = sockets(ws_url(runtime, alice_t)), sockets(ws_url(runtime, bob_t))
    wait_for_connections(runtime, alice, 1)
    wait_for_connections(runtime, bob, 1)
    game, _ = two_player_game(runtime, alice_t, bob_t)
    assert runtime.request("PUT", f"/me/blocks/{alice}", token=bob_t)[0] == 204
    path = f"/games/{game}/emotes"
    assert runtime.request("POST", path, {"emote": "oops"}, token=alice_t)[0] == 204
    assert [m["emote"] for m in emotes(alice_ws, 2.0)] == ["oops"]  # her own socket
    assert emotes(bob_ws, 1.0) == []
    # bob's emotes still reach alice: the block is his
    assert runtime.request("POST", path, {"emote": "hello"}, token=bob_t)[0] == 204
    assert [m["emote"] for m in emotes(alice_ws, 2.0)] == ["hello"]
