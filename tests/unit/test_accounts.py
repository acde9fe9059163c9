"""The caller's account (service/accounts.py) on the in-memory stores: the name a player
chooses and where it shows, the tombstone that outlives a deleted account's tokens, and
deletion, with the stack's user pool played by moto's Cognito (moto only for Cognito)."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from domino.idp.cognito import CognitoUsers
from domino.service.accounts import Accounts
from domino.service.devices import Devices
from domino.service.errors import AccountDeleted
from domino.service.facade import GameService
from domino.service.values import (
    LEAVE,
    Caller,
    ChangeName,
    MakeMove,
    NewGame,
    RegisterDevice,
    TakeSeat,
)
from moto import mock_aws

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryAccounts, MemoryDevices, MemoryGameStore

T0 = 1_800_000_000  # when the accounts' clock says the deletions happen
ALICE = Caller("alice", "Alice", issued_at=T0 - 60)
BOB = Caller("bob", "Bob", issued_at=T0 - 60)


class FakePush:
    """A ``PushGateway`` that remembers the endpoints it made and deleted."""

    def __init__(self) -> None:
        self.deleted: list[str] = []

    def offered(self, platform: str) -> bool:
        return True

    def register(self, platform: str, token: str, player: str, endpoint: str | None) -> str:
        return endpoint or f"arn:endpoint/{player}/{token}"

    def delete(self, endpoint: str) -> None:
        self.deleted.append(endpoint)

    def exists(self, endpoint: str) -> bool:
        return endpoint not in self.deleted

    def publish(self, endpoint: str, message: Any, collapse: str | None = None) -> bool:
        return True


class World:
    def __init__(self, identity: Any = None) -> None:
        self.store = MemoryGameStore()
        self.device_store = MemoryDevices()
        self.profiles = MemoryAccounts(self.store, self.device_store)
        self.service = GameService(self.store, dev_mode=True, accounts=self.profiles)
        self.push = FakePush()
        self.devices = Devices(self.device_store, self.push, accounts=self.profiles)
        self.accounts = Accounts(
            self.profiles,
            self.service.commands,
            self.device_store,
            self.push,
            identity,
            clock=lambda: T0,
        )


@pytest.fixture
def world() -> World:
    return World()


def test_the_chosen_name_is_shown_from_then_on(world: World) -> None:
    commands = world.service.commands
    assert world.accounts.me(ALICE) == {
        "player": "alice",
        "name": "Alice",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    before = commands.create(ALICE, NewGame("dos-jugadores", 2)).game_id
    assert world.accounts.change_name(ALICE, ChangeName("Alicia")) == {
        "player": "alice",
        "name": "Alicia",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    assert world.accounts.me(ALICE)["name"] == "Alicia"
    after = commands.create(ALICE, NewGame("dos-jugadores", 2))
    assert after.view["seats"][0]["name"] == "Alicia"
    # a seat taken before keeps its name; a name given for one game wins over the profile's
    assert world.service.queries.get(ALICE, before).view["seats"][0]["name"] == "Alice"
    assert commands.create(ALICE, NewGame("dos-jugadores", 2, name="Ali")).view["seats"][0][
        "name"
    ] == ("Ali")
    world.accounts.change_name(BOB, ChangeName("Roberto"))
    joined = commands.join(BOB, after.game_id, TakeSeat(), None)
    assert [s["name"] for s in joined.view["seats"]] == ["Alicia", "Roberto"]


def test_deletion_leaves_games_as_a_leave_does_and_removes_the_rest(world: World) -> None:
    commands = world.service.commands
    waiting = commands.create(ALICE, NewGame("clasico", 3)).game_id
    commands.join(BOB, waiting, TakeSeat(), None)
    playing = commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL)).game_id
    commands.join(BOB, playing, TakeSeat(), None)
    commands.move(BOB, playing, MakeMove("play", "6-6"), None)
    finished = commands.create(ALICE, NewGame("dos-jugadores", 2, bots=1, seed=3)).game_id
    commands.leave(ALICE, finished, LEAVE, None)  # over: the bot played it out
    world.devices.register(ALICE, "phone", RegisterDevice("apns", "tok"))
    world.accounts.change_name(ALICE, ChangeName("Alicia"))

    world.accounts.delete(ALICE)

    queries = world.service.queries
    seats = queries.get(BOB, waiting).view["seats"]
    assert seats[0]["player"] is None and seats[1]["player"] == "bob"  # the seat is free
    game = queries.get(BOB, playing).view
    assert game["seats"][0]["bot"] and game["seats"][0]["player"] == "alice"
    assert game["status"] == "playing"  # bob plays on against the bot
    log = queries.moves(BOB, playing, 0).moves
    assert {"seat": 0, "action": "leave"}.items() <= next(
        m for m in log if m["action"] == "leave"
    ).items()
    assert queries.get(ALICE, finished).view["status"] == "finished"  # history stays
    assert world.profiles.game_ids("alice") == []
    assert world.device_store.of_player("alice") == []
    assert world.push.deleted == ["arn:endpoint/alice/tok"]
    profile = world.profiles.profile("alice")
    assert profile is not None and profile.name is None and profile.deleted_at == T0
    # bob is as he was
    assert set(world.profiles.game_ids("bob")) == {waiting, playing}

    world.accounts.delete(ALICE)  # again: nothing left to do, no error


def test_a_token_older_than_the_deletion_brings_nothing_back(world: World) -> None:
    world.accounts.delete(ALICE)
    game = world.service.commands.create(BOB, NewGame("dos-jugadores", 2)).game_id
    refused = [
        lambda: world.accounts.me(ALICE),
        lambda: world.accounts.change_name(ALICE, ChangeName("Alicia")),
        lambda: world.service.commands.create(ALICE, NewGame("dos-jugadores", 2)),
        lambda: world.service.commands.create(ALICE, NewGame("dos-jugadores", 2, name="A")),
        lambda: world.service.commands.join(ALICE, game, TakeSeat(name="A"), None),
        lambda: world.devices.register(ALICE, "phone", RegisterDevice("apns", "tok")),
    ]
    for attempt in refused:
        with pytest.raises(AccountDeleted) as refusal:
            attempt()
        assert refusal.value.code == "unauthorized"
    # a token without iat counts as older
    with pytest.raises(AccountDeleted):
        world.accounts.me(ALICE._replace(issued_at=None))
    # signing in again (a token issued after the deletion) starts afresh
    again = ALICE._replace(issued_at=T0 + 5)
    assert world.accounts.me(again) == {
        "player": "alice",
        "name": "Alice",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }
    assert world.service.commands.join(again, game, TakeSeat(), None).view["status"] == "playing"
    world.accounts.change_name(again, ChangeName("Alicia"))
    assert world.accounts.me(again)["name"] == "Alicia"


@pytest.fixture
def pool() -> Any:
    """moto's Cognito with a user pool of its own holding alice's user.

    moto's in-process backends are shared with the moto server the ``sns`` fixture runs in
    this same process (a pytest-xdist worker may hold both): a mock that reset them on start or
    stop would wipe that server's push platforms under another test file, so this one leaves
    them be, and a fresh pool per test keeps the tests apart."""
    mock = mock_aws()
    mock.start(reset=False)
    try:
        client = boto3.client("cognito-idp", region_name="us-east-1")
        pool_id = client.create_user_pool(PoolName="domino")["UserPool"]["Id"]
        client.admin_create_user(UserPoolId=pool_id, Username="alice-user")
        yield client, pool_id
    finally:
        mock.stop(remove_data=False)


def users(client: Any, pool_id: str) -> list[str]:
    return [u["Username"] for u in client.list_users(UserPoolId=pool_id)["Users"]]


def test_the_stack_pools_user_is_deleted(pool: Any) -> None:
    client, pool_id = pool
    identity = CognitoUsers(pool_id)
    assert identity.issuer == f"https://cognito-idp.us-east-1.amazonaws.com/{pool_id}"
    world = World(identity)
    caller = ALICE._replace(issuer=identity.issuer, username="alice-user")
    world.accounts.delete(caller)
    assert users(client, pool_id) == []
    world.accounts.delete(caller)  # the user is gone already: still fine


def test_another_issuers_user_is_not_touched(pool: Any) -> None:
    client, pool_id = pool
    world = World(CognitoUsers(pool_id))
    other = ALICE._replace(issuer="https://accounts.example.com", username="alice-user")
    world.accounts.delete(other)
    assert users(client, pool_id) == ["alice-user"]
    assert world.profiles.profile("alice") is not None  # the rest of the deletion happened


def test_deletion_declines_the_seats_reserved_for_the_player(world: World) -> None:
    commands = world.service.commands
    game = commands.create(BOB, NewGame("dos-jugadores", 2, invite=["alice"])).game_id
    assert world.service.queries.get(BOB, game).view["seats"][1]["invited"] is True
    world.accounts.delete(ALICE)
    seat = world.service.queries.get(BOB, game).view["seats"][1]
    assert (seat["player"], seat["invited"]) == (None, False)
