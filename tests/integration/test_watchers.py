"""Watchers on DynamoDB Local: the bound of a game's watchers holds when many sockets watch at
once (the count is exactly the watch items), a move racing a watch keeps the count, and the
notifier posts a change's public view to each watcher once, dropping one whose socket is gone,
and reads nothing for a game nobody watches."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from domino.api import wiring
from domino.limits import MAX_WATCHERS
from domino.service.live import LiveChannel
from domino.store.watchers import WatchRefused

from tests.integration.client import DOS_DEAL, Api

pytestmark = pytest.mark.ddb


class Sockets:
    """A SocketGateway that records posts; ``gone`` connections refuse them."""

    def __init__(self, gone: set[str] | None = None) -> None:
        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.gone = gone or set()

    def post(self, connection_id: str, data: bytes) -> bool:
        if connection_id in self.gone:
            return False
        self.posts.append((connection_id, json.loads(data)))
        return True

    def close(self, connection_id: str) -> None:
        self.gone.add(connection_id)

    def is_open(self, connection_id: str) -> bool:
        return connection_id not in self.gone


class Unread:
    """A watcher store that must not be read."""

    def of_game(self, game_id: str) -> list[Any]:
        raise AssertionError("a game nobody watches was read for watchers")


def sockets_of(prefix: str, count: int) -> list[tuple[str, str]]:
    """``count`` watchers' (player, connection id), each socket's item written as $connect
    writes it."""
    found = [(f"{prefix}p{i}", f"{prefix}c{i}") for i in range(count)]
    for player, connection in found:
        wiring.connection_store().add(player, connection, 1_800_000_000, None)
    return found


def test_a_games_watchers_stay_within_the_bound_under_a_crowd(api: Api) -> None:
    game = api.create("wan", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "wen").ok()
    store = wiring.watcher_store()
    crowd = sockets_of("crowd", MAX_WATCHERS + 8)
    refused: list[str] = []
    start = threading.Barrier(8)

    def watch(part: list[tuple[str, str]]) -> None:
        start.wait()
        for player, connection in part:
            try:
                store.watch(game, player, connection, 1_800_000_000, MAX_WATCHERS, 10)
            except WatchRefused as refusal:
                refused.append(refusal.reason)

    threads = [threading.Thread(target=watch, args=(crowd[i::8],)) for i in range(8)]
    for thread in threads:
        thread.start()
    moved = api.play(game, "wen", "6-6")  # a move racing the crowd saves with the count
    for thread in threads:
        thread.join()
    assert moved.status == 200
    assert refused == ["game"] * 8
    watchers = store.of_game(game)
    assert len(watchers) == MAX_WATCHERS
    assert api.get(game, "wan").ok()["watchers"] == MAX_WATCHERS
    for player, connection in crowd[:10]:
        store.unwatch(game, player, connection)
    assert api.get(game, "wan").ok()["watchers"] == len(store.of_game(game)) == MAX_WATCHERS - 10


def test_the_notifier_posts_the_public_view_to_each_watcher(api: Api) -> None:
    game = api.create("xan", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "xen").ok()
    store = wiring.watcher_store()
    watchers = sockets_of("fan", 3)
    for player, connection in watchers:
        store.watch(game, player, connection, 1_800_000_000, MAX_WATCHERS, 10)
    gone = watchers[2][1]
    sockets = Sockets({gone})
    channel = LiveChannel(wiring.connection_store(), sockets, watchers=store)
    before = wiring.service().store.load(game)
    api.play(game, "xen", "6-6").ok()
    after = wiring.service().store.load(game)
    assert before is not None and after is not None
    channel.begin(before, after)
    assert channel.watched() == 3
    assert {c for c, _ in sockets.posts} == {watchers[0][1], watchers[1][1]}
    public = api.get(game, "zed").ok()  # a stranger's view
    for _, message in sockets.posts:
        assert message["type"] == "game_changed" and message["notification"] is None
        assert message["view"] == {**public, "watchers": 3}
        assert [m["tile"] for m in message["moves"]] == ["6-6"]
    assert {w.connection_id for w in store.of_game(game)} == {c for _, c in watchers[:2]}
    # nobody watching: nothing read, nothing posted
    lonely = api.create("yan", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    quiet = Sockets()
    channel = LiveChannel(wiring.connection_store(), quiet, watchers=Unread())
    record = wiring.service().store.load(lonely)
    assert record is not None and record.watchers == 0
    channel.begin(None, record)
    assert channel.watched() == 0 and quiet.posts == []


def test_public_games_in_play_are_listed_to_watch_until_they_end(api: Api) -> None:
    public = api.create("lia", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    private = api.create("lia", preset="dos-jugadores", players=2, deal=DOS_DEAL, private=True).ok(
        201
    )["id"]
    api.join(private, "leo").ok()
    api.drain()
    listed = api.call("GET", "/games?status=playing&limit=100", player="mia").ok()["games"]
    assert public not in {g["id"] for g in listed}  # still waiting: not in play
    api.join(public, "leo").ok()
    api.drain()
    listed = api.call("GET", "/games?status=playing&limit=100", player="mia").ok()["games"]
    ids = [g["id"] for g in listed]
    assert public in ids and private not in ids
    assert next(g for g in listed if g["id"] == public)["status"] == "playing"
    api.leave(public, "lia").ok()  # a forfeit: the bot plays on
    api.leave(public, "leo").ok()  # nobody left: the bots play the match out
    api.drain()
    assert api.get(public, "mia").ok()["status"] == "finished"
    listed = api.call("GET", "/games?status=playing&limit=100", player="mia").ok()["games"]
    assert public not in {g["id"] for g in listed}
    first = api.call("GET", "/games?status=playing&limit=1", player="mia").ok()
    if first["next"]:  # the cursor reads on
        assert (
            api.call(
                "GET", f"/games?status=playing&limit=1&cursor={first['next']}", player="mia"
            ).status
            == 200
        )
