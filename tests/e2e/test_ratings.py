"""Ratings over HTTP on the local runtime (docs/api.md#ratings): GET /players/{id},
GET /leaderboards/{pool} and /me, dev mode's POST /dev/rating, a rated match finished through
the stream, a deleted player leaving the leaderboard, and every error case."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.api_helpers import Table, etag
from tests.e2e.test_api import DEAL

pytestmark = pytest.mark.e2e

WITHIN = 20  # seconds the stream may take to rate a finished match


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:8]}"


def set_rating(rt: Runtime, player: str, pool: str, shown: int, games: int | None = None) -> None:
    """A rating that shows ``shown`` (sigma 1: shown = 1000 + 40 (mu - 3))."""
    body: dict[str, Any] = {"player": player, "pool": pool, "mu": (shown - 1000) / 40 + 3}
    body["sigma"] = 1.0
    if games is not None:
        body["games"] = games
    status, _, answer = rt.request("POST", "/dev/rating", body)
    assert status == 204, answer
    assert answer is None


def board(rt: Runtime, token: str, pool: str, query: str = "") -> dict[str, Any]:
    status, _, body = rt.request("GET", f"/leaderboards/{pool}{query}", token=token)
    assert status == 200, body
    return dict(body)


def test_the_leaderboard_ranks_dev_ratings_and_answers_304(runtime: Runtime) -> None:
    pool = "cruzado:4"
    viewer = runtime.token(unique("viewer"))
    people = [unique(n) for n in ("ana", "ben", "cy", "dee")]
    for player, shown in zip(people, (1700, 1400, 1700, 1100), strict=True):
        set_rating(runtime, player, pool, shown)
    provisional = unique("new")
    set_rating(runtime, provisional, pool, 1900, games=4)
    mine = {row["player"]: row for row in board(runtime, viewer, pool, "?limit=100")["players"]}
    assert provisional not in mine
    assert [mine[p]["rank"] for p in people] == [1, 3, 1, 4]
    assert [mine[p]["rating"] for p in people] == [1700, 1400, 1700, 1100]
    assert all(mine[p]["games"] == 10 and mine[p]["name"] == p for p in people)
    # paging: two rows a page, ranks carried across pages
    first = board(runtime, viewer, pool, "?limit=2")
    assert [row["rank"] for row in first["players"]] == [1, 1] and first["next"]
    second = board(runtime, viewer, pool, f"?limit=2&cursor={first['next']}")
    assert second["players"][0]["rank"] == 3
    # the colon percent-encoded is the same pool; the ETag answers 304
    status, headers, body = runtime.request(
        "GET", "/leaderboards/cruzado%3A4?limit=2", token=viewer
    )
    assert status == 200 and body == first and etag(headers)
    status, _, empty = runtime.request(
        "GET",
        "/leaderboards/cruzado:4?limit=2",
        token=viewer,
        headers={"If-None-Match": etag(headers) or ""},
    )
    assert status == 304 and empty is None
    # /me: a token per player
    ben = runtime.token(people[1])
    status, headers, me = runtime.request("GET", f"/leaderboards/{pool}/me", token=ben)
    assert status == 200, me
    assert me["rank"] == 3 and me["rating"] == 1400 and me["provisional"] is False
    assert me["games"] == 10 and me["pool"] == pool
    assert 0 <= me["percentile"] <= 100
    status, _, _ = runtime.request(
        "GET", f"/leaderboards/{pool}/me", token=ben, headers={"If-None-Match": etag(headers)}
    )
    assert status == 304
    new = runtime.request("GET", f"/leaderboards/{pool}/me", token=runtime.token(provisional))[2]
    assert new == {
        "pool": pool,
        "rating": 1900,
        "games": 4,
        "provisional": True,
        "rank": None,
        "percentile": None,
    }
    profile = runtime.request("GET", f"/players/{people[0]}", token=viewer)[2]
    assert profile["ratings"] == [{"pool": pool, "rating": 1700, "games": 10, "provisional": False}]
    assert profile["stats"] == {"matches": 0, "wins": 0, "forfeits": 0}


def test_a_deleted_player_leaves_the_leaderboard_and_the_percentiles(runtime: Runtime) -> None:
    pool = "cruzado:5"
    stay, leave = unique("stay"), unique("leave")
    set_rating(runtime, stay, pool, 1500)
    set_rating(runtime, leave, pool, 1200)
    stay_token, leave_token = runtime.token(stay), runtime.token(leave)
    before = runtime.request("GET", f"/leaderboards/{pool}/me", token=stay_token)[2]
    assert before["rank"] == 1 and before["percentile"] > 0  # leave is below
    assert runtime.request("GET", f"/players/{leave}", token=stay_token)[0] == 200
    assert runtime.request("DELETE", "/me", token=leave_token)[0] == 204
    rows = board(runtime, stay_token, pool)["players"]
    assert leave not in {row["player"] for row in rows}
    after = runtime.request("GET", f"/leaderboards/{pool}/me", token=stay_token)[2]
    assert after["rank"] == 1 and after["percentile"] < before["percentile"]
    status, _, body = runtime.request("GET", f"/players/{leave}", token=stay_token)
    assert status == 404 and body["error"]["code"] == "not_found"


def rated_table(rt: Runtime) -> tuple[Table, str, str]:
    """A dos-jugadores single-hand match of two people, marked rated in the store (what the
    quick matcher's ranked game is), dealt and ready to play."""
    alice, bob = unique("alice"), unique("bob")
    tokens = rt.token(alice, "Alice"), rt.token(bob, "Bob")
    body = {
        "preset": "dos-jugadores",
        "players": 2,
        "deal": DEAL,
        "seed": 11,
        "rules": {"match": "single", "target": None},
    }
    status, _, view = rt.request("POST", "/games", body, token=tokens[0])
    assert status == 201, view
    client = rt.database()
    key = {"pk": {"S": f"GAME#{view['id']}"}, "sk": {"S": "GAME"}}
    item = client.get_item(TableName="GameTable", Key=key, ConsistentRead=True)["Item"]
    config = {**json.loads(item["cfg"]["S"]), "rated": True}
    client.update_item(
        TableName="GameTable",
        Key=key,
        UpdateExpression="SET cfg = :c",
        ExpressionAttributeValues={":c": {"S": json.dumps(config, separators=(",", ":"))}},
    )
    status, _, joined = rt.request("POST", f"/games/{view['id']}/join", {}, token=tokens[1])
    assert status == 200 and joined["status"] == "playing", joined
    return Table(rt, view["id"], {0: tokens[0], 1: tokens[1]}, version=2), alice, bob


def wait_for_profile(rt: Runtime, token: str, player: str) -> dict[str, Any]:
    deadline = time.monotonic() + WITHIN
    while True:
        status, _, body = rt.request("GET", f"/players/{player}", token=token)
        if status == 200 and body["stats"]["matches"] == 1:
            return dict(body)
        assert time.monotonic() < deadline, (status, body)
        time.sleep(0.2)


def test_a_rated_match_moves_both_ratings_once_through_the_stream(runtime: Runtime) -> None:
    table, alice, bob = rated_table(runtime)
    for _pair in table.play_out():
        pass
    final = table.get(0)
    assert final["status"] == "finished"
    winner_seat = final["result"]["winners"][0]
    players = {0: alice, 1: bob}
    winner, loser = players[winner_seat], players[1 - winner_seat]
    token = table.tokens[0]
    won, lost = wait_for_profile(runtime, token, winner), wait_for_profile(runtime, token, loser)
    assert won["stats"] == {"matches": 1, "wins": 1, "forfeits": 0}
    assert lost["stats"] == {"matches": 1, "wins": 0, "forfeits": 0}
    (won_rating,), (lost_rating,) = won["ratings"], lost["ratings"]
    assert won_rating["pool"] == lost_rating["pool"] == "dos-jugadores:2"
    assert won_rating["games"] == lost_rating["games"] == 1
    assert won_rating["provisional"] and lost_rating["provisional"]
    assert won_rating["rating"] > lost_rating["rating"]
    assert won["name"] in ("Alice", "Bob") and won["since"]
    me = runtime.request("GET", "/leaderboards/dos-jugadores:2/me", token=table.tokens[0])[2]
    assert me["games"] == 1 and me["provisional"] and me["rank"] is None
    time.sleep(1)  # a redelivery or a late retry changes nothing: still one match
    assert wait_for_profile(runtime, token, winner)["ratings"] == [won_rating]


def test_an_unrated_match_counts_stats_but_no_rating(runtime: Runtime) -> None:
    alice, bob = unique("alice"), unique("bob")
    tokens = runtime.token(alice, "Alice"), runtime.token(bob, "Bob")
    body = {
        "preset": "dos-jugadores",
        "players": 2,
        "deal": DEAL,
        "seed": 11,
        "rules": {"match": "single", "target": None},
    }
    status, _, view = runtime.request("POST", "/games", body, token=tokens[0])
    assert status == 201, view
    assert runtime.request("POST", f"/games/{view['id']}/join", {}, token=tokens[1])[0] == 200
    table = Table(runtime, view["id"], {0: tokens[0], 1: tokens[1]}, version=2)
    for _pair in table.play_out():
        pass
    profile = wait_for_profile(runtime, tokens[0], bob)
    assert profile["ratings"] == [] and profile["stats"]["matches"] == 1


# ---------------------------------------------------------------------------- errors


def error_of(answer: tuple[int, dict[str, str], Any]) -> tuple[int, str, Any]:
    status, _, body = answer
    return status, body["error"]["code"], body["error"].get("params", {}).get("fields")


def test_every_ratings_route_wants_a_token(runtime: Runtime) -> None:
    for path in ("/players/alice", "/leaderboards/clasico:4", "/leaderboards/clasico:4/me"):
        assert error_of(runtime.request("GET", path))[:2] == (401, "unauthorized"), path


@pytest.mark.parametrize(
    "pool", ["nope:2", "clasico:9", "clasico", "clasico:04", "dos-jugadores:3", "x" * 70]
)
def test_an_unknown_pool_is_invalid_request(runtime: Runtime, pool: str) -> None:
    token = runtime.token(unique("caller"))
    for path in (f"/leaderboards/{pool}", f"/leaderboards/{pool}/me"):
        assert error_of(runtime.request("GET", path, token=token)) == (
            400,
            "invalid_request",
            ["pool"],
        ), path


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?limit=0", "query.limit"),
        ("?limit=101", "query.limit"),
        ("?limit=x", "query.limit"),
        ("?cursor=bm9wZQ", None),
        ("?cursor=" + "a" * 600, "query.cursor"),
    ],
)
def test_a_bad_page_is_invalid_request(runtime: Runtime, query: str, field: str | None) -> None:
    token = runtime.token(unique("caller"))
    status, code, fields = error_of(
        runtime.request("GET", f"/leaderboards/clasico:4{query}", token=token)
    )
    assert (status, code) == (400, "invalid_request")
    if field is not None:
        assert fields == [field]


def test_an_unknown_or_overlong_player(runtime: Runtime) -> None:
    token = runtime.token(unique("caller"))
    assert error_of(runtime.request("GET", f"/players/{unique('nobody')}", token=token))[:2] == (
        404,
        "not_found",
    )
    # a player who only holds a token is not known until they take a seat or set a name
    seated = unique("seated")
    assert runtime.request("GET", f"/players/{seated}", token=token)[0] == 404
    body = {"preset": "dos-jugadores", "players": 2}
    assert runtime.request("POST", "/games", body, token=runtime.token(seated, "Sea"))[0] == 201
    status, _, profile = runtime.request("GET", f"/players/{seated}", token=token)
    assert status == 200, profile
    assert profile["stats"] == {"matches": 0, "wins": 0, "forfeits": 0}
    assert profile["ratings"] == [] and profile["since"]
    # an id no player can have (over 255 characters) is no player either
    assert runtime.request("GET", "/players/" + "x" * 300, token=token)[0] == 404


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"pool": "clasico:4", "mu": 25, "sigma": 8}, ["player"]),
        ({"player": "p", "pool": "clasico:4", "mu": "25", "sigma": 8}, ["mu"]),
        ({"player": "p", "pool": "clasico:4", "mu": 25, "sigma": True}, ["sigma"]),
        ({"player": "p", "pool": "clasico:4", "mu": 25, "sigma": 8, "x": 1}, ["x"]),
        ({"player": "p", "pool": "clasico:4", "mu": 25, "sigma": 8, "games": -1}, ["games"]),
        ({"player": 7, "pool": "clasico:4", "mu": 25, "sigma": 8}, ["player"]),
        ({"player": "p", "pool": "nope:4", "mu": 25, "sigma": 8}, ["pool"]),
        ({"player": "p", "pool": "clasico:4", "mu": 1e9, "sigma": 8}, ["mu"]),
        ({"player": "p", "pool": "clasico:4", "mu": 25, "sigma": 0}, ["sigma"]),
        ({"player": "x" * 300, "pool": "clasico:4", "mu": 25, "sigma": 8}, ["player"]),
    ],
)
def test_a_bad_dev_rating_is_invalid_request_and_changes_nothing(
    runtime: Runtime, body: dict[str, Any], fields: list[str]
) -> None:
    player = unique("p")
    if body.get("player") == "p":
        body = {**body, "player": player}
    assert error_of(runtime.request("POST", "/dev/rating", body)) == (
        400,
        "invalid_request",
        fields,
    )
    token = runtime.token(unique("caller"))
    assert runtime.request("GET", f"/players/{player}", token=token)[0] == 404


def test_a_dev_rating_body_that_is_not_an_object(runtime: Runtime) -> None:
    for raw in (b"{", b"[1]", b"null"):
        status, code, _ = error_of(runtime.request("POST", "/dev/rating", raw))
        assert (status, code) == (400, "invalid_request"), raw
    status, _, body = runtime.request("GET", "/dev/rating")
    assert status == 404 and body["error"]["code"] == "not_found"
