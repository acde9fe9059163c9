"""A banned caller is 401 on every route, whatever the call reads first: its ban rides with the
call's first GetItem (one BatchGetItem), or is read alone before any other request, or before
the answer of a call that made none (api/request.py ``caller``, api/app.py ``settle_ban``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.client import BaseClient
from domino.api import wiring
from domino.store.accounts import PROFILE_SK
from domino.store.records import GAME_SK, game_key, player_key
from domino.store.table import Table, drop_riding, settle_riding

from tests.integration.client import Api, Reply, requests_to_dynamodb

pytestmark = pytest.mark.ddb


@contextmanager
def every_request() -> Iterator[list[tuple[str, str]]]:
    """Every AWS request of the block, whatever its client: (operation, table)."""
    sent: list[tuple[str, str]] = []
    original = BaseClient._make_api_call

    def record(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        sent.append((operation, params.get("TableName", "")))
        return original(client, operation, params)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseClient, "_make_api_call", record)
        yield sent


def unauthorized(reply: Reply) -> None:
    assert (reply.status, reply.code) == (401, "unauthorized"), reply.body


def test_a_banned_caller_is_refused_whatever_the_call_reads_first(api: Api) -> None:
    game = api.create("ban-ana", preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(game, "ban-beto").ok()
    wiring.account_store().ban("ban-ana", 1, "test")
    try:
        # the game first: the ban rides with it, one read, nothing written
        with requests_to_dynamodb() as calls:
            unauthorized(api.get(game, "ban-ana"))
        assert calls == Counter({"BatchGetItem": 1}), calls
        with requests_to_dynamodb() as calls:
            unauthorized(api.draw(game, "ban-ana"))
        assert calls == Counter({"BatchGetItem": 1}), calls
        # a query first (the games list): the ban is read alone before it, which never runs
        with requests_to_dynamodb() as calls:
            unauthorized(api.call("GET", "/me/games", player="ban-ana"))
        assert calls == Counter({"GetItem": 1}), calls
        # the profile itself first: one GetItem serves both
        with requests_to_dynamodb() as calls:
            unauthorized(api.call("GET", "/me", player="ban-ana"))
        assert calls == Counter({"GetItem": 1}), calls
        # a call refused before it reads anything: its 400 becomes the ban's 401
        with requests_to_dynamodb() as calls:
            unauthorized(api.call("POST", "/games", {"preset": 7}, player="ban-ana"))
        assert calls == Counter({"GetItem": 1}), calls
        # a write first (a new game), with an Idempotency-Key or without: refused before
        # anything is written, Powertools' record of the key included (its own client)
        for headers in (None, {"Idempotency-Key": "banned-create"}):
            with every_request() as sent:
                body = {"preset": "clasico", "players": 4}
                unauthorized(api.call("POST", "/games", body, player="ban-ana", headers=headers))
            assert sent == [("GetItem", wiring.table().name)], sent
        # the other player is not touched by the banned one's refusals
        assert api.get(game, "ban-beto").status == 200
    finally:
        wiring.account_store().unban("ban-ana")
    assert api.get(game, "ban-ana").status == 200


def test_a_call_that_reads_a_game_reads_its_callers_ban_with_it(api: Api) -> None:
    game = api.create("ride-ana", preset="dos-jugadores", players=2).ok(201)["id"]
    with requests_to_dynamodb() as calls:
        assert api.get(game, "ride-ana").status == 200
    assert calls == Counter({"BatchGetItem": 1}), calls
    with requests_to_dynamodb() as calls:
        assert api.get("g" + "0" * 20, "ride-ana").status == 404
    assert calls == Counter({"BatchGetItem": 1}), calls
    with requests_to_dynamodb() as calls:
        assert api.call("GET", "/me/notifications", player="ride-ana").status == 200
    assert calls["BatchGetItem"] == 1 and calls["GetItem"] == 0, calls


def test_a_riding_read_goes_out_before_any_other_request_and_at_the_settle() -> None:
    table: Table = wiring.table()
    key = {"pk": {"S": player_key("rider")}, "sk": {"S": PROFILE_SK}}
    seen: list[object] = []
    store = wiring.service().store
    events = store.client.meta.events
    order: list[str] = []

    def note(model: object, **_: object) -> None:
        order.append(model.name)  # type: ignore[attr-defined]

    events.register("before-call.dynamodb", note)
    try:
        # before a query
        table.read_with_next(key, seen.append)
        query = {
            "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": key["pk"]},
        }
        list(table.query(TableName=table.name, **query))
        assert order == ["GetItem", "Query"] and seen == [None]
        # at the settle, once
        order.clear()
        table.read_with_next(key, seen.append)
        settle_riding()
        settle_riding()
        assert order == ["GetItem"] and seen == [None, None]
        # dropped: never read
        order.clear()
        table.read_with_next(key, seen.append)
        drop_riding()
        settle_riding()
        assert order == [] and len(seen) == 2
        # a GetItem with a projection cannot carry it: both go out, the riding one first
        order.clear()
        table.read_with_next(key, seen.append)
        nothing = {"pk": {"S": game_key("none")}, "sk": {"S": GAME_SK}}
        table.call(
            table.client.get_item, TableName=table.name, Key=nothing, ProjectionExpression="pk"
        )
        assert order == ["GetItem", "GetItem"] and len(seen) == 3
    finally:
        events.unregister("before-call.dynamodb", note)
        drop_riding()
