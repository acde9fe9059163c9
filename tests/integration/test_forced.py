"""Forced moves through the handlers on DynamoDB Local: ``PATCH /me {"auto_forced"}``, and the
one thing a turn offers made in the write that handed it over, logged ``auto``, chained."""

from __future__ import annotations

import pytest

from tests.integration.client import DOS_DEAL, Api

pytestmark = pytest.mark.ddb

# players of these tests only: the profile a test sets lasts the session's table
ANA, BEA, CAL, DEE = "forced-ana", "forced-bea", "forced-cal", "forced-dee"


def settle(api: Api, player: str, on: object) -> object:
    return api.call("PATCH", "/me", {"auto_forced": on}, player=player)


def test_the_opening_and_the_draws_a_player_asked_for_are_made_in_the_write(api: Api) -> None:
    assert settle(api, BEA, True).ok()["auto_forced"] is True  # type: ignore[attr-defined]
    assert api.call("GET", "/me", player=BEA).ok()["auto_forced"] is True
    assert api.call("GET", "/me", player=ANA).ok()["auto_forced"] is False
    game = api.create(ANA, preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    joined = api.join(game, BEA).ok()
    # the deal made bob the opener, bound to lead 6-6: led for him in the join's own write
    # (one change, as a bot's first move at the deal is)
    assert joined["turn"] == 0 and joined["version"] == 2
    moves = api.moves(game, ANA).ok()["moves"]
    assert [(m["seat"], m["action"], m.get("tile"), m.get("auto")) for m in moves] == [
        (1, "play", "6-6", True)
    ]
    # alice did not ask: her draw is hers to make
    assert api.get(game, ANA).ok()["you"]["can_draw"] is True
    drawn = api.draw(game, ANA).ok()
    assert drawn["version"] == 3 and drawn["turn"] == 0
    tile = drawn["you"]["legal"][0]["tile"]
    played = api.play(game, ANA, tile, drawn["you"]["legal"][0]["end"]).ok()
    # bob now holds four 6s to choose from: a choice, so nothing is made for him
    assert played["turn"] == 1 and played["version"] == 4
    assert "auto" not in api.moves(game, BEA).ok()["moves"][-1]


def test_a_chain_of_draws_ends_with_the_one_tile_that_fits(api: Api) -> None:
    settle(api, DEE, True).ok()  # type: ignore[attr-defined]
    game = api.create(DEE, preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    joined = api.join(game, CAL).ok()
    assert joined["turn"] == 1 and joined["version"] == 2  # bob did not ask: 6-6 is his to lead
    led = api.play(game, CAL, "6-6").ok()
    # alice holds no 6: she draws 4-6 and lays it, both made for her in bob's write
    assert led["turn"] == 1 and led["version"] == 5
    moves = api.moves(game, DEE).ok()["moves"]
    assert [(m["seat"], m["action"], m.get("tile"), m.get("auto")) for m in moves] == [
        (1, "play", "6-6", None),
        (0, "draw", "4-6", True),
        (0, "play", "4-6", True),
    ]
    # bob sees that alice drew, not what
    assert "tile" not in api.moves(game, CAL).ok()["moves"][1]
    settle(api, DEE, False).ok()  # type: ignore[attr-defined]
    assert api.call("GET", "/me", player=DEE).ok()["auto_forced"] is False


def test_auto_forced_must_be_a_boolean(api: Api) -> None:
    for bad in ("yes", 1, []):
        reply = settle(api, CAL, bad)
        assert (reply.status, reply.code) == (400, "invalid_request")  # type: ignore[attr-defined]
    assert api.call("GET", "/me", player=CAL).ok()["auto_forced"] is False
