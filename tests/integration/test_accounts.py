"""Accounts through the handlers on DynamoDB Local: PATCH and GET /me, the chosen name in seats
taken afterwards, bad names, and DELETE /me (games left as a leave leaves them, devices and
their SNS endpoints, inbox, connections and profile removed, other players unaffected, the
stack's user pool's user deleted: moto's Cognito on the test session's moto server)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from domino.api import settings, wiring
from domino.store.records import player_key

from tests.integration.client import DOS_DEAL, Api

pytestmark = pytest.mark.ddb

#: a token issued a minute ago (before any deletion a test makes)
OLD = {"iat": str(int(time.time()) - 60)}


def me(api: Api, player: str, **claims: str) -> Any:
    return api.call("GET", "/me", player=player, claims=claims or None)


def rename(api: Api, player: str, body: Any, **kwargs: Any) -> Any:
    return api.call("PATCH", "/me", body, player=player, **kwargs)


def delete(api: Api, player: str, claims: dict[str, str] | None = None) -> Any:
    return api.call("DELETE", "/me", player=player, claims=claims)


def items_of(player: str) -> list[str]:
    """The sort keys of every item in the player's partition."""
    table = wiring.table()
    response = table.client.query(
        TableName=table.name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": player_key(player)}},
        ConsistentRead=True,
    )
    return sorted(item["sk"]["S"] for item in response["Items"])


def test_the_chosen_name_shows_in_me_and_in_seats_taken_afterwards(api: Api) -> None:
    assert me(api, "acc-ana").ok() == {
        "player": "acc-ana",
        "name": "Acc-ana",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    before = api.create("acc-ana", preset="dos-jugadores", players=2).ok(201)["id"]
    assert rename(api, "acc-ana", {"name": "  Ana María 🂡  "}).ok() == {
        "player": "acc-ana",
        "name": "Ana María 🂡",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    assert me(api, "acc-ana").ok()["name"] == "Ana María 🂡"
    created = api.create("acc-ana", preset="dos-jugadores", players=2).ok(201)
    assert created["seats"][0]["name"] == "Ana María 🂡"
    assert rename(api, "acc-ben", {"name": "Benito"}).ok()["name"] == "Benito"
    joined = api.join(created["id"], "acc-ben").ok()
    assert [s["name"] for s in joined["seats"]] == ["Ana María 🂡", "Benito"]
    assert api.get(before, "acc-ana").ok()["seats"][0]["name"] == "Acc-ana"  # taken before
    # a name given for one game still wins there
    named = api.create("acc-ana", preset="dos-jugadores", players=2, name="Ani").ok(201)
    assert named["seats"][0]["name"] == "Ani"
    assert "PROFILE" in items_of("acc-ana")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "x" * 41},
        {"name": 7},
        {"name": None},
        {"name": "Eve\u202eliA"},  # a right-to-left override
        {"name": "two\nlines"},
        {"name": "bell\x07"},
        {"name": "Ana", "player": "someone-else"},
    ],
    ids=repr,
)
def test_a_bad_name_is_refused(api: Api, body: dict[str, Any]) -> None:
    refused = rename(api, "acc-bad", body)
    assert refused.status == 400, refused.body
    assert refused.body["error"]["code"] == "invalid_request"
    assert me(api, "acc-bad").ok()["name"] == "Acc-bad"  # nothing was kept


def test_bad_names_are_refused_in_spanish_too_and_at_the_table(api: Api) -> None:
    refused = rename(api, "acc-bad", {"name": "a\u2066b"}, headers={"Accept-Language": "es"})
    assert refused.body["error"]["params"]["fields"] == ["name"]
    assert refused.body["error"]["message"] == (
        "name no debe tener caracteres de control ni cambios de dirección."
    )
    game = api.call("POST", "/games", {"preset": "dos-jugadores", "players": 2, "name": "a\x00"})
    assert game.status == 400 and game.body["error"]["params"]["fields"] == ["name"]


def test_patch_me_needs_a_token(api: Api) -> None:
    from tests.integration.client import NO_CLAIMS

    assert api.call("PATCH", "/me", {"name": "X"}, player=NO_CLAIMS).status == 401
    assert api.call("DELETE", "/me", player=NO_CLAIMS).status == 401


def test_deleting_an_account(api: Api, sns: Any) -> None:
    # waiting: dora created a three-player game, wes joined; in play: dora against pat, pat
    # led 6-6 and dora is to move; finished: dora left her game against a bot long ago
    waiting = api.create("acc-dora", preset="clasico", players=3).ok(201)["id"]
    api.join(waiting, "acc-wes").ok()
    playing = api.create("acc-dora", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)
    api.join(playing["id"], "acc-pat").ok()
    api.play(playing["id"], "acc-pat", "6-6").ok()
    finished = api.create("acc-dora", preset="dos-jugadores", players=2, bots=1).ok(201)["id"]
    assert api.leave(finished, "acc-dora").ok()["status"] == "finished"
    device = {"platform": "apns", "token": "apns-acc-dora"}
    assert api.call("PUT", "/me/devices/dora-phone", device, player="acc-dora").status == 204
    endpoint = wiring.device_store().get("acc-dora", "dora-phone").endpoint  # type: ignore[union-attr]
    wiring.connection_store().add("acc-dora", "dora-socket", int(time.time()), "es")
    assert rename(api, "acc-dora", {"name": "Dora"}).status == 200
    api.drain()  # the notifier writes dora's inbox: wes joined, the game started, her turn
    inbox = api.call("GET", "/me/notifications", player="acc-dora").ok()["notifications"]
    assert {"player_joined", "your_turn"} <= {n["type"] for n in inbox}
    assert api.call("POST", "/me/notifications/read", {"until": inbox[0]["id"]},
                    player="acc-dora").status == 204  # fmt: skip
    pat_before = api.get(playing["id"], "acc-pat").ok()

    gone = delete(api, "acc-dora", OLD)
    assert (gone.status, gone.body) == (204, None)
    api.drain()

    # the game in play: a bot plays dora's seat, her leave is logged (a forfeit), pat plays on
    game = api.get(playing["id"], "acc-pat").ok()
    assert game["seats"][0]["bot"] and game["seats"][0]["player"] == "acc-dora"
    assert game["status"] == "playing" and game["version"] > pat_before["version"]
    assert any(
        m["action"] == "leave" and m["seat"] == 0
        for m in api.moves(playing["id"], "acc-pat").ok()["moves"]
    )
    # the waiting game: her seat is free again, wes is still there
    seats = api.get(waiting, "acc-wes").ok()["seats"]
    assert [s["player"] for s in seats] == [None, "acc-wes", None]
    # the finished game stays as history
    assert api.get(finished, "acc-wes").ok()["status"] == "finished"
    # nothing of hers is left but the tombstone: no games, inbox, devices or connections
    assert items_of("acc-dora") == ["PROFILE"]
    assert api.call("GET", "/me/games", player="acc-dora").ok()["games"] == []
    assert api.call("GET", "/me/notifications", player="acc-dora").ok() == {
        "notifications": [],
        "unread": 0,
        "next": None,
    }
    assert wiring.device_store().of_player("acc-dora") == []
    assert wiring.connection_store().of_player("acc-dora", int(time.time())) == []
    assert endpoint not in endpoints(sns)
    # the others are as they were
    mine = api.call("GET", "/me/games", player="acc-pat").ok()["games"]
    assert playing["id"] in {g["id"] for g in mine}
    assert waiting in {
        g["id"] for g in api.call("GET", "/me/games", player="acc-wes").ok()["games"]
    }

    # again: 204, nothing to do
    assert delete(api, "acc-dora", OLD).status == 204
    assert items_of("acc-dora") == ["PROFILE"]


def endpoints(sns: Any) -> set[str]:
    client = boto3.client("sns", endpoint_url=sns.endpoint, region_name="us-east-1")
    found: set[str] = set()
    for application in sns.applications.values():
        listed = client.list_endpoints_by_platform_application(PlatformApplicationArn=application)
        found |= {e["EndpointArn"] for e in listed["Endpoints"]}
    return found


def test_a_deleted_accounts_token_brings_nothing_back(api: Api) -> None:
    other = api.create("acc-host", preset="dos-jugadores", players=2).ok(201)["id"]
    assert delete(api, "acc-gone", OLD).status == 204
    refused = [
        me(api, "acc-gone", **OLD),
        rename(api, "acc-gone", {"name": "Back"}, claims=OLD),
        api.call("POST", "/games", {"preset": "dos-jugadores", "players": 2},
                 player="acc-gone", claims=OLD),
        api.call("POST", f"/games/{other}/join", {"name": "Back"}, player="acc-gone",
                 claims=OLD),
        api.call("PUT", "/me/devices/p", {"platform": "fcm", "token": "t"}, player="acc-gone",
                 claims=OLD),
    ]  # fmt: skip
    for reply in refused:
        assert reply.status == 401, reply.body
        assert reply.body["error"]["code"] == "unauthorized"
    assert items_of("acc-gone") == ["PROFILE"]
    assert delete(api, "acc-gone", OLD).status == 204
    # a token issued after the deletion (signing in again) is a new start
    fresh = {"iat": str(int(time.time()) + 2)}
    assert me(api, "acc-gone", **fresh).ok() == {
        "player": "acc-gone",
        "name": "Acc-gone",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    assert rename(api, "acc-gone", {"name": "Back"}, claims=fresh).ok()["name"] == "Back"
    joined = api.call("POST", f"/games/{other}/join", {}, player="acc-gone", claims=fresh)
    assert joined.ok()["seats"][1]["name"] == "Back"


# ---------------------------------------------------------------------- the user pool


@pytest.fixture
def pool(api: Api, sns: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, str]]:
    """A user pool on the session's moto server (moto only for Cognito), named to the handlers
    as the template names the stack's own pool (COGNITO_USER_POOL_ID)."""
    client = boto3.client("cognito-idp", endpoint_url=sns.endpoint, region_name="us-east-1")
    pool_id = client.create_user_pool(PoolName="domino-test")["UserPool"]["Id"]
    monkeypatch.setenv("AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER", sns.endpoint)
    monkeypatch.setenv("COGNITO_USER_POOL_ID", pool_id)
    settings.settings.cache_clear()
    wiring.accounts.cache_clear()
    try:
        yield client, pool_id
    finally:
        monkeypatch.undo()
        settings.settings.cache_clear()
        wiring.accounts.cache_clear()


def test_the_stack_pools_user_is_deleted_with_the_account(pool: tuple[Any, str], api: Api) -> None:
    client, pool_id = pool
    for user in ("google_1234", "acc-ola"):
        client.admin_create_user(UserPoolId=pool_id, Username=user)
    issuer = f"https://cognito-idp.us-east-1.amazonaws.com/{pool_id}"
    # a federated user: the pool's user name is not the sub
    assert (
        delete(api, "acc-fed", {**OLD, "iss": issuer, "cognito:username": "google_1234"}).status
        == 204
    )
    names = {u["Username"] for u in client.list_users(UserPoolId=pool_id)["Users"]}
    assert names == {"acc-ola"}
    # another issuer's token: the pool is not asked
    other = {**OLD, "iss": "https://login.example.com", "cognito:username": "acc-ola"}
    assert delete(api, "acc-ola", other).status == 204
    names = {u["Username"] for u in client.list_users(UserPoolId=pool_id)["Users"]}
    assert names == {"acc-ola"}
    # the pool's user without cognito:username: the sub names it; gone already is fine too
    assert delete(api, "acc-ola", {**OLD, "iss": issuer}).status == 204
    assert delete(api, "acc-ola", {**OLD, "iss": issuer}).status == 204
    assert client.list_users(UserPoolId=pool_id)["Users"] == []
