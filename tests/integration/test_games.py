"""Whole matches of several presets through the handlers, every request checked (table.py)."""

from __future__ import annotations

import pytest

from tests.integration.client import DOS_DEAL, Api, Privileged
from tests.integration.table import check_reply, start

pytestmark = [pytest.mark.ddb, pytest.mark.long(25)]


def test_dos_jugadores_whole_match(api: Api, privileged: Privileged) -> None:
    table = start(
        api,
        privileged,
        "dos-jugadores",
        ["alice", "bob"],
        deal=DOS_DEAL,
        seed=7,
        rules={"target": 60},
    )
    first = table.view("bob")
    assert (first["opener"], first["turn"]) == (1, 1)
    assert sorted(first["you"]["hand"]) == sorted(DOS_DEAL["hands"][1])
    assert first["you"]["legal"] == [{"tile": "6-6", "end": None}]
    assert first["boneyard"] == first["drawable"] == 14
    table.play_out()
    assert len(table.hands_seen) > 1 and table.draws > 0


def test_clasico_three_players(api: Api, privileged: Privileged) -> None:
    table = start(api, privileged, "clasico", ["ana", "ben", "cid"], seed=11, rules={"target": 60})
    view = table.view("ana")
    assert view["boneyard"] == 28 - 18 and view["drawable"] == 9  # reserve 1
    table.play_out()


def test_parejas_111_four_players(api: Api, privileged: Privileged) -> None:
    table = start(
        api, privileged, "parejas-111", ["p0", "p1", "p2", "p3"], seed=3, rules={"target": 50}
    )
    view = table.view("p0")
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    assert view["boneyard"] == 0 and view["drawable"] == 0
    final = table.play_out()
    scores = [s["score"] for s in final["seats"]]
    assert scores[0] == scores[2] and scores[1] == scores[3]


def test_buho21_penalty_counterclockwise(api: Api, privileged: Privileged) -> None:
    table = start(api, privileged, "buho21", ["u0", "u1", "u2"], seed=5, rules={"target": 30})
    view = table.view("u0")
    assert view["rules"]["direction"] == "counterclockwise"
    table.play_out()


def test_game_against_bots(api: Api, privileged: Privileged) -> None:
    table = start(
        api,
        privileged,
        "clasico",
        ["solo"],
        bots=2,
        bot_level="greedy",
        seed=21,
        rules={"target": 50},
    )
    view = table.view("solo")
    assert view["status"] == "playing" and view["version"] == 1
    assert [s["bot"] for s in view["seats"]] == [False, True, True]
    assert view["turn"] == 0  # the bots that led before the human moved inline at creation
    table.play_out()


def test_bots_are_experts_unless_the_game_says_otherwise(api: Api, privileged: Privileged) -> None:
    """The default level is the expert (``GET /rules`` says so); a one-hand game with three of
    them plays out, and every bot seat and the game's config name the level."""
    rules = api.call("GET", "/rules").ok()
    assert rules["bot_levels"] == ["random", "greedy", "strategist", "expert"]
    assert rules["default_bot_level"] == "expert"
    table = start(
        api, privileged, "parejas-111", ["ana"], bots=3, seed=8, rules={"match": "single"}
    )
    record = privileged.record(table.game)
    assert record.config["bot_level"] == "expert"
    assert [s.bot for s in record.seats] == [None, "expert", "expert", "expert"]
    table.play_out()
    assert table.view("ana")["status"] == "finished"


def test_cruzado_cross_layout(api: Api, privileged: Privileged) -> None:
    table = start(api, privileged, "cruzado", ["x0", "x1", "x2"], seed=9, rules={"target": 40})
    table.play_out()


def test_chipre_star_of_double_nine(api: Api, privileged: Privileged) -> None:
    table = start(api, privileged, "chipre", ["c0", "c1", "c2", "c3"], seed=2, rules={"target": 30})
    view = table.view("c0")
    assert view["rules"]["set"] == 9
    table.play_out()


def test_leaving_during_play_hands_the_seat_to_a_bot(api: Api, privileged: Privileged) -> None:
    table = start(api, privileged, "clasico", ["ana", "ben", "cid"], seed=13, rules={"target": 40})
    for _ in range(4):  # a few turns first
        view = table.view(table.players[table.view("ana")["turn"]])
        table.act(table.players[view["you"]["seat"]], view)
    before = table.view("ben")
    left = check_reply(api.leave(table.game, "ben"))
    assert "you" not in left  # ben has no seat any more: the public view
    assert left["seats"][1]["bot"] is True and left["seats"][1]["player"] == "ben"
    table.privileged.assert_hides(table.game, None, left)
    moves = api.moves(table.game, "ana", table.last_n).ok()["moves"]
    assert moves[0]["action"] == "leave" and moves[0]["seat"] == 1
    assert left["version"] - before["version"] == len(
        [m for m in moves if m["action"] != "hand_over"]
    )
    table.version, table.last_n = left["version"], moves[-1]["n"]
    del table.players[1]
    for refusal in (api.play(table.game, "ben", "6-6"), api.leave(table.game, "ben")):
        assert (refusal.status, refusal.code) == (403, "not_a_player")
    final = table.play_out()
    assert final["result"]["forfeits"] == [1] and 1 not in final["result"]["match_winners"]
    assert "you" not in api.get(table.game, "ben").ok()


def test_leaving_before_the_deal(api: Api) -> None:
    game = check_reply(api.create("ana", preset="clasico", players=3), 201)["id"]
    check_reply(api.join(game, "ben"))
    left = check_reply(api.leave(game, "ben"))
    assert left["version"] == 3 and left["seats"][1]["player"] is None and "you" not in left
    assert game not in [g["id"] for g in api.call("GET", "/me/games", player="ben").ok()["games"]]
    assert check_reply(api.join(game, "cid", seat=1))["version"] == 4  # the seat is free again
    check_reply(api.leave(game, "cid"))
    gone = check_reply(api.leave(game, "ana"))  # the last person leaves: abandoned
    assert gone["status"] == "finished" and gone["version"] == 6
    assert gone["result"]["reason"] == "abandoned" and gone["result"]["match_over"]


def test_bots_playing_on_keep_every_hand_in_the_log(api: Api, privileged: Privileged) -> None:
    """The last person leaves during play: bots play the match out inside that one change, and
    every hand's moves stay readable (archived as they leave the game item)."""
    game = check_reply(
        api.create("solo", preset="dos-jugadores", players=2, bots=1, seed=3, rules={"target": 60}),
        201,
    )["id"]
    left = check_reply(api.leave(game, "solo"))
    assert left["status"] == "finished" and left["result"]["forfeits"] == [0]
    assert left["hand_number"] > 2 and "you" not in left
    moves = api.moves(game, "solo").ok()["moves"]
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert {m["hand_number"] for m in moves} == set(range(1, left["hand_number"] + 1))
    assert not [m for m in moves if m["action"] == "draw" and "tile" in m]  # no seat: no draws
    assert sum(m["action"] == "hand_over" for m in moves) == left["hand_number"]
    # version 1 holds the deal and the bot's lead; every later move is one version
    assert moves[0]["seat"] == 1 and moves[1]["action"] == "leave"
    assert left["version"] == len([m for m in moves if m["action"] != "hand_over"])
    privileged.assert_hides(game, None, left)
