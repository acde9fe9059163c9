"""Watching a game that is not private (docs/api.md "Watching"): a socket sends
``{"action": "watch", "game"}`` and gets ``{"type": "watching", "game", "version", "view"}`` (the
public view: no hand), then a ``game_changed`` with the public view for every change of the game;
``{"action": "unwatch", "game"}`` stops it. A watcher is not a seat: the HTTP API refuses its
moves as it refuses any stranger's.

Bounds: MAX_WATCHERS sockets a game, MAX_WATCHED games a socket (``domino.store.watchers``
holds both in one transaction). The notifier reaches a game's watchers with one Query of its
watch items, only when the game item's count says it has any (``LiveChannel.watched``); a watcher
whose socket is gone is dropped when a post to it fails, and every watch of a socket goes at its
``$disconnect``.
"""

from __future__ import annotations

from typing import Any

from domino.limits import MAX_WATCHED, MAX_WATCHERS
from domino.service.clock import Clock, system_clock
from domino.service.errors import GameNotFound
from domino.service.loaded import GAME_ID, load_game
from domino.service.ports import GameStore, WatcherStore
from domino.service.values import Caller
from domino.store.watchers import WatchRefused

#: what a refused watch answers: its code and its message
REFUSALS = {
    "invalid_request": "game is a game's id.",
    "game_not_found": "No such game.",
    "not_watchable": "A private game cannot be watched.",
    "playing": "You play this game: its changes reach you already.",
    "too_many_watchers": f"This game has its {MAX_WATCHERS} watchers already.",
    "too_many_watched": f"A socket watches at most {MAX_WATCHED} games.",
}


def refused(code: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": REFUSALS[code]}


class Watching:
    def __init__(self, store: WatcherStore, games: GameStore, clock: Clock = system_clock) -> None:
        self.store = store
        self.games = games
        self.clock = clock

    def watch(self, caller: Caller, connection_id: str, game_id: object) -> dict[str, Any]:
        """The answer to ``watch``: ``watching`` with the public view, or a refusal."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            return refused("invalid_request")
        try:
            record = load_game(self.games, game_id).record
        except GameNotFound:
            return refused("game_not_found")
        if record.config.get("private"):
            return refused("not_watchable")
        if record.seat_of(caller.player) is not None:
            return refused("playing")
        try:
            self.store.watch(
                game_id, caller.player, connection_id, int(self.clock()), MAX_WATCHERS, MAX_WATCHED
            )
        except WatchRefused as refusal:
            if refusal.reason == "socket":
                return refused("too_many_watched")
            try:  # the game gone meanwhile, or full
                load_game(self.games, game_id)
            except GameNotFound:
                return refused("game_not_found")
            return refused("too_many_watchers")
        seen = load_game(self.games, game_id).seen_by(None)  # with the count that has it
        return {"type": "watching", "game": game_id, "version": seen.version, "view": seen.view}

    def unwatch(self, caller: Caller, connection_id: str, game_id: object) -> dict[str, Any]:
        """The answer to ``unwatch``: ``unwatched`` (also when it was not watched)."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            return refused("invalid_request")
        self.store.unwatch(game_id, caller.player, connection_id)
        return {"type": "unwatched", "game": game_id}

    def forget(self, player: str, connection_id: str) -> int:
        """The socket closes: each game it watched loses it; how many."""
        games = self.store.watched_by(player, connection_id)
        for game_id in games:
            self.store.unwatch(game_id, player, connection_id)
        return len(games)
