"""Finished hands leave the game item for archive items, written by the stream consumer
(functions/archive) so that the play that ends a hand stays one read + one PutItem."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from domino.store.records import WAITING_TTL_SECONDS

from tests.integration.client import Api, Privileged, requests_to_dynamodb
from tests.integration.table import OUTSIDER

pytestmark = pytest.mark.ddb


def step(api: Api, game: str, players: list[str]) -> tuple[dict[str, Any], Counter[str]]:
    """The seat on turn plays its first legal move, else draws, else passes (no stream);
    returns the view and the DynamoDB operations of that command."""
    turn = api.get(game, OUTSIDER).ok()["turn"]
    player = players[turn]
    you = api.get(game, player).ok()["you"]
    with requests_to_dynamodb() as calls:
        if you["legal"]:
            move = you["legal"][0]
            reply = api.play(game, player, move["tile"], move["end"])
        elif you["can_draw"]:
            reply = api.draw(game, player)
        else:
            reply = api.pass_(game, player)
    return reply.ok(), calls


def new_duel(api: Api, seed: int) -> tuple[str, list[str]]:
    game = api.create("ana", preset="dos-jugadores", players=2, seed=seed).ok(201)["id"]
    api.join(game, "ben").ok()
    return game, ["ana", "ben"]


def test_a_hand_ending_play_is_one_read_and_one_write(api: Api) -> None:
    game, players = new_duel(api, seed=41)
    ended = 0
    while ended < 2:  # from hand 2 on, the hand that ends pushes an older one out of the item
        hand = api.get(game, OUTSIDER).ok()["hand_number"]
        view, calls = step(api, game, players)
        if view["hand_number"] > hand:
            ended += 1
            # one read: the game, and the caller's ban mark with it (api/request.py)
            assert calls == Counter({"BatchGetItem": 1, "PutItem": 1}), calls
    api.drain()
    moves = api.moves(game, OUTSIDER).ok()["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert {1, 2} <= {m["hand_number"] for m in moves} <= {1, 2, 3}  # hand 1 from its archive


def test_old_moves_wait_for_the_consumer_then_come_whole(api: Api) -> None:
    """A hand that left the item before the consumer copied it: 503 with Retry-After (nothing
    is answered with a hole in it), and the whole log once the consumer has run."""
    api.drain()
    game, players = new_duel(api, seed=42)
    while api.get(game, OUTSIDER).ok()["hand_number"] < 3:
        step(api, game, players)
    lagging = api.call("GET", f"/games/{game}/moves?after=0", player="ana")
    assert (lagging.status, lagging.code) == (503, "unavailable")
    assert int(lagging.header("Retry-After") or 0) > 0
    assert api.drain() >= 2  # hands 1 and 2 were marked when they ended
    moves = api.moves(game, "ana").ok()["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert {1, 2} <= {m["hand_number"] for m in moves} <= {1, 2, 3}
    assert api.drain() == 0  # nothing new: a second pass delivers nothing


def test_a_read_waits_a_moment_for_a_consumer_just_behind(api: Api) -> None:
    """The consumer catches up while the read waits: the whole log, no 503."""
    api.drain()
    game, players = new_duel(api, seed=45)
    while api.get(game, OUTSIDER).ok()["hand_number"] < 3:
        step(api, game, players)
    consumer = threading.Timer(0.15, api.drain)
    consumer.start()
    try:
        reply = api.call("GET", f"/games/{game}/moves?after=0", player="ana")
    finally:
        consumer.join()
    moves = reply.ok()["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))


def test_hands_bots_play_within_one_change_are_archived_by_it(
    api: Api, privileged: Privileged
) -> None:
    """Both players leave: bots play the match out inside the last leave. The hands that begin
    and end within that change never reach the stream as a previous hand: the change archives
    them itself; the consumer copies the last one."""
    game, players = new_duel(api, seed=43)
    for _ in range(3):
        step(api, game, players)
    api.leave(game, "ana").ok()
    first = api.get(game, OUTSIDER).ok()["hand_number"]
    with requests_to_dynamodb() as calls:
        final = api.leave(game, "ben").ok()
    assert final["status"] == "finished"
    hands = final["hand_number"]
    assert hands >= first + 2, "the seed should give a match of several hands"
    # hands first .. hands - 2 began (or were under way) and left the item within the change:
    # one archive write each, then the game's; hands - 1 is the item's previous hand now
    # one read: the game and the caller's ban mark (api/request.py)
    assert calls == Counter({"BatchGetItem": 1, "PutItem": 1 + hands - 1 - first}), calls
    api.drain()
    moves = api.moves(game, OUTSIDER).ok()["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert {m["hand_number"] for m in moves} == set(range(1, hands + 1))
    assert privileged.match(game).status == "finished"


def test_a_removed_game_takes_its_archives_and_memberships_with_it(
    api: Api, privileged: Privileged
) -> None:
    """TTL deletes a finished game's item: the consumer deletes the items that hang off it."""
    game, players = new_duel(api, seed=44)
    while api.get(game, OUTSIDER).ok()["hand_number"] < 3:
        step(api, game, players)
    api.drain()
    store = privileged.store
    assert store.archived_moves(game) and game in store.member_games("ana")
    store.client.delete_item(  # what DynamoDB's TTL does to an expired item
        TableName=store.table_name, Key={"pk": {"S": f"GAME#{game}"}, "sk": {"S": "GAME"}}
    )
    assert api.drain() >= 1
    assert store.archived_moves(game) == []
    assert game not in store.member_games("ana") and game not in store.member_games("ben")
    assert all(g["id"] != game for g in api.call("GET", "/me/games", player="ana").ok()["games"])
    assert api.moves(game, "ana").code == "game_not_found"


def test_a_game_nobody_joined_expires_and_leaves_nothing(api: Api, privileged: Privileged) -> None:
    """A waiting game carries a TTL 30 days after its last join or leave (none once dealt):
    when DynamoDB deletes it, its creator's and joiners' memberships go too."""
    game = api.create("cleo", preset="clasico", players=3).ok(201)["id"]
    api.join(game, "dina").ok()
    store = privileged.store
    item = store.client.get_item(
        TableName=store.table_name, Key={"pk": {"S": f"GAME#{game}"}, "sk": {"S": "GAME"}}
    )["Item"]
    record = privileged.record(game)
    assert int(item["ttl"]["N"]) == record.updated_at + WAITING_TTL_SECONDS
    store.client.delete_item(  # what DynamoDB's TTL does to an expired item
        TableName=store.table_name, Key={"pk": {"S": f"GAME#{game}"}, "sk": {"S": "GAME"}}
    )
    assert api.drain() >= 1
    assert game not in store.member_games("cleo") and game not in store.member_games("dina")
    dealt = api.create("cleo", preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(dealt, "dina").ok()
    playing = store.client.get_item(
        TableName=store.table_name, Key={"pk": {"S": f"GAME#{dealt}"}, "sk": {"S": "GAME"}}
    )["Item"]
    assert "ttl" not in playing  # a game being played never expires
