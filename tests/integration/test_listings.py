"""GET /games?status=waiting (open public games) and GET /me/games (filters, limit, cursor)."""

from __future__ import annotations

import base64
import json
import time
from typing import Any
from urllib.parse import quote

import pytest
from domino.api import wiring
from domino.store.records import GAME_SK, game_key

from tests.integration.client import Api
from tests.integration.test_errors import refused
from tests.integration.test_notifications import play_out

pytestmark = pytest.mark.ddb


def pages(api: Api, path: str, player: str, limit: int) -> list[list[dict[str, Any]]]:
    """Every page of a listing, following ``next`` until it is null."""
    out: list[list[dict[str, Any]]] = []
    cursor = None
    sep = "&" if "?" in path else "?"
    while True:
        query = f"{path}{sep}limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        body = api.call("GET", query, player=player).ok()
        assert len(body["games"]) <= limit
        out.append(body["games"])
        cursor = body["next"]
        if cursor is None:
            return out
        assert body["games"], "a page before the last one is never empty"
        assert len(out) < 200


def ids(page_list: list[list[dict[str, Any]]]) -> list[str]:
    return [g["id"] for page in page_list for g in page]


def test_open_games_lists_public_waiting_games_only(api: Api) -> None:
    public = api.create("olga", preset="clasico", players=4).ok(201)["id"]
    private = api.create("olga", preset="clasico", players=4, private=True).ok(201)["id"]
    full = api.create("olga", preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(full, "oscar").ok()
    left = api.create("olga", preset="clasico", players=3).ok(201)["id"]
    api.leave(left, "olga").ok()  # abandoned: finished
    time.sleep(1.1)  # updated_at has whole seconds
    newest = api.create("otto", preset="dos-jugadores", players=2).ok(201)["id"]

    everything = pages(api, "/games?status=waiting", "reader", 100)
    listed = ids(everything)
    assert len(listed) == len(set(listed))
    assert public in listed and newest in listed
    assert private not in listed and full not in listed and left not in listed
    assert listed.index(newest) < listed.index(public)  # most recently updated first
    rows = {g["id"]: g for page in everything for g in page}
    row = rows[public]
    assert set(row) >= {
        "id",
        "preset",
        "status",
        "version",
        "turn",
        "your_turn",
        "seats",
        "deadline",
        "updated_at",
    }
    assert (row["status"], row["turn"], row["your_turn"], row["version"]) == (
        "waiting",
        None,
        False,
        1,
    )
    assert row["seats"][0]["seat"] == 0 and row["seats"][0]["name"] == "Olga"
    assert not row["seats"][0]["bot"]
    assert all(g["status"] == "waiting" for g in rows.values())
    assert [g["updated_at"] for g in rows.values()] == sorted(
        (g["updated_at"] for g in rows.values()), reverse=True
    )

    # the default status is waiting; paging gives the same games, and next is null on the last
    # page even when it is exactly full
    assert ids(pages(api, "/games", "reader", 100)) == listed
    for limit in (1, 2, 3, len(listed)):
        paged = pages(api, "/games?status=waiting", "reader", limit)
        assert ids(paged) == listed, limit
        assert len(paged) == -(-len(listed) // limit), limit


def test_my_games_filters_and_pages(api: Api) -> None:
    me = "lister"
    waiting = api.create(me, preset="clasico", players=3).ok(201)["id"]
    time.sleep(1.1)
    mine = api.create(me, preset="dos-jugadores", players=2, deal=DOS_ME).ok(201)["id"]
    api.join(mine, "rival").ok()  # seat 0 (lister) holds 6-6: lister's turn
    time.sleep(1.1)
    theirs = api.create("rival", preset="dos-jugadores", players=2, deal=DOS_ME).ok(201)["id"]
    api.join(theirs, me).ok()  # rival (seat 0) leads
    time.sleep(1.1)
    over = api.create(
        me, preset="infantil", players=2, bots=1, seed=8, rules={"match": "single"}
    ).ok(201)["id"]
    assert api.leave(over, me).ok()["status"] == "finished"  # a bot plays my seat out

    def listed(query: str) -> list[str]:
        return ids(pages(api, f"/me/games{query}", me, 100))

    assert listed("") == [over, theirs, mine, waiting]  # most recently updated first
    assert listed("?status=waiting") == [waiting]
    assert listed("?status=playing") == [theirs, mine]
    assert listed("?status=finished") == [over]
    assert listed("?turn=mine") == [mine]
    assert listed("?status=playing&turn=mine") == [mine]
    assert listed("?status=waiting&turn=mine") == []
    assert ids(pages(api, "/me/games?turn=mine", "rival", 100)) == [theirs]
    rows = {g["id"]: g for g in api.call("GET", "/me/games", player=me).ok()["games"]}
    assert rows[mine]["your_turn"] and rows[mine]["turn"] == 0
    assert not rows[theirs]["your_turn"] and rows[theirs]["turn"] == 0
    assert rows[over]["turn"] is None and not rows[over]["your_turn"]
    for limit in (1, 2, 3, 4):
        paged = pages(api, "/me/games", me, limit)
        assert ids(paged) == [over, theirs, mine, waiting]
        assert len(paged) == -(-4 // limit)
    assert pages(api, "/me/games", "nobody-at-all", 5) == [[]]


def test_forged_cursors_are_400(api: Api) -> None:
    for fields in ({"x": 1}, {"pk": 1, "sk": 2, "open_list": 3, "updated_at": 4}, [1], "s"):
        cursor = base64.urlsafe_b64encode(json.dumps(fields).encode()).decode()
        refused(api.call("GET", f"/games?cursor={cursor}", player="reader"), 400, "invalid_request")
        refused(
            api.call("GET", f"/me/games?cursor={cursor}", player="reader"), 400, "invalid_request"
        )
    cursor = base64.urlsafe_b64encode(json.dumps({"u": 1, "i": None}).encode()).decode()
    refused(api.call("GET", f"/me/games?cursor={cursor}", player="reader"), 400, "invalid_request")


def cursor_of(position: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode()


def test_what_no_listing_returned_is_400_not_500(api: Api) -> None:
    """Issue 20's three 500s. A real ``next`` sent with an ``updated_after`` it lies before
    would turn the finished games' key bounds upside down; a cursor's fields must be what the
    store writes (``{"u": "", "i": ""}`` is an empty index key); ``updated_after`` is read in
    ASCII digits only (``\\d`` takes mathematical, fullwidth and Arabic-Indic digits)."""
    for _ in range(2):
        api.create("paula", preset="clasico", players=3).ok(201)
        time.sleep(1.01)
    first = api.call("GET", "/me/games?limit=1", player="paula").ok()
    assert first["next"], first
    for query in (
        f"updated_after=2099-01-01T00:00:00Z&cursor={first['next']}",
        f"updated_after={first['games'][0]['updated_at']}&cursor={first['next']}",
        f"status=finished&updated_after=2099-01-01T00:00:00Z&cursor={first['next']}",
    ):
        refused(api.call("GET", f"/me/games?{query}", player="paula"), 400, "invalid_request")
    # an earlier updated_after with the same next is a page of that listing: served
    since = "2000-01-01T00:00:00Z"
    assert api.call(
        "GET", f"/me/games?updated_after={since}&cursor={first['next']}", player="paula"
    ).ok()["games"]

    game_id = first["games"][0]["id"]
    forged = [
        {"u": "", "i": ""},
        {"u": "2026-11-30T12:00:00Z", "i": ""},
        {"u": "", "i": game_id},
        {"u": "2026-11-30", "i": game_id},
        {"u": "\U0001d7d0\U0001d7ce\U0001d7d0\U0001d7d4-11-30T12:00:00Z", "i": game_id},
        {"u": "2026-11-30T12:00:00Z", "i": "x" * 65},
        {"u": "2026-11-30T12:00:00Z", "i": "short"},
        {"u": "2026-11-30T12:00:00Z", "i": "a b c d e f"},
        {"u": "2026-11-30T12:00:00Z" * 10, "i": game_id},
    ]
    for position in forged:
        for path in ("/games", "/me/games"):
            reply = api.call("GET", f"{path}?cursor={cursor_of(position)}", player="paula")
            refused(reply, 400, "invalid_request")
    assert cursor_of({"u": "", "i": ""}) == "eyJ1IjogIiIsICJpIjogIiJ9"  # the cursor
    for position in ({"s": ""}, {"s": "NOTE#"}, {"s": "READ"}, {"s": "NOTE#x#y#1#z"}):
        reply = api.call("GET", f"/me/notifications?cursor={cursor_of(position)}", player="paula")
        refused(reply, 400, "invalid_request")

    for year in (
        "\U0001d7d0\U0001d7ce\U0001d7d0\U0001d7d4",
        "\uff12\uff10\uff12\uff16",
        "\u0662\u0660\u0662\u0666",
    ):
        sent = quote(f"{year}-11-30T12:00:00Z")
        body = refused(
            api.call("GET", f"/me/games?updated_after={sent}", player="paula"),
            400,
            "invalid_request",
        )
        assert body["error"]["params"]["fields"] == ["query.updated_after"]
    for digits in ("\u0661", "\uff11", "\U0001d7cf"):  # one digit in another script
        sent = quote(f"2026-11-30T1{digits}:00:00Z")
        reply = api.call("GET", f"/me/games?updated_after={sent}", player="paula")
        refused(reply, 400, "invalid_request")


DOS_ME = {
    "hands": [
        ["6-6", "0-6", "1-6", "2-6", "3-6", "2-2", "3-3"],
        ["0-0", "0-1", "1-1", "2-3", "3-4", "4-5", "5-5"],
    ],
}


def test_finished_games_are_filed_and_paged_without_reading_them_all(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a game finishes the stream consumer files its players' memberships by when it
    ended (DONE#<time>#<id>): "my games" reads the games not finished yet and one page of the
    finished ones, not every game a player ever played."""
    single = {"match": "single"}
    finished = []
    for _ in range(4):
        game = api.create("fran", preset="dos-jugadores", players=2, rules=single).ok(201)["id"]
        api.join(game, "gus").ok()
        play_out(api, game, ["fran", "gus"])
        finished.append(game)
        time.sleep(1.01)  # distinct end times, as real games have
    waiting = api.create("fran", preset="clasico", players=3).ok(201)["id"]
    api.drain()
    store = wiring.service().store
    for game in finished:
        assert game not in store.member_games("fran")  # filed: no longer among the active
    everything = ids(pages(api, "/me/games", "fran", 10))
    by_two = ids(pages(api, "/me/games", "fran", 2))
    assert everything == by_two and len(everything) == len(set(everything))
    assert set(finished) | {waiting} <= set(everything)
    assert [g for g in everything if g in finished] == finished[::-1]  # newest first
    assert ids(pages(api, "/me/games?status=finished", "gus", 1)) == finished[::-1]

    read: list[int] = []
    load_many = store.load_many

    def counted(game_ids: list[str]) -> Any:
        read.append(len(game_ids))
        return load_many(game_ids)

    monkeypatch.setattr(store, "load_many", counted)
    api.call("GET", "/me/games?status=finished&limit=1", player="gus").ok()
    assert read == [3]  # a page, one more (a next page?), one for a cursor: not all four

    expired = finished[0]  # TTL deletes the oldest: its filed memberships go with it
    monkeypatch.undo()
    store.client.delete_item(
        TableName=store.table_name, Key={"pk": {"S": f"GAME#{expired}"}, "sk": {"S": "GAME"}}
    )
    assert api.drain() >= 1
    for player in ("fran", "gus"):
        left = store.client.query(
            TableName=store.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :done)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player}"}, ":done": {"S": "DONE#"}},
        )["Items"]
        assert len(left) == 3 and all(expired not in i["sk"]["S"] for i in left), player


def test_open_games_in_one_second_page_in_id_order_whatever_order_the_index_keeps_them(
    api: Api, privileged: Any
) -> None:
    """Games updated in the same second tie on the index's sort key, and DynamoDB keeps ties in
    an order of its own: every page still takes the next games by (updated_at, id), so that no
    game is skipped or shown twice whatever the page size."""
    table = privileged.store.table
    made = [api.create("tia", preset="clasico", players=4).ok(201)["id"] for _ in range(12)]
    keys = [{"pk": {"S": game_key(game_id)}, "sk": {"S": GAME_SK}} for game_id in made]
    tied = "2999-01-01T00:00:00Z"  # after every other open game of the session's table: on top
    try:
        for key in keys:
            table.call(
                table.client.update_item,
                TableName=table.name,
                Key=key,
                UpdateExpression="SET updated_at = :u",
                ExpressionAttributeValues={":u": {"S": tied}},
            )
        expected = sorted(made, reverse=True)
        for limit in (1, 2, 3, 5, 12, 13):
            listed: list[str] = []
            cursor = None
            while len(listed) < len(made):
                query = f"/games?status=waiting&limit={limit}" + (
                    f"&cursor={cursor}" if cursor else ""
                )
                body = api.call("GET", query, player="reader").ok()
                listed += [g["id"] for g in body["games"]]
                cursor = body["next"]
                assert cursor is not None or len(listed) >= len(made), limit
            assert listed[: len(made)] == expected, limit
    finally:
        for key in keys:  # out of the open list: the other listings' tests see none of them
            table.call(
                table.client.update_item,
                TableName=table.name,
                Key=key,
                UpdateExpression="REMOVE open_list",
            )
