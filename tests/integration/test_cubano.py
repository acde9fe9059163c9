"""Cubano through the API on DynamoDB Local: the lead offered by the lot, ceded once to the
partner over POST /games/{id}/cede, and refused (with the contract's codes) otherwise."""

from __future__ import annotations

import pytest

from tests.integration.client import DOS_DEAL, Api

pytestmark = pytest.mark.ddb


def seated(api: Api, lot: int) -> str:
    """A cubano game of alice, bob, carol and dave (seats 0 to 3), its lot drawing ``lot``."""
    game = api.create("alice", preset="cubano", players=4, deal={"lot": lot}).ok(201)["id"]
    for player in ("bob", "carol", "dave"):
        api.join(game, player).ok()
    return str(game)


def cede(api: Api, game: str, player: str) -> object:
    return api.call("POST", f"/games/{game}/cede", {}, player=player)


def test_the_offered_seat_cedes_once_and_its_partner_leads(api: Api) -> None:
    game = seated(api, 3)
    view = api.get(game, "dave").ok()
    assert view["lead"] == {"pair": [1, 3], "offered": 3, "ceded": False}
    assert (view["turn"], view["you"]["can_cede"], view["drawable"]) == (3, True, 0)
    assert api.get(game, "bob").ok()["you"]["can_cede"] is False
    refused = cede(api, game, "bob")
    assert (refused.status, refused.code) == (422, "not_your_turn")  # type: ignore[attr-defined]
    ceded = cede(api, game, "dave").ok()  # type: ignore[attr-defined]
    assert ceded["version"] == view["version"] + 1 and ceded["turn"] == 1
    assert ceded["lead"] == {"pair": [1, 3], "offered": 3, "ceded": True}
    assert ceded["opener"] == 1
    again = cede(api, game, "bob")
    assert (again.status, again.code) == (422, "cannot_cede")  # type: ignore[attr-defined]
    tile = api.get(game, "bob").ok()["you"]["legal"][0]["tile"]
    led = api.play(game, "bob", tile).ok()
    assert led["turn"] == 0 and led["lead"] is None and "can_cede" in led["you"]
    moves = api.moves(game, "carol").ok()["moves"]
    assert [(m["seat"], m["action"]) for m in moves] == [(3, "cede"), (1, "play")]


def test_a_cede_changes_nothing_where_the_game_offers_no_lead(api: Api) -> None:
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    before = api.get(game, "bob").ok()
    refused = api.call("POST", f"/games/{game}/cede", {}, player="bob")
    assert (refused.status, refused.code) == (422, "cannot_cede")
    after = api.get(game, "bob").ok()
    assert after["version"] == before["version"] and "lead" not in after
    assert "can_cede" not in after["you"]


def test_a_draw_in_cubano_is_cannot_draw_and_the_preset_is_listed(api: Api) -> None:
    game = seated(api, 0)
    refused = api.draw(game, "alice")
    assert (refused.status, refused.code) == (422, "cannot_draw")
    presets = {p["id"]: p for p in api.call("GET", "/rules").ok()["presets"]}
    assert presets["cubano"]["rules"]["redeal_doubles"] == 5
    assert "redeal_doubles" not in presets["clasico"]["rules"]  # the seed presets as they were


def test_a_dev_lot_outside_the_players_is_refused(api: Api) -> None:
    reply = api.create("alice", preset="cubano", players=4, deal={"lot": 7})
    assert (reply.status, reply.code) == (400, "invalid_request")
