"""Invitations, declines, rematches and opponents through the handlers on DynamoDB Local
(docs/api.md, "Invitations and rematches"): reserved seats, the notifications the stream derives
from them, one rematch however many players ask at once, and opponents counted once per game."""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from domino.api import wiring
from domino.service.values import Caller
from domino.store.opponents import DynamoOpponents

from tests.integration.client import Api
from tests.integration.test_errors import refused
from tests.integration.test_notifications import everything, play_out

pytestmark = pytest.mark.ddb

SINGLE = {"match": "single"}


def people(*names: str) -> list[str]:
    """Fresh player ids (the database is shared by the session's tests)."""
    tag = secrets.token_hex(3)
    return [f"{name}-{tag}" for name in names]


def types_of(api: Api, player: str) -> list[tuple[str, str]]:
    api.drain()
    return [(n["type"], n["game"]) for n in everything(api, player)]


def my_game_ids(api: Api, player: str, query: str = "") -> list[str]:
    return [g["id"] for g in api.call("GET", f"/me/games{query}", player=player).ok()["games"]]


def finished_match(api: Api, seated: list[str], **body: Any) -> str:
    """A one-hand match of ``seated`` (and any ``bots``) played to its end."""
    count = len(seated) + body.get("bots", 0)
    options = {"preset": "dos-jugadores", "players": count, "rules": SINGLE, **body}
    game = api.create(seated[0], **options).ok(201)["id"]
    for player in seated[1:]:
        api.join(game, player).ok()
    play_out(api, game, seated + [""] * body.get("bots", 0))
    return game


def test_an_invitation_reserves_a_seat_until_the_invitee_joins(api: Api) -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    view = api.create(alice, preset="dos-jugadores", players=2, invite=[bob]).ok(201)
    game = view["id"]
    assert view["status"] == "waiting"
    assert [(s["player"], s["invited"]) for s in view["seats"]] == [(alice, False), (bob, True)]
    assert game in my_game_ids(api, bob, "?status=waiting")  # the phone finds its invitation
    assert ("invited", game) in types_of(api, bob)
    assert types_of(api, alice) == []
    listed = api.call("GET", "/games?limit=100", player=carol).ok()["games"]
    assert game not in [g["id"] for g in listed]  # only a reserved seat left: not open

    refused(api.join(game, carol), 409, "game_full")  # the only free seat is reserved
    refused(api.join(game, carol, seat=1), 409, "seat_taken")
    assert api.get(game, bob).ok()["version"] == 1  # refusals changed nothing

    joined = api.join(game, bob).ok()
    assert joined["status"] == "playing" and joined["you"]["seat"] == 1
    assert [s["invited"] for s in joined["seats"]] == [False, False]
    assert ("player_joined", game) in types_of(api, alice)
    refused(api.join(game, bob), 409, "already_joined")


def test_a_game_waits_for_its_invitee_while_strangers_fill_the_free_seats(api: Api) -> None:
    alice, bob, carol, dan = people("alice", "bob", "carol", "dan")
    game = api.create(alice, preset="clasico", players=3, invite=[bob]).ok(201)["id"]
    view = api.join(game, carol).ok()
    assert view["you"]["seat"] == 2 and view["status"] == "waiting"  # bob's seat still waits
    refused(api.join(game, dan), 409, "game_full")
    refused(api.call("POST", f"/games/{game}/decline", {}, player=carol), 403, "not_invited")
    assert api.join(game, bob).ok()["status"] == "playing"


def test_bad_invitations_are_refused_and_create_nothing(api: Api) -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    for invite, players, bots in (
        ([alice], 2, 0),  # yourself
        ([bob, bob], 3, 0),  # one person twice
        ([bob, carol], 2, 0),  # more than the seats
        ([bob, carol], 3, 1),  # the bot took a seat
        ([""], 2, 0),  # no player id
        ([f"p{i}" for i in range(10)], 4, 0),  # over the bound
    ):
        preset = "dos-jugadores" if players == 2 else "clasico"
        body = {"preset": preset, "players": players, "bots": bots, "invite": invite}
        error = refused(api.create(alice, **body), 400, "invalid_request")["error"]
        assert error["fields"] == error["params"]["fields"], error
        assert [f.split(".")[0] for f in error["fields"]] == ["invite"], error
    assert my_game_ids(api, alice) == [] and my_game_ids(api, bob) == []


def test_a_decline_frees_the_seat_and_tells_the_creator(api: Api) -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    game = api.create(alice, preset="dos-jugadores", players=2, invite=[bob]).ok(201)["id"]
    for who in (carol, alice):  # a stranger, the creator
        refused(api.call("POST", f"/games/{game}/decline", {}, player=who), 403, "not_invited")
    refused(api.call("POST", "/games/nosuchgame00/decline", {}, player=bob), 404, "game_not_found")
    refused(
        api.call("POST", f"/games/{game}/decline", {"x": 1}, player=bob), 400, "invalid_request"
    )

    view = api.call("POST", f"/games/{game}/decline", {}, player=bob).ok()
    assert view["seats"][1]["player"] is None and view["seats"][1]["invited"] is False
    assert view["version"] == 2 and "you" not in view
    assert ("invite_declined", game) in types_of(api, alice)
    assert game not in my_game_ids(api, bob)
    refused(api.call("POST", f"/games/{game}/decline", {}, player=bob), 403, "not_invited")
    assert api.join(game, carol).ok()["status"] == "playing"  # the seat is anyone's now


def test_a_rematch_is_the_next_match_with_the_seats_moved_on(api: Api) -> None:
    alice, bob, outsider = people("alice", "bob", "outsider")
    running = api.create(alice, preset="dos-jugadores", players=2).ok(201)["id"]
    api.join(running, bob).ok()
    refused(api.call("POST", f"/games/{running}/rematch", {}, player=alice), 409, "match_not_over")
    refused(api.call("POST", f"/games/{running}/rematch", {}, player=outsider), 403, "not_a_player")

    game = finished_match(api, [alice, bob], turn_timeout_hours=48.0, on_timeout="forfeit")
    assert api.get(game, alice).ok()["rematch"] is None
    refused(api.call("POST", f"/games/{game}/rematch", {}, player=outsider), 403, "not_a_player")
    refused(
        api.call("POST", f"/games/{game}/rematch", {"x": 1}, player=alice), 400, "invalid_request"
    )
    refused(
        api.call("POST", "/games/nosuchgame00/rematch", {}, player=alice), 404, "game_not_found"
    )

    made = api.call("POST", f"/games/{game}/rematch", {}, player=alice)
    nxt = made.ok(201)
    assert made.header("Location") == f"/games/{nxt['id']}"
    assert nxt["id"] != game and nxt["status"] == "waiting"
    assert [(s["player"], s["invited"]) for s in nxt["seats"]] == [(bob, True), (alice, False)]
    assert nxt["you"]["seat"] == 1  # seat 0 moved to seat 1: bob leads now
    assert (nxt["preset"], nxt["rules"]["match"]) == ("dos-jugadores", "single")
    assert (nxt["turn_timeout_hours"], nxt["on_timeout"]) == (48.0, "forfeit")
    assert api.get(game, bob).ok()["rematch"] == nxt["id"]
    assert ("rematch", nxt["id"]) in types_of(api, bob)
    assert ("rematch", nxt["id"]) not in types_of(api, alice)

    again = api.call("POST", f"/games/{game}/rematch", {}, player=alice).ok()
    assert again["id"] == nxt["id"] and again["version"] == nxt["version"]
    taken = api.call("POST", f"/games/{game}/rematch", {}, player=bob).ok()
    assert taken["id"] == nxt["id"] and taken["status"] == "playing"
    assert taken["you"]["seat"] == 0


def test_a_rematch_keeps_the_bots_and_their_levels(api: Api) -> None:
    (alice,) = people("alice")
    game = finished_match(api, [alice], bots=1, bot_level="greedy")
    nxt = api.call("POST", f"/games/{game}/rematch", {}, player=alice).ok(201)
    assert [s["bot"] for s in nxt["seats"]] == [True, False]  # the bot moved to seat 0
    assert nxt["status"] == "playing"  # every seat taken: dealt at once
    record = wiring.service().store.load(nxt["id"])
    assert record is not None and record.seats[0].bot == "greedy"


@pytest.mark.parametrize("askers", [2, 3])
def test_players_asking_at_once_get_one_rematch(api: Api, askers: int) -> None:
    """Every seat asks at the same moment, on threads against DynamoDB Local: one game is made
    (one 201), and every asker gets it, seated."""
    players = people(*("pia", "quin", "rui")[:askers])
    body = {"preset": "clasico"} if askers == 3 else {}
    invitations = wiring.service().invitations

    def ask(game: str, start: threading.Barrier, player: str) -> tuple[str, bool]:
        start.wait()
        made = invitations.rematch(Caller(player, player.title()), game)
        return made.game.game_id, made.created

    for _round in range(3):
        game = finished_match(api, players, **body)
        start = threading.Barrier(askers)
        with ThreadPoolExecutor(askers) as pool:
            answers = list(pool.map(lambda p, g=game, b=start: ask(g, b, p), players))
        assert len({gid for gid, _ in answers}) == 1, answers
        assert sum(created for _, created in answers) == 1, answers
        (new,) = {gid for gid, _ in answers}
        final = api.get(new, players[0]).ok()
        assert final["status"] == "playing"  # every asker seated: dealt
        assert api.get(game, players[0]).ok()["rematch"] == new


def test_opponents_are_counted_once_per_match_most_recent_first(api: Api) -> None:
    alice, bob, carol = people("alice", "bob", "carol")
    assert api.call("GET", "/me/opponents", player=alice).ok() == {"opponents": [], "next": None}
    first = finished_match(api, [alice, bob])
    api.drain()
    listed = api.call("GET", "/me/opponents", player=alice).ok()["opponents"]
    assert [(o["player"], o["name"], o["matches"]) for o in listed] == [(bob, bob.capitalize(), 1)]
    assert listed[0]["last_played"] == api.get(first, alice).ok()["updated_at"]

    # a redelivered finish (the stream retries) counts nothing again
    record = wiring.service().store.load(first)
    assert record is not None
    seats = [(s.player, s.name) for s in record.seats if s.player and s.name]
    opponents = DynamoOpponents(wiring.table())
    assert opponents.record_match(first, seats, record.updated_at) == 0

    time.sleep(1.01)  # distinct end times
    second = api.call("POST", f"/games/{first}/rematch", {}, player=bob).ok(201)["id"]
    api.call("POST", f"/games/{first}/rematch", {}, player=alice).ok()
    play_out(api, second, [bob, alice])
    time.sleep(1.01)
    finished_match(api, [alice, carol])
    api.drain()
    api.drain()  # the rematch mark re-delivers the first game's finish: still counted once
    page = api.call("GET", "/me/opponents?limit=1", player=alice).ok()
    assert [(o["player"], o["matches"]) for o in page["opponents"]] == [(carol, 1)]
    rest = api.call("GET", f"/me/opponents?limit=1&cursor={page['next']}", player=alice).ok()
    assert [(o["player"], o["matches"]) for o in rest["opponents"]] == [(bob, 2)]
    assert rest["next"] is None
    bobs = api.call("GET", "/me/opponents", player=bob).ok()["opponents"]
    assert [(o["player"], o["matches"]) for o in bobs] == [(alice, 2)]
    refused(api.call("GET", "/me/opponents?cursor=bm9wZQ", player=alice), 400, "invalid_request")
    refused(api.call("GET", "/me/opponents?limit=0", player=alice), 400, "invalid_request")
