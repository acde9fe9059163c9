"""GET /games?status=waiting (open public games) and GET /me/games (filters, limit, cursor)."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest

from tests.integration.client import Api
from tests.integration.test_errors import refused

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


DOS_ME = {
    "hands": [
        ["6-6", "0-6", "1-6", "2-6", "3-6", "2-2", "3-3"],
        ["0-0", "0-1", "1-1", "2-3", "3-4", "4-5", "5-5"],
    ],
}
