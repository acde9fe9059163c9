"""Forced moves through the handlers on DynamoDB Local: ``PATCH /me {"auto_forced"}``, and the
one thing a turn offers made in the write that handed it over, logged ``auto``, chained."""

from __future__ import annotations

import pytest
from domino.engine import only_move

from tests.integration.client import DOS_DEAL, Api, Privileged

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


def test_a_whole_match_takes_exactly_the_forced_moves_of_the_player_who_asked(
    api: Api, privileged: Privileged
) -> None:
    """Every move made for EVE is one she had no choice about, and every such turn of hers was
    made for her: replayed on the engine from the record of her moves and the true state."""
    eve, fay = "forced-eve", "forced-fay"
    settle(api, eve, True).ok()  # type: ignore[attr-defined]
    # a seeded deal (dev mode): the same match every run, long enough to say something
    body = {"preset": "dos-jugadores", "players": 2, "rules": {"target": 60}, "seed": 11}
    game = api.create(fay, **body).ok(201)["id"]
    api.join(game, eve).ok()
    auto = by_hand = 0
    for _ in range(2000):
        view = api.get(game, fay).ok()
        if view["status"] != "playing":
            break
        match = privileged.match(game)
        assert match is not None
        seat = view["turn"]
        player = fay if seat == 0 else eve
        if seat == 1:  # eve on turn by hand: she had a choice (else it was made for her)
            assert only_move(match) is None
        legal = view["you"]["legal"] if seat == 0 else api.get(game, eve).ok()["you"]["legal"]
        before = len(api.moves(game, fay).ok()["moves"])
        if legal:
            api.play(game, player, legal[0]["tile"], legal[0]["end"]).ok()
        elif api.get(game, player).ok()["you"]["can_draw"]:
            api.draw(game, player).ok()
        else:
            api.pass_(game, player).ok()
        made = api.moves(game, fay).ok()["moves"][before + 1 :]
        auto += sum(1 for m in made if m.get("auto"))
        by_hand += 1
        assert all(m["seat"] == 1 for m in made if m.get("auto"))
    assert api.get(game, fay).ok()["status"] == "finished"
    assert auto >= 10 and by_hand >= 10, (auto, by_hand)
