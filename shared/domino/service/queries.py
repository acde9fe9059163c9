"""The reads: a game as the caller may see it, its move log, and the lists of games."""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from domino.service.errors import Unavailable
from domino.service.loaded import Game, load_game
from domino.service.ports import GameStore, LiveGameStore, OpponentStore
from domino.service.values import Caller, GameSeen, Page
from domino.service.views import move_list, summary

#: the most moves one page of the log holds
MAX_MOVES_PAGE = 1000


class MovePage(NamedTuple):
    version: int
    moves: list[dict[str, Any]]
    next: int | None  # the ``after`` that reads the next page; None on the last
    seat: int | None  # the caller's seat (None: no seat); a seat's page may show tiles it drew


#: pauses between reads of a hand archive the stream consumer has not written yet (~1 s in all;
#: Lambda's DynamoDB stream delivery usually takes well under a second)
ARCHIVE_WAITS = (0.1, 0.2, 0.3, 0.4)


class GameQueries:
    def __init__(
        self,
        store: GameStore,
        opponents: OpponentStore | None = None,
        live_games: LiveGameStore | None = None,
    ) -> None:
        self.store = store
        self.opponents = opponents  # None: nobody's opponents are kept (tests of other things)
        self.live_games = live_games  # None: games in play are not listed

    def load(self, game_id: str) -> Game:
        """The game; ``GameNotFound`` (404) for an id that is no game's."""
        return load_game(self.store, game_id)

    def get(self, caller: Caller, game_id: str) -> GameSeen:
        return self.load(game_id).seen_by(caller.player)

    def moves(
        self, caller: Caller, game_id: str, after: int, limit: int = MAX_MOVES_PAGE
    ) -> MovePage:
        """The game's moves numbered above ``after``, at most ``limit``, as the caller may see
        them (a drawn tile only for its drawer), and the ``after`` of the next page."""
        game = self.load(game_id)
        seat = game.record.seat_of(caller.player)
        held: list[dict[str, Any]] = []
        first_held = 1
        if game.match is not None:
            held = game.match.moves(seat, after)
            first_held = game.match.first_held_n
        archived: list[dict[str, Any]] = []
        if after + 1 < first_held:  # hands older than the item holds live in archive items
            archived = self.archived(game.record.id, after, min(first_held, after + limit + 1))
        log = move_list(archived, seat) + move_list(held[: max(0, limit - len(archived))], seat)
        last = game.match.next_n - 1 if game.match is not None else 0
        following = log[-1]["n"] if log and log[-1]["n"] < last else None
        return MovePage(game.record.version, log, following, seat)

    def archived(self, game_id: str, after: int, first_held: int) -> list[dict[str, Any]]:
        """Moves ``after`` < n < ``first_held`` from the archive items. A hand can leave the
        item before the stream consumer has copied it (when it lags by a whole hand): wait a
        moment for it, then answer 503 rather than a log with a hole in it."""
        wanted = list(range(after + 1, first_held))
        for wait in (*ARCHIVE_WAITS, None):
            moves = [m for m in self.store.archived_moves(game_id) if after < m["n"] < first_held]
            if [m["n"] for m in moves] == wanted:
                return moves
            if wait is None:
                break
            time.sleep(wait)
        raise Unavailable()

    def games_in_play(self, caller: Caller, limit: int, cursor: str | None) -> Page:
        """Public games being played, the newest first (``GET /games?status=playing``): to
        watch. The list's entries are read whole, and one that is over meanwhile is left out."""
        if self.live_games is None:
            return Page([], None)
        ids, following = self.live_games.newest(limit, cursor)
        by_id = {r.id: r for r in self.store.load_many(ids)}
        records = [by_id[i] for i in ids if i in by_id]
        return Page(
            [
                summary(r, Game(r).turn, caller.player)
                for r in records
                if r.status == "playing" and not r.config.get("private")
            ],
            following,
        )

    def open_games(self, caller: Caller, limit: int, cursor: str | None) -> Page:
        records, following = self.store.open_games(limit, cursor)
        return Page([summary(r, None, caller.player) for r in records], following)

    def my_games(
        self,
        caller: Caller,
        status: str | None,
        turn_mine: bool,
        limit: int,
        cursor: str | None,
        updated_after: str | None = None,
    ) -> Page:
        """The caller's games, newest first; ``updated_after`` (``updated_at``'s ISO form):
        only those changed since (what changed while the app was offline)."""
        records, following = self.store.player_games(
            caller.player,
            status=status,
            turn_mine=turn_mine,
            limit=limit,
            cursor=cursor,
            updated_after=updated_after,
        )
        return Page([summary(r, Game(r).turn, caller.player) for r in records], following)

    def opponents_of(self, caller: Caller, limit: int, cursor: str | None) -> Page:
        """The people the caller met in finished matches, most recently first."""
        if self.opponents is None:
            return Page([], None)
        rows, following = self.opponents.page(caller.player, limit, cursor)
        return Page(rows, following)
