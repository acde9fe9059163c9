"""Live updates over WebSocket on the local runtime (`python -m local`): clients connect to
``ws://127.0.0.1:PORT/ws?token=<dev token>`` (docs/api.md#live-updates), functions/ws records the
connection, and the notifier (functions/notify, fed by the stream pump every 0.1 s) posts
``game_changed`` through boto3's management API client to the runtime's ``/ws/@connections``."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from local.process import Runtime

pytestmark = pytest.mark.e2e

#: how long a message may take to arrive (the stream pump polls every 0.1 s)
WITHIN = 5.0


def ws_url(rt: Runtime, token: str | None) -> str:
    query = "" if token is None else f"?token={token}"
    return f"ws://127.0.0.1:{rt.port}/ws{query}"


def receive(
    ws: ClientConnection, done: Callable[[list[dict[str, Any]]], bool], within: float = WITHIN
) -> list[dict[str, Any]]:
    """The messages ``ws`` receives until ``done(messages)`` holds; fails after ``within``."""
    deadline = time.monotonic() + within
    messages: list[dict[str, Any]] = []
    while not done(messages):
        left = deadline - time.monotonic()
        assert left > 0, f"still waiting after {within} s; got {messages}"
        try:
            messages.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            continue
    return messages


def changes_of(game: str, version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "game_changed" and m["game"] == game and m["version"] == version


def kinds(messages: list[dict[str, Any]]) -> set[str | None]:
    return {(m["notification"] or {}).get("type") for m in messages}


def players(rt: Runtime, *names: str) -> list[tuple[str, str]]:
    """(player id, dev token) per name, the ids fresh for this test."""
    suffix = uuid.uuid4().hex[:8]
    return [(f"{n.lower()}{suffix}", rt.token(f"{n.lower()}{suffix}", n)) for n in names]


@pytest.fixture
def sockets() -> Iterator[Callable[[str], ClientConnection]]:
    """Opens sockets (``open(url)``) and closes them after the test."""
    with ExitStack() as stack:
        yield lambda url: stack.enter_context(connect(url, open_timeout=10))


def connections_of(rt: Runtime, player: str) -> list[str]:
    """The player's connection items ($connect writes them, $disconnect deletes them)."""
    client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{rt.ddb_port}")
    items = client.query(
        TableName="GameTable",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :c)",
        ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player}"}, ":c": {"S": "CONN#"}},
    )["Items"]
    return [item["sk"]["S"].removeprefix("CONN#") for item in items]


def wait_for_connections(rt: Runtime, player: str, count: int) -> list[str]:
    deadline = time.monotonic() + WITHIN
    while len(found := connections_of(rt, player)) != count:
        assert time.monotonic() < deadline, f"{player} has {found}, not {count} connections"
        time.sleep(0.05)
    return found


def test_a_missing_or_bad_token_is_refused_at_the_handshake(runtime: Runtime) -> None:
    for token in (None, "", "not-a-token", runtime.token("mallory") + "x"):
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url(runtime, token), open_timeout=10)
        response = refused.value.response
        assert response.status_code == 401
        assert response.headers["Content-Type"] == "application/json"
        assert json.loads(bytes(response.body))["error"]["code"] == "unauthorized"


def test_ping_is_answered_pong(runtime: Runtime, sockets: Any) -> None:
    ((_, token),) = players(runtime, "Pia")
    ws = sockets(ws_url(runtime, token))
    ws.send(json.dumps({"action": "ping"}))
    assert json.loads(ws.recv(timeout=WITHIN)) == {"type": "pong"}
    ws.send("hello")  # no action: the $default route answers
    assert json.loads(ws.recv(timeout=WITHIN))["type"] == "error"


def test_a_game_reaches_the_players_sockets(runtime: Runtime, sockets: Any) -> None:
    (_, alice_token), (_, bob_token) = players(runtime, "Alice", "Bob")
    alice_ws, bob_ws = sockets(ws_url(runtime, alice_token)), sockets(ws_url(runtime, bob_token))
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2, "seed": 7}, token=alice_token
    )
    assert status == 201, game
    status, _, joined = runtime.request("POST", f"/games/{game['id']}/join", {}, token=bob_token)
    assert status == 200, joined
    assert joined["version"] == 2

    # alice is told of both things the join did; bob made the change: "reload", nothing more
    at_join = changes_of(game["id"], 2)
    told = receive(alice_ws, lambda ms: {"player_joined", "game_started"} <= kinds(ms))
    assert all(at_join(m) for m in told), told
    joined_note = next(m for m in told if kinds([m]) == {"player_joined"})["notification"]
    assert joined_note["body"] == "Bob se ha sentado en tu partida de Dominó para dos jugadores."
    (bobs,) = receive(bob_ws, lambda ms: len(ms) == 1)
    assert {k: bobs[k] for k in ("type", "game", "version", "notification")} == {
        "type": "game_changed",
        "game": game["id"],
        "version": 2,
        "notification": None,
    }
    # the view his GET gives at that version, so the phone redraws without reading
    assert bobs["view"] == joined and bobs["moves"] == []

    # a move that hands the turn on: the next player's socket is told it is their turn
    seats = {
        runtime.request("GET", f"/games/{game['id']}", token=t)[2]["you"]["seat"]: (t, ws)
        for t, ws in ((alice_token, alice_ws), (bob_token, bob_ws))
    }
    view = joined
    while True:
        mover_token, mover_ws = seats[view["turn"]]
        status, _, view = runtime.request("GET", f"/games/{game['id']}", token=mover_token)
        you = view["you"]
        move = (
            ("play", you["legal"][0])
            if you["legal"]
            else ("draw" if you["can_draw"] else "pass", {})
        )
        status, _, out = runtime.request(
            "POST", f"/games/{game['id']}/{move[0]}", move[1], token=mover_token
        )
        assert status == 200, out
        view = out
        if seats[out["turn"]][0] != mover_token:
            break
    next_ws = seats[out["turn"]][1]
    arrived = changes_of(game["id"], out["version"])
    told = receive(next_ws, lambda ms: any(arrived(m) for m in ms))  # earlier draws' first
    assert told[-1]["notification"]["type"] == "your_turn"
    mine = receive(mover_ws, lambda ms: any(arrived(m) for m in ms))
    assert mine[-1]["notification"] is None  # the mover made the change
    assert mine[-1]["view"] == out  # what the mover's POST answered
    assert (
        told[-1]["view"]
        == runtime.request("GET", f"/games/{game['id']}", token=seats[out["turn"]][0])[2]
    )
    assert mine[-1]["moves"] == told[-1]["moves"] and mine[-1]["moves"][-1]["action"] == move[0]


def test_every_socket_of_a_player_gets_the_messages(runtime: Runtime, sockets: Any) -> None:
    (_, ana_token), (_, ben_token) = players(runtime, "Ana", "Ben")
    phone, tablet = sockets(ws_url(runtime, ana_token)), sockets(ws_url(runtime, ana_token))
    status, _, game = runtime.request(
        "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=ana_token
    )
    assert status == 201
    status, _, _ = runtime.request("POST", f"/games/{game['id']}/join", {}, token=ben_token)
    assert status == 200
    for ws in (phone, tablet):
        told = receive(ws, lambda ms: {"player_joined", "game_started"} <= kinds(ms))
        assert all(changes_of(game["id"], 2)(m) for m in told), told


def test_closing_a_socket_runs_disconnect(runtime: Runtime) -> None:
    """$connect records the connection; closing the socket runs $disconnect, which forgets it,
    and the management API answers 410 for it (botocore's GoneException)."""
    ((player, token),) = players(runtime, "Cleo")
    management = boto3.client("apigatewaymanagementapi", endpoint_url=f"{runtime.base}/ws")
    with connect(ws_url(runtime, token), open_timeout=10) as ws:
        (connection_id,) = wait_for_connections(runtime, player, 1)
        about = management.get_connection(ConnectionId=connection_id)
        assert about["Identity"]["SourceIp"] == "127.0.0.1"
        management.post_to_connection(ConnectionId=connection_id, Data=b'{"type": "hello"}')
        assert json.loads(ws.recv(timeout=WITHIN)) == {"type": "hello"}
    assert wait_for_connections(runtime, player, 0) == []
    with pytest.raises(ClientError) as gone:
        management.post_to_connection(ConnectionId=connection_id, Data=b"{}")
    assert gone.value.response["Error"]["Code"] == "GoneException"
    assert gone.value.response["ResponseMetadata"]["HTTPStatusCode"] == 410


def test_an_eleventh_socket_closes_the_players_oldest(runtime: Runtime, sockets: Any) -> None:
    """A player keeps at most 10 sockets (every change is posted to each): $connect of an
    eleventh closes the oldest through the management API, which runs its $disconnect."""
    ((player, token),) = players(runtime, "Dora")
    first = sockets(ws_url(runtime, token))
    (oldest,) = wait_for_connections(runtime, player, 1)
    for count in range(2, 11):
        sockets(ws_url(runtime, token))
        wait_for_connections(runtime, player, count)
    sockets(ws_url(runtime, token))
    kept = wait_for_connections(runtime, player, 10)
    assert oldest not in kept
    deadline = time.monotonic() + WITHIN
    while first.state.name != "CLOSED":  # the server closed it
        assert time.monotonic() < deadline, "the oldest socket is still open"
        try:
            first.recv(timeout=0.2)
        except TimeoutError:
            continue
        except Exception:  # ConnectionClosed: what we wait for
            break


def test_a_phone_that_missed_three_changes_resumes_to_the_right_view(
    runtime: Runtime, sockets: Any
) -> None:
    """docs/api.md "What a phone is sent": after reconnecting, ``resume`` with the versions
    held brings one game_changed per game that moved on, with the view GET gives now."""
    (ana_id, ana), (_, ben) = players(runtime, "Ana", "Ben")
    ben_ws = sockets(ws_url(runtime, ben))
    body = {"preset": "dos-jugadores", "players": 2, "seed": 11}
    game = runtime.request("POST", "/games", body, token=ana)[2]["id"]
    still = runtime.request("POST", "/games", body, token=ana)[2]["id"]  # never changes
    assert runtime.request("POST", f"/games/{game}/join", {}, token=ben)[0] == 200
    held = runtime.request("GET", f"/games/{game}", token=ana)[2]["version"]
    last_n = max(
        [0]
        + [m["n"] for m in runtime.request("GET", f"/games/{game}/moves", token=ana)[2]["moves"]]
    )
    for _ in range(3):  # three changes while ana's phone is away
        on_turn = runtime.request("GET", f"/games/{game}", token=ana)[2]["turn"]
        token = (
            ana
            if on_turn == runtime.request("GET", f"/games/{game}", token=ana)[2]["you"]["seat"]
            else ben
        )
        you = runtime.request("GET", f"/games/{game}", token=token)[2]["you"]
        action, move = (
            ("play", you["legal"][0])
            if you["legal"]
            else ("draw" if you["can_draw"] else "pass", {})
        )
        assert runtime.request("POST", f"/games/{game}/{action}", move, token=token)[0] == 200
    now = runtime.request("GET", f"/games/{game}", token=ana)[2]
    assert now["version"] >= held + 3
    # ben's socket told of the last change: the notifier is done with it, ana's phone too
    receive(ben_ws, lambda ms: any(m["version"] == now["version"] for m in ms))
    ws = sockets(ws_url(runtime, ana))
    wait_for_connections(runtime, ana_id, 1)
    ws.send(json.dumps({"action": "resume", "games": {game: held, still: 1}}))
    (message,) = receive(ws, lambda ms: len(ms) == 1)  # the unchanged game gets none
    assert message["game"] == game and message["version"] == now["version"]
    assert message["view"] == now and message["notification"] is None
    # the moves made since the version held, as GET /games/{id}/moves lists them to ana
    since = runtime.request("GET", f"/games/{game}/moves?after={last_n}", token=ana)[2]["moves"]
    assert len(since) >= 3 and message["moves"] == since
    ws.send(json.dumps({"action": "resume", "games": {"not a game": "x"}}))
    errors = receive(ws, lambda ms: any(m["type"] == "error" for m in ms))
    assert "at most 100 game ids" in errors[-1]["message"]
