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
from domino.api import http
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
        self.accounts = http.account_store()
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
    store = http.service().store
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
