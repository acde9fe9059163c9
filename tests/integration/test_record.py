"""A finished match's record through the handlers on DynamoDB Local: 409 while the match runs,
private games' records for their players only, every deal and move (drawn tiles shown) of a
match of several hands (archived ones too), the same result when fed back to the engine, and a
dev deal that takes the record's first deal."""

from __future__ import annotations

from typing import Any

import pytest
from domino.engine import resolve_rules
from domino.engine.replay import replay

from tests.integration.client import DOS_DEAL, Api

pytestmark = pytest.mark.ddb


def finished_match(api: Api, player: str, **options: Any) -> str:
    """A match ``player`` begins against a bot and leaves at once: the bots play it out (every
    hand of it, in the one write)."""
    game = api.create(player, preset="dos-jugadores", players=2, bots=1, **options).ok(201)["id"]
    api.leave(game, player).ok()
    api.drain()  # the hands that left the item reach their archive items
    return str(game)


def test_the_record_waits_for_the_end_of_the_match(api: Api) -> None:
    game = api.create("rita", preset="dos-jugadores", players=2).ok(201)["id"]
    waiting = api.call("GET", f"/games/{game}/record", player="rita")
    assert (waiting.status, waiting.body["error"]["code"]) == (409, "match_not_over")
    api.join(game, "sal").ok()
    playing = api.call("GET", f"/games/{game}/record", player="sal")
    assert (playing.status, playing.body["error"]["code"]) == (409, "match_not_over")
    missing = api.call("GET", "/games/NoSuchGame0000000000x/record", player="sal")
    assert missing.status == 404


def test_a_record_shows_every_deal_and_move_and_replays_to_its_result(api: Api) -> None:
    game = finished_match(api, "tere", deal=DOS_DEAL)
    view = api.get(game, "tere").ok()
    assert view["status"] == "finished"
    record = api.call("GET", f"/games/{game}/record", player="tere").ok()
    assert set(record) == {
        "id", "preset", "rules", "seats", "seed", "hands", "result", "started_at", "finished_at"
    }  # fmt: skip
    assert record["id"] == game and record["rules"] == view["rules"]
    assert record["result"] == view["result"]
    hands = record["hands"]
    assert len(hands) >= 2 and [h["hand_number"] for h in hands] == list(range(1, len(hands) + 1))
    first = hands[0]
    assert first["deal"] == {"0": sorted_tiles(DOS_DEAL["hands"][0]), "1": sorted_tiles(
        DOS_DEAL["hands"][1])}  # fmt: skip
    assert first["boneyard"] == DOS_DEAL["boneyard"]
    moves = [m for h in hands for m in h["moves"]]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))  # archived hands too
    draws = [m for m in moves if m["action"] == "draw"]
    assert draws and all("tile" in m for m in draws)  # every tile revealed
    assert all(h["result"] is not None for h in hands)
    assert hands[-1]["result"] == view["result"]
    # fed back to the engine: the same result
    rules = resolve_rules("dos-jugadores", 2)
    deals = {
        h["hand_number"]: ([h["deal"][str(s)] for s in range(2)], h["boneyard"]) for h in hands
    }
    again = replay(rules, [dict(m, at=0) for m in moves], seed=int(record["seed"]), deals=deals)
    assert again.result() == record["result"]
    # a stranger may read a public match's record
    assert api.call("GET", f"/games/{game}/record", player="ugo").status == 200


def test_a_private_matchs_record_is_its_players_only(api: Api) -> None:
    game = finished_match(api, "vale", private=True)
    assert api.call("GET", f"/games/{game}/record", player="vale").status == 200
    refused = api.call("GET", f"/games/{game}/record", player="walt")
    assert (refused.status, refused.body["error"]["code"]) == (403, "not_a_player")


def test_a_dev_deal_takes_a_records_first_deal(api: Api) -> None:
    record = api.call("GET", f"/games/{finished_match(api, 'xime')}/record", player="xime").ok()
    first = record["hands"][0]
    deal = {"by_seat": first["deal"], "boneyard": first["boneyard"]}
    again = finished_match(api, "yoli", deal=deal)
    copied = api.call("GET", f"/games/{again}/record", player="yoli").ok()["hands"][0]
    assert (copied["deal"], copied["boneyard"], copied["opener"]) == (
        first["deal"], first["boneyard"], first["opener"]
    )  # fmt: skip


def sorted_tiles(tiles: list[str]) -> list[str]:
    """Tiles as a record shows a hand: written low-high, in display order."""
    from domino.engine.tiles import TEXT, show

    ids = {text: tid for tid, text in enumerate(TEXT)}
    return show([ids["-".join(sorted(t.split("-"), key=int))] for t in tiles])
