"""Races around an account on DynamoDB Local (issue 20, item 5): ``DELETE /me`` against the
same token's ``POST /games`` and ``POST /games/{id}/join`` (no game may keep a deleted player),
and two accounts registering one phone's push token (a device belongs to one player at a time;
deleting it never silences another's registration).

Each race is real concurrency: threads sharing the handlers' service and store (the local
runtime's way), one racer held at the point where today's code lost, bounded in time, or forked
processes through the handlers (tests/integration/test_concurrency.py's ``race``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
from domino.api import wiring
from domino.service.commands import GameCommands
from domino.service.errors import AccountDeleted
from domino.service.values import Caller, NewGame, TakeSeat
from domino.store.accounts import Profile

from tests.integration.client import Api
from tests.integration.test_accounts import items_of
from tests.integration.test_concurrency import race

pytestmark = pytest.mark.ddb

#: the longest a held racer waits for the other
HOLD_SECONDS = 20


class HeldProfiles:
    """The accounts store, whose ``profile`` read (the command's first look at the tombstone)
    returns only once ``release`` is set: the deletion runs whole in between."""

    def __init__(self, release: threading.Event) -> None:
        self.accounts = wiring.account_store()
        self.release = release
        self.read = threading.Event()

    def profile(self, player: str) -> Profile | None:
        found = self.accounts.profile(player)
        self.read.set()
        assert self.release.wait(HOLD_SECONDS), "the deletion never finished"
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self.accounts, name)


def held_commands(release: threading.Event) -> tuple[GameCommands, HeldProfiles]:
    profiles = HeldProfiles(release)
    store = wiring.service().store
    commands = GameCommands(store, dev_mode=True, accounts=profiles)  # type: ignore[arg-type]
    return commands, profiles


def delete_while_held(
    api: Api, player: str, command: Callable[[GameCommands, Caller], Any]
) -> BaseException | Any:
    """Run ``command`` for ``player`` (a token issued a minute ago) on a thread; once it has
    read the profile, delete the account (the whole of ``DELETE /me``), then let it go on.
    Returns what the command returned or raised."""
    release = threading.Event()
    commands, profiles = held_commands(release)
    caller = Caller(player, player.capitalize(), issued_at=int(time.time()) - 60)

    def run() -> Any:
        try:
            return command(commands, caller)
        except Exception as err:  # the outcome is what the test looks at
            return err

    with ThreadPoolExecutor(1) as pool:
        outcome = pool.submit(run)
        assert profiles.read.wait(HOLD_SECONDS)
        try:
            assert (
                api.call(
                    "DELETE", "/me", player=player, claims={"iat": str(caller.issued_at)}
                ).status
                == 204
            )
        finally:
            release.set()
        return outcome.result(timeout=HOLD_SECONDS)


def test_a_create_racing_delete_me_seats_no_deleted_player(api: Api) -> None:
    """The create read no tombstone, then the deletion ran whole (and found no game of hers):
    the create's write must fail (401), not leave her seated in a public waiting game."""
    player = "race-del-create"
    outcome = delete_while_held(
        api, player, lambda commands, caller: commands.create(caller, NewGame("dos-jugadores", 2))
    )
    assert isinstance(outcome, AccountDeleted), outcome
    assert items_of(player) == ["PROFILE"]  # no membership: no game seats her
    listed = api.call("GET", "/games?status=waiting", player="stranger").ok()["games"]
    assert all(player not in [s.get("player") for s in g.get("seats", [])] for g in listed)


def test_a_join_racing_delete_me_seats_no_deleted_player(api: Api) -> None:
    game = api.create("race-host", preset="clasico", players=4).ok(201)["id"]
    player = "race-del-join"
    outcome = delete_while_held(
        api, player, lambda commands, caller: commands.join(caller, game, TakeSeat(), None)
    )
    assert isinstance(outcome, AccountDeleted), outcome
    seats = [s["player"] for s in api.get(game, "race-host").ok()["seats"]]
    assert player not in seats and seats[0] == "race-host"
    assert items_of(player) == ["PROFILE"]


class LateItems:
    """The game store as DynamoDB Local interleaves a create or a join with ``DELETE /me``: the
    write's alive check passes before the tombstone, the whole deletion runs (its looks for
    memberships find none), and only then do the write's items land. Played out in order: the
    deletion first, then the write without its check."""

    def __init__(self, delete: Callable[[], None]) -> None:
        self.store = wiring.service().store
        self.delete = delete

    def create(self, record: Any, *, token_issued: int | None = None) -> None:
        self.delete()
        self.store.create(record, token_issued=None)

    def save(self, record: Any, expected: int, **kwargs: Any) -> None:
        if kwargs.get("join"):
            self.delete()
            kwargs["token_issued"] = None
        self.store.save(record, expected, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest.mark.parametrize("write", ["create", "join"])
def test_items_landing_after_the_deletions_looks_leave_the_seat_they_took(
    api: Api, write: str
) -> None:
    """The writer's side of the race (GameCommands._leave_if_deleted): once its items are in,
    it reads the profile; a tombstone there means the deletion may have looked too early, so
    the writer leaves the seat itself and is refused (401)."""
    player = f"late-items-{write}"
    issued = int(time.time()) - 60
    game = api.create("late-host", preset="clasico", players=4).ok(201)["id"]

    def delete() -> None:
        assert api.call("DELETE", "/me", player=player, claims={"iat": str(issued)}).status == 204

    store = LateItems(delete)
    commands = GameCommands(store, dev_mode=True, accounts=wiring.account_store())  # type: ignore[arg-type]
    caller = Caller(player, player.capitalize(), issued_at=issued)
    with pytest.raises(AccountDeleted):
        if write == "create":
            commands.create(caller, NewGame("dos-jugadores", 2))
        else:
            commands.join(caller, game, TakeSeat(), None)
    if write == "join":
        seats = [s["player"] for s in api.get(game, "late-host").ok()["seats"]]
        assert player not in seats and seats[0] == "late-host"
    listed = api.call("GET", "/games?status=waiting", player="stranger").ok()["games"]
    assert all(player not in [s.get("player") for s in g.get("seats", [])] for g in listed)


def test_creates_racing_delete_me_in_processes_leave_no_deleted_player_seated(api: Api) -> None:
    """Forked processes through the handlers, DELETE /me against two POST /games of the same
    token, released together: whatever a create answered, no game seats the deleted player."""
    claims = {"iat": str(int(time.time()) - 60)}
    for round_number in range(4):
        player = f"race-del-{round_number}"
        body = {"preset": "dos-jugadores", "players": 2}
        create = partial(api.call, "POST", "/games", body, player=player, claims=claims)
        delete = partial(api.call, "DELETE", "/me", player=player, claims=claims)
        results = race([create, delete, create])
        assert results[1][0] == 204, results
        for status, reply in (results[0], results[2]):
            assert status in (201, 401), (status, reply)
            if status == 201:  # created before the tombstone: the deletion left it
                view = api.get(reply["id"], "stranger").ok()
                assert player not in [s["player"] for s in view["seats"]], view
        assert items_of(player) == ["PROFILE"]


# ------------------------------------------------------------ one phone, two accounts


def register(api: Api, player: str, device: str, token: str) -> Any:
    body = {"platform": "apns", "token": token}
    return api.call("PUT", f"/me/devices/{device}", body, player=player)


def holders(players: list[str], token: str) -> list[str]:
    """The players with a device registered for ``token``."""
    store = wiring.device_store()
    return [p for p in players if any(d.token == token for d in store.of_player(p))]


def pushed(sns: Any, token: str, game: str) -> list[dict[str, Any]]:
    """What reached the phone of ``token`` about ``game``."""
    return [
        p for p in sns.pushes() if p["token"] == token and (p["payload"] or {}).get("game") == game
    ]


def a_join_notifies(api: Api, host: str) -> str:
    """A game ``host`` created that someone joined: ``host`` is notified (player_joined)."""
    game = api.create(host, preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(game, f"{host}-guest").ok()
    api.drain()
    return game


def test_one_phone_belongs_to_the_account_that_registered_it_last(api: Api, sns: Any) -> None:
    """Ana and then Beto sign in on one phone: it is Beto's (Ana's registration goes, her
    games no longer reach it); Ana signs in again: it is hers, and Beto's removing his device
    (which he no longer has) does not silence her."""
    token, ana, beto = "apns-shared-phone", "phone-ana", "phone-beto"
    assert register(api, ana, "ana-app", token).status == 204
    assert register(api, beto, "beto-app", token).status == 204
    assert holders([ana, beto], token) == [beto]
    game = a_join_notifies(api, ana)
    assert pushed(sns, token, game) == []  # Beto's phone is not told of Ana's games
    assert register(api, ana, "ana-app", token).status == 204
    assert holders([ana, beto], token) == [ana]
    assert api.call("DELETE", "/me/devices/beto-app", player=beto).status == 204
    game = a_join_notifies(api, ana)
    assert "player_joined" in [p["payload"]["type"] for p in pushed(sns, token, game)]


def test_two_accounts_registering_one_phone_at_once_leave_one_owner(api: Api, sns: Any) -> None:
    """Forked processes through the handlers: both accounts register the phone at once; then
    the one that lost registers it again while the winner removes theirs, at once. Each time
    one account holds the phone, and the last registrant's games reach it."""
    for round_number in range(3):
        token = f"apns-raced-phone-{round_number}"
        ana, beto = f"race-ana-{round_number}", f"race-beto-{round_number}"
        results = race([partial(register, api, ana, "app", token),
                        partial(register, api, beto, "app", token)])  # fmt: skip
        assert [status for status, _ in results] == [204, 204], results
        (winner,) = holders([ana, beto], token)
        loser = beto if winner == ana else ana
        results = race([partial(register, api, loser, "app", token),
                        partial(api.call, "DELETE", "/me/devices/app", player=winner)])  # fmt: skip
        assert [status for status, _ in results] == [204, 204], results
        assert holders([ana, beto], token) == [loser]
        game = a_join_notifies(api, loser)
        assert "player_joined" in [p["payload"]["type"] for p in pushed(sns, token, game)]


def test_a_device_item_caught_with_its_key_alone_is_read_again_then_taken_for_none(
    api: Api,
) -> None:
    """DynamoDB Local once answered the race above's ``DELETE /me/devices`` with a device item
    a transaction was writing, its key alone (a 500). ``get`` reads it again until it is whole,
    and takes one that stays a key for no device; the queries skip it."""
    from domino.store.devices import Device, _key, _token_key
    from domino.store.reach import DynamoReach

    table, devices = wiring.table(), wiring.device_store()
    player = "partial-device-owner"
    whole = Device(player, "app", "apns", "apns-partial-token", "arn:endpoint", None, 7)
    table.client.put_item(TableName=table.name, Item=_key(player, "app"))
    writer = threading.Timer(0.03, devices.put, args=(whole,))
    writer.start()
    assert devices.get(player, "app") == whole  # read again until the writer's put landed
    writer.join()
    table.client.put_item(TableName=table.name, Item=_key(player, "app"))
    assert devices.get(player, "app") is None
    assert devices.of_player(player) == []
    assert DynamoReach(table).of_player(player, 0).devices == []
    owner_key = _token_key("apns", "apns-partial-token")
    table.client.put_item(TableName=table.name, Item=owner_key)
    assert devices.owner("apns", "apns-partial-token") is None  # a claim on it would be refused
    whole_owner = {**owner_key, "player": {"S": player}, "device": {"S": "app"},
                   "endpoint": {"S": "arn:endpoint"}}  # fmt: skip
    table.client.delete_item(TableName=table.name, Key=owner_key)
    table.client.put_item(TableName=table.name, Item=owner_key)
    # the writer starts once the key alone is in place: these two requests used to run after
    # it started and, when they outlasted its 0.03 s, undid the whole item it had written
    writer = threading.Timer(0.03, table.client.put_item, kwargs={"TableName": table.name,
                                                                 "Item": whole_owner})  # fmt: skip
    writer.start()
    assert devices.owner("apns", "apns-partial-token") == (player, "app", "arn:endpoint")
    writer.join()
