"""Faults in front of DynamoDB Local (tests/faults.py): throttling, 5xx, timeouts and resets on
reads and writes, writes whose reply is lost, and a function dying between its write and its
answer. No game is corrupted or half-applied; the client gets 503 ``unavailable`` with
Retry-After (nothing changed), or the answer of the change, applied once.
docs/RELIABILITY.md "Faults" gives the figures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from domino.api import idempotency, wiring
from domino.service.writes import IN_FLIGHT_SECONDS

from tests.faults import NOT_APPLIED, Died, injected, no_backoff
from tests.integration.client import DOS_DEAL, Api, Privileged, Reply
from tests.integration.test_errors import refused, unchanged
from tests.soak import add_random_faults, check_game, play_under_faults

pytestmark = pytest.mark.ddb

GAME_TABLE, KEYS_TABLE = "GameTable", "IdempotencyTable"


@pytest.fixture(autouse=True)
def without_backoff() -> Iterator[None]:
    with no_backoff():
        yield


def clients() -> tuple[Any, ...]:
    """Every DynamoDB client the handlers use: the tables' and Powertools' idempotency layer's."""
    return wiring.table().client, idempotency._records()[1].client


@pytest.fixture
def duel(api: Api) -> str:
    """dos-jugadores dealt DOS_DEAL at version 2: bob (seat 1) must lead 6-6; alice holds no 6
    and draws 4-6 first."""
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    return game


def key(name: str) -> dict[str, str]:
    return {"Idempotency-Key": name}


def tiles(view: dict[str, Any]) -> int:
    in_hands = sum(seat["tiles"] for seat in view["seats"])
    return in_hands + len(view["board"]["tiles"]) + view["boneyard"]


# ---------------------------------------------------------------- lost replies


@pytest.mark.parametrize("keyed", [False, True])
def test_a_play_whose_reply_was_lost_is_answered_as_applied(
    api: Api, duel: str, keyed: bool
) -> None:
    """The SDK sends the write again; it fails its condition since the first was applied: the
    item it finds carries this write's token, so the play is answered, not re-applied."""
    headers = key(f"lost-{duel}") if keyed else None
    with injected(*clients()) as faults:
        faults.add("lost_reply", operation="PutItem", table=GAME_TABLE)
        played = api.play(duel, "bob", "6-6", headers=headers)
    assert faults.injected["lost_reply"] == 1
    assert played.ok()["version"] == 3 and played.header("Idempotency-Replayed") is None
    assert [m["tile"] for m in api.moves(duel, "bob").ok()["moves"]] == ["6-6"]


def test_a_draw_whose_reply_was_lost_draws_one_tile(api: Api, duel: str) -> None:
    api.play(duel, "bob", "6-6").ok()
    with injected(*clients()) as faults:
        faults.add("lost_reply", operation="PutItem", table=GAME_TABLE)
        drawn = api.draw(duel, "alice").ok()
    assert faults.injected["lost_reply"] == 1
    assert (drawn["version"], drawn["you"]["drawn"], len(drawn["you"]["hand"])) == (4, "4-6", 8)
    assert drawn["boneyard"] == 14 - 1 - 0 and tiles(drawn) == 28


def test_a_create_and_a_join_whose_replies_were_lost_are_answered_as_applied(api: Api) -> None:
    """Creates and joins are transactions (the game and a membership item)."""
    with injected(*clients()) as faults:
        faults.add("lost_reply", operation="TransactWriteItems")
        game = api.create("gina", preset="dos-jugadores", players=2).ok(201)["id"]
        faults.add("lost_reply", operation="TransactWriteItems")
        joined = api.join(game, "hugo").ok()
    assert faults.injected["lost_reply"] == 2
    assert joined["version"] == 2 and joined["status"] == "playing"
    for player in ("gina", "hugo"):
        mine = api.call("GET", "/me/games", player=player).ok()["games"]
        assert [g["id"] for g in mine] == [game]


def test_every_reply_lost_is_503_and_the_keyed_retry_gets_the_answer(api: Api, duel: str) -> None:
    """The SDK gives up (every attempt's reply lost, the first applied): 503; the retry with
    the same key is answered from the game item, which remembers the key."""
    k = key(f"all-lost-{duel}")
    with injected(*clients()) as faults:
        faults.add("lost_reply", operation="PutItem", table=GAME_TABLE, times=None)
        reply = api.play(duel, "bob", "6-6", headers=k)
    refused(reply, 503, "unavailable")
    assert int(reply.header("Retry-After") or 0) > 0 and faults.injected["lost_reply"] >= 2
    again = api.play(duel, "bob", "6-6", headers=k)
    assert again.ok()["version"] == 3 and again.header("Idempotency-Replayed") == "true"
    assert again.body == api.get(duel, "bob").ok()
    assert len(api.moves(duel, "bob").ok()["moves"]) == 1


# ---------------------------------------------------------------- a function that died


def test_a_function_that_died_after_its_write_is_answered_by_the_keyed_retry(
    api: Api, duel: str
) -> None:
    k = key(f"died-{duel}")
    with injected(*clients()) as faults:
        faults.add("die_after", operation="PutItem", table=GAME_TABLE)
        with pytest.raises(Died):
            api.play(duel, "bob", "6-6", headers=k)
    again = api.play(duel, "bob", "6-6", headers=k)
    assert again.ok()["version"] == 3 and again.header("Idempotency-Replayed") == "true"
    assert again.body == api.get(duel, "bob").ok()  # the answer the dead function never sent
    assert len(api.moves(duel, "bob").ok()["moves"]) == 1


def test_a_function_that_died_before_keeping_the_answer_of_a_draw(
    api: Api, duel: str, dev_clock: Any
) -> None:
    """It died after the game's write, before the answer's record, and the game moved on: while
    the first request could still be keeping its answer a retry is 409 with Retry-After; after
    that, the game as it is now, with the tile drawn (the item remembers the draw)."""
    api.play(duel, "bob", "6-6").ok()
    k = key(f"died-draw-{duel}")
    with injected(*clients()) as faults:
        faults.add("die_after", operation="PutItem", table=GAME_TABLE)
        with pytest.raises(Died):
            api.draw(duel, "alice", headers=k)
    api.play(duel, "alice", "4-6", "left").ok()  # the game moves on
    soon = api.draw(duel, "alice", headers=k)
    refused(soon, 409, "conflict")
    assert soon.header("Retry-After") == "1"
    dev_clock.advance(IN_FLIGHT_SECONDS)
    again = api.draw(duel, "alice", headers=k)
    assert again.ok()["you"]["drawn"] == "4-6" and again.header("Idempotency-Replayed") == "true"
    assert again.body["version"] == 5  # the game now: the answer of version 4 was never kept
    assert [m["action"] for m in api.moves(duel, "bob").ok()["moves"]] == ["play", "draw", "play"]


def test_an_unkeyed_request_whose_function_died_was_applied_once(api: Api, duel: str) -> None:
    """Without a key a retry is a new request (docs/api.md): refused by the rules, never applied
    twice."""
    with injected(*clients()) as faults:
        faults.add("die_after", operation="PutItem", table=GAME_TABLE)
        with pytest.raises(Died):
            api.play(duel, "bob", "6-6")
    refused(api.play(duel, "bob", "6-6"), 422, "not_your_turn")
    assert api.get(duel, "bob").ok()["version"] == 3


# ---------------------------------------------------------------- faults that apply nothing


@pytest.mark.parametrize(
    ("kind", "operation", "table"),
    [
        (kind, operation, table)
        for kind in sorted(NOT_APPLIED)
        for operation, table in (
            ("GetItem", GAME_TABLE),
            ("PutItem", GAME_TABLE),
            ("GetItem", KEYS_TABLE),
        )
    ],
)
def test_a_fault_that_lasts_is_503_and_changes_nothing(
    api: Api, duel: str, kind: str, operation: str, table: str
) -> None:
    k = key(f"{kind}-{operation}-{table}-{duel}")
    with unchanged(api, duel), injected(*clients()) as faults:
        faults.add(kind, operation=operation, table=table, times=None)
        reply = api.play(duel, "bob", "6-6", headers=k)
        refused(reply, 503, "unavailable")
        assert int(reply.header("Retry-After") or 0) > 0
        # the first attempt and the SDK's retries (up to 4, fewer once its retry quota, a
        # token bucket each client refills with successes, runs low)
        assert faults.injected[kind] >= 2
    assert api.play(duel, "bob", "6-6", headers=k).ok()["version"] == 3  # the retry applies it


@pytest.mark.parametrize("kind", sorted(NOT_APPLIED))
def test_a_passing_fault_is_absorbed_by_the_sdk(api: Api, duel: str, kind: str) -> None:
    with injected(*clients()) as faults:
        faults.add(kind, operation="PutItem", table=GAME_TABLE)
        played = api.play(duel, "bob", "6-6")
    assert faults.injected[kind] == 1 and played.ok()["version"] == 3


# ---------------------------------------------------------------- a whole match under faults


def test_a_match_under_random_faults_stays_whole(api: Api, privileged: Privileged) -> None:
    """Two phones play a whole hand of dos-jugadores with every DynamoDB request of every
    function at risk: each fault kind hits 3 % of requests, the function dies after 3 % of its
    writes. Each phone retries its move with the same key on 503 or no answer, as apps do, and
    sends it once more after its answer (as if that answer was lost). After: every move applied
    once, in the order answered, the version up by one per move, every answer to a key the
    same, 28 tiles (tests/soak.py; ``bench/faults.py`` runs it on many games)."""
    single = {"match": "single"}
    game = api.create("ines", preset="dos-jugadores", players=2, rules=single).ok(201)["id"]
    api.join(game, "juan").ok()

    def send(player: str, method: str, path: str, body: Any, headers: Any) -> Reply:
        return api.call(method, path, body, player=player, headers=headers)

    rate = float(os.environ.get("FAULT_RATE", "0.03"))  # another rate or seed: a longer soak
    with injected(*clients(), seed=int(os.environ.get("FAULT_SEED", "11"))) as faults:
        add_random_faults(faults, rate)
        soak = play_under_faults(send, game, ["ines", "juan"])
    assert sum(faults.injected.values()) >= 10, faults.injected  # the faults did happen
    check_game(send, game, "ines", soak, api.moves(game, "ines").ok()["moves"])
    assert soak.broken == []
    assert privileged.record(game).version == 2 + len(soak.applied)
    assert set(soak.statuses) <= {200, 503, "died"}, soak.statuses
