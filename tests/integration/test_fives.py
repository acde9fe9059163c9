"""All Fives and Muggins through the API on DynamoDB Local: whole matches with people and bots at
every player count, the count in every view and move, a match that ends mid-hand at its target,
and no hidden tile anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.client import Api, Privileged

pytestmark = pytest.mark.ddb

PEOPLE = ("alice", "bob", "carol", "dave")


def game_of(api: Api, preset: str, players: int, people: int, **body: Any) -> str:
    """A dealt game: the first ``people`` of alice, bob, ... and bots in the other seats."""
    game = api.create(
        "alice", preset=preset, players=players, bots=players - people, bot_level="greedy", **body
    ).ok(201)["id"]
    for player in PEOPLE[1:people]:
        api.join(game, player).ok()
    return str(game)


def play_out(
    api: Api, game: str, people: tuple[str, ...], privileged: Privileged
) -> dict[str, Any]:
    """Every person plays their first legal play (else draws, else passes) until the match is
    over; each view is checked for the count's fields and for hidden tiles. The last view."""
    for _ in range(2000):
        views = {p: api.get(game, p).ok() for p in people}
        any_view = next(iter(views.values()))
        if any_view["status"] == "finished":
            return any_view
        for view in views.values():
            board = view["board"]
            assert "count" in board and "spinner" in board
            assert board["count"] == sum(end["counts"] for end in board["ends"])
            privileged.assert_hides(game, view["you"]["seat"], view)
        player = next((p for p, v in views.items() if v["turn"] == v["you"]["seat"]), None)
        if player is None:
            continue  # a bot's turn: it moved inside the last command already
        you = views[player]["you"]
        if you["legal"]:
            play = you["legal"][0]
            assert isinstance(play["scores"], int) and play["scores"] % 5 == 0
            api.play(game, player, play["tile"], play["end"]).ok()
        elif you["can_draw"]:
            api.draw(game, player).ok()
        else:
            api.pass_(game, player).ok()
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    ("preset", "players", "people"),
    [
        ("all-fives", 2, 2),
        ("all-fives", 3, 2),
        ("all-fives", 4, 2),
        ("muggins", 2, 1),
        ("muggins", 4, 3),
    ],
)
def test_a_whole_match_with_people_and_bots(
    api: Api, privileged: Privileged, preset: str, players: int, people: int
) -> None:
    game = game_of(api, preset, players, people, rules={"target": {str(players): 60}})
    last = play_out(api, game, PEOPLE[:people], privileged)
    result = last["result"]
    assert result["match_over"] and result["match_winners"]
    assert set(result["play_points"]) == set(result["bonus"]) == {str(s) for s in range(players)}
    for seat, points in result["points"].items():
        assert points == result["play_points"][seat] + result["bonus"][seat]
    moves = api.moves(game, "alice").ok()["moves"]
    plays = [m for m in moves if m["action"] == "play" or m.get("move") == "play"]
    assert plays and all("count" in m and "scored" in m for m in plays)
    assert all(m["scored"] in (0, m["count"]) for m in plays)
    top = max(seat["score"] for seat in last["seats"])
    assert top >= 60
    rules = last["rules"]
    assert (rules["in_play"], rules["round_to"], rules["target_check"]) == (
        "fives",
        5,
        "every_score",
    )
    assert rules["teams"] == ("pairs" if players == 4 else None)


def test_a_score_during_play_that_reaches_the_target_ends_the_match_mid_hand(api: Api) -> None:
    # alice (the lot's seat 0) leads 5-5: 10 points, and the target is 10
    hands = [
        ["5-5", "0-1", "0-2", "0-3", "0-4", "1-1", "1-2", "1-3", "1-4"],
        ["2-2", "2-3", "2-4", "3-3", "3-4", "4-4", "0-0", "0-6", "1-6"],
    ]
    game = api.create(
        "alice",
        preset="all-fives",
        players=2,
        rules={"target": 10},
        deal={"hands": hands, "lot": 0},
    ).ok(201)["id"]
    api.join(game, "bob").ok()
    view = api.get(game, "alice").ok()
    assert view["you"]["legal"][0]["scores"] in (0, 10)
    led = api.play(game, "alice", "5-5").ok()
    assert led["status"] == "finished"
    result = led["result"]
    assert (result["reason"], result["match_winners"], result["winners"]) == ("target", [0], [0])
    assert result["bonus"] == {"0": 0, "1": 0} and result["play_points"] == {"0": 10, "1": 0}
    assert result["hands"]["1"] and len(result["hands"]["0"]) == 8  # every hand revealed
    assert led["seats"][0]["score"] == 10
    moves = api.moves(game, "bob").ok()["moves"]
    assert [(m["action"], m.get("count"), m.get("scored")) for m in moves] == [
        ("play", 10, 10),
        ("hand_over", None, None),
    ]


def test_the_rules_list_the_new_presets_and_the_seed_presets_show_as_they_did(api: Api) -> None:
    presets = {p["id"]: p for p in api.call("GET", "/rules").ok()["presets"]}
    fives = presets["all-fives"]["rules"]
    assert fives["target"] == {"2": 250, "3": 200, "4": 200}
    assert fives["teams"] == {"2": None, "3": None, "4": "pairs"}
    assert presets["muggins"]["rules"]["layout"] == "line"
    for seed in ("clasico", "dos-jugadores", "chipre"):
        assert "in_play" not in presets[seed]["rules"]
    singles = api.create("alice", preset="all-fives", players=4, rules={"teams": None}).ok(201)
    assert singles["rules"]["teams"] is None
    refused = api.create("alice", preset="all-fives", players=3, rules={"round_to": 10})
    assert (refused.status, refused.code) == (400, "invalid_request")
