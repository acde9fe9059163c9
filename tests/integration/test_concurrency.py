"""Races on real DynamoDB Local: optimistic locking decides, never the client's timing.

Through the handlers each racer is a forked process, as concurrent requests in AWS run in
separate Lambda containers: Powertools resolvers keep the current event in class attributes, so
two threads of one process must not resolve requests at the same time (see ``race``). Below
the resolver, threads share one GameService and its store, as the local runtime does.
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest
from domino.api import idempotency, wiring
from domino.api.errors import STATUS_BY_CODE
from domino.engine.errors import DominoError
from domino.service.values import Caller, MakeMove

from tests.integration.client import DOS_DEAL, Api, Reply

pytestmark = pytest.mark.ddb


def race(calls: list[Callable[[], Reply]], timeout: float = 60) -> list[tuple[int, Any]]:
    """Run every call at once, one forked process each, released together by a barrier;
    returns (status, body) per call in order."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(len(calls))
    results = ctx.Queue()

    def racer(index: int) -> None:
        try:
            # its own boto3 clients, like its own container: every object the wiring keeps
            # (accounts, inbox, ratings...) holds a client, and a client made before the fork
            # shares its parent's connections, so two racers could read each other's answers
            # (a DELETE /me once got a profile for a game: KeyError 'version')
            for built in vars(wiring).values():
                if callable(getattr(built, "cache_clear", None)):
                    built.cache_clear()
            idempotency._records.cache_clear()
            wiring.service()
            idempotency._records()
            barrier.wait(timeout)
            reply = calls[index]()
            results.put((index, reply.status, reply.body))
        except BaseException:
            results.put((index, -1, traceback.format_exc()))

    processes = [ctx.Process(target=racer, args=(i,), daemon=True) for i in range(len(calls))]
    for process in processes:
        process.start()
    got = dict(
        (i, (status, body)) for i, status, body in (results.get(timeout=timeout) for _ in processes)
    )
    for process in processes:
        process.join(timeout)
    failed = [body for status, body in got.values() if status == -1]
    assert not failed, failed[0]
    return [got[i] for i in range(len(calls))]


def test_every_racer_builds_its_own_clients(api: Api) -> None:
    """Nothing a racer uses was built before the fork: a client made in this process shares
    its connections with every racer forked from it, and two racers on one connection can
    read each other's answers."""
    built_here = wiring.account_store().table.client  # as an earlier test's DELETE /me does

    def probe() -> Reply:
        shared = wiring.account_store().table.client is built_here
        return Reply(200, {}, shared, "")

    assert race([probe, probe]) == [(200, False), (200, False)]


def codes(results: list[tuple[int, Any]]) -> Counter[tuple[int, str | None]]:
    return Counter(
        (status, body["error"]["code"] if status >= 400 else None) for status, body in results
    )


def test_twenty_copies_of_one_play(api: Api) -> None:
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    results = race([lambda: api.play(game, "bob", "6-6")] * 20)
    tally = codes(results)
    assert tally[(200, None)] == 1, tally
    # the losers re-read the game: the play is no longer theirs to make (the same answer a
    # late duplicate gets), or the bounded re-apply ran out: 409 conflict
    assert set(tally) <= {(200, None), (422, "not_your_turn"), (409, "conflict")}, tally
    view = api.get(game, "bob").ok()
    assert view["version"] == 3
    assert [t["tile"] for t in view["board"]["tiles"]] == ["6-6"]
    winner = next(body for status, body in results if status == 200)
    assert winner == view
    moves = api.moves(game, "bob").ok()["moves"]
    assert [(m["seat"], m["action"]) for m in moves] == [(1, "play")]


def test_racing_for_the_last_seat(api: Api) -> None:
    for _round in range(3):
        game = api.create("alice", preset="dos-jugadores", players=2).ok(201)["id"]
        results = race([partial(api.join, game, "bob"), partial(api.join, game, "carol")])
        assert sorted(codes(results).elements()) == [(200, None), (409, "game_full")], results
        view = api.get(game, "alice").ok()
        assert view["version"] == 2 and view["status"] == "playing"
        winner = next(body for status, body in results if status == 200)
        seated = view["seats"][1]["player"]
        assert seated in ("bob", "carol") and winner["seats"][1]["player"] == seated
        loser = "carol" if seated == "bob" else "bob"
        assert "you" not in api.get(game, loser).ok()
        assert game not in my_games(api, loser) and game in my_games(api, seated)


def test_ten_players_racing_for_four_seats(api: Api) -> None:
    game = api.create("host", preset="clasico", players=5).ok(201)["id"]
    players = [f"racer{i}" for i in range(10)]
    results = race([partial(api.join, game, p) for p in players])
    tally = codes(results)
    assert tally == Counter({(200, None): 4, (409, "game_full"): 6}), tally
    view = api.get(game, "host").ok()
    assert view["version"] == 5 and view["status"] == "playing"  # 1 + four joins
    seated = [s["player"] for s in view["seats"]]
    assert len(set(seated)) == 5 and seated[0] == "host"
    assert sorted(
        p for p, (status, _) in zip(players, results, strict=True) if status == 200
    ) == sorted(seated[1:])


def test_one_player_joining_twice_at_once(api: Api) -> None:
    game = api.create("alice", preset="clasico", players=4).ok(201)["id"]
    results = race([lambda: api.join(game, "bob")] * 6)
    tally = codes(results)
    assert tally[(200, None)] == 1 and tally[(409, "already_joined")] == 5, tally
    view = api.get(game, "alice").ok()
    assert view["version"] == 2
    assert [s["player"] for s in view["seats"]].count("bob") == 1
    assert my_games(api, "bob").count(game) == 1


def test_twenty_threads_sharing_one_service(api: Api) -> None:
    """The same race on one process's GameService and store (as the local runtime shares them),
    below the resolver: exactly one play lands."""
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    service, bob = wiring.service(), Caller("bob", "Bob")
    barrier = threading.Barrier(20)

    def play() -> tuple[int, str | None]:
        barrier.wait(30)
        try:
            service.commands.move(bob, game, MakeMove("play", "6-6"), None)
            return 200, None
        except DominoError as err:
            return STATUS_BY_CODE[err.code], err.code

    with ThreadPoolExecutor(20) as pool:
        tally = Counter(pool.map(lambda _i: play(), range(20)))
    assert tally[(200, None)] == 1, tally
    assert set(tally) <= {(200, None), (422, "not_your_turn"), (409, "conflict")}, tally
    assert api.get(game, "bob").ok()["version"] == 3


def my_games(api: Api, player: str) -> list[str]:
    return [g["id"] for g in api.call("GET", "/me/games?limit=100", player=player).ok()["games"]]
