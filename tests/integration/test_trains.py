"""Tren mexicano through the API on DynamoDB Local: whole rounds with people and bots at several
player counts, the station and the trains in every view, the contract's refusals, and no hidden
tile anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.client import Api, Privileged

pytestmark = pytest.mark.ddb

PEOPLE = ("alice", "bob", "carol", "dave")


def play_rounds(
    api: Api, game: str, people: tuple[str, ...], privileged: Privileged, rounds: int
) -> dict[str, Any]:
    """The people play (first legal play, else draw, else pass) until ``rounds`` rounds are
    over; every view is checked for the trains' fields and for hidden tiles. The last view."""
    for _ in range(5000):
        views = {p: api.get(game, p).ok() for p in people}
        view = next(iter(views.values()))
        if view["status"] == "finished" or view["hand_number"] > rounds:
            return view
        for seen in views.values():
            board = seen["board"]
            assert board["station"] and board["search_passes"] >= 0
            trains = [e["end"] for e in board["ends"]]
            assert trains == [f"train-{k}" for k in range(len(seen["seats"]))] + ["mexican"]
            privileged.assert_hides(game, seen["you"]["seat"], seen)
        player = next((p for p, v in views.items() if v["turn"] == v["you"]["seat"]), None)
        if player is None:
            continue
        you = views[player]["you"]
        if you["legal"]:
            play = you["legal"][0]
            api.play(game, player, play["tile"], play["end"]).ok()
        elif you["can_draw"]:
            api.draw(game, player).ok()
        else:
            api.pass_(game, player).ok()
    raise AssertionError("the rounds did not end")


@pytest.mark.parametrize(("players", "people"), [(2, 2), (3, 1), (4, 2)])
def test_whole_rounds_with_people_and_bots(
    api: Api, privileged: Privileged, players: int, people: int
) -> None:
    game = api.create(
        "alice",
        preset="tren-mexicano",
        players=players,
        bots=players - people,
        bot_level="strategist",
        rules={"rounds": 2},
    ).ok(201)["id"]
    for player in PEOPLE[1:people]:
        api.join(game, player).ok()
    last = play_rounds(api, game, PEOPLE[:people], privileged, rounds=2)
    assert last["status"] == "finished"
    result = last["result"]
    assert result["match_over"] and result["match_winners"]
    totals = [seat["score"] for seat in last["seats"]]
    assert [totals[s] for s in result["match_winners"]] == [min(totals)] * len(
        result["match_winners"]
    )
    moves = api.moves(game, "alice").ok()["moves"]
    assert all(m["end"].startswith(("train-", "mexican")) for m in moves if m["action"] == "play")
    assert all(m.get("marked", True) is True for m in moves)


def test_the_contracts_refusals(api: Api) -> None:
    game = api.create("alice", preset="tren-mexicano", players=2).ok(201)["id"]
    api.join(game, "bob").ok()
    view = api.get(game, "alice").ok()
    player = "alice" if view["turn"] == view["you"]["seat"] else "bob"
    mine = api.get(game, player).ok()
    tile = mine["you"]["hand"][0]
    beyond = api.play(game, player, tile, "train-5")  # no seat 5 in a 2-player game
    assert (beyond.status, beyond.code) == (400, "invalid_request")
    other = f"train-{1 - mine['you']['seat']}"
    twelve = next((t for t in mine["you"]["hand"] if "12" in t.split("-")), None)
    if twelve is not None:  # another seat's unmarked train
        refused = api.play(game, player, twelve, other)
        assert (refused.status, refused.code) == (422, "tile_does_not_match")
    after = api.get(game, player).ok()
    assert after["version"] == mine["version"]  # refusals change nothing
