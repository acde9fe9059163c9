"""A finished match's record (``GET /games/{id}/record``): every deal and every move, with
times, every tile revealed now that nothing is hidden any more.

Nothing is stored for it beyond what play keeps: the match's moves (the game item and its
archived hands) and its secret seed (``writes.deal``), from which every deal of the match
follows. The record is the match played again (``engine.replay``) from them, each hand's deal
read as it was made and its result as it ended; the replay's result must be the stored one.
A match begun before seeds were kept for every game cannot be played again: 404.
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from domino.engine import Match
from domino.engine.movelog import held
from domino.engine.replay import dealt, make, replay
from domino.service.errors import MatchNotOver, NotAPlayer, NotFound
from domino.service.loaded import Game
from domino.service.queries import GameQueries
from domino.service.values import Caller
from domino.store.records import iso

logger = logging.getLogger(__name__)


class Played(NamedTuple):
    game: Game
    match: Match
    moves: list[dict[str, Any]]


def readable_by(record: Any, caller: Caller) -> bool:
    """The players of a private game (those who left too); anyone for a public one."""
    if not record.config.get("private"):
        return True
    return any(seat.player == caller.player for seat in record.seats)


class MatchHistory:
    def __init__(self, queries: GameQueries) -> None:
        self.queries = queries

    def finished(self, caller: Caller | None, game_id: str) -> tuple[Game, Match]:
        """A finished match the caller may read (None: the service itself), and its stored
        match: 403 for a private one's stranger, 409 while it runs, 404 without a seed."""
        game = self.queries.load(game_id)
        record = game.record
        if caller is not None and not readable_by(record, caller):
            raise NotAPlayer("You have no seat in this game.")
        if record.status != "finished" or game.match is None:
            raise MatchNotOver()
        stored = game.match
        if stored.seed is None:
            raise NotFound("This match was played before records were kept.")
        return game, stored

    def played(self, caller: Caller | None, game_id: str) -> Played:
        """What a finished match was: the game, its stored match and every move record (full)."""
        game, stored = self.finished(caller, game_id)
        moves = self.queries.archived(game.record.id, 0, stored.first_held_n)
        moves += [dict(move) for move in held(stored)]
        return Played(game, stored, moves)

    def record(self, caller: Caller, game_id: str) -> dict[str, Any]:
        game, stored, moves = self.played(caller, game_id)
        record = game.record
        hands = self.hands(stored, record.config.get("dealt"), moves)
        return {
            "id": record.id,
            "preset": record.preset,
            "rules": game.rules.to_json(),
            "seats": [
                {"seat": i, "player": s.player, "name": s.name, "bot": s.bot is not None}
                for i, s in enumerate(record.seats)
            ],
            "seed": str(stored.seed),
            "hands": hands,
            "result": stored.result(),
            "started_at": iso(stored.start_at),
            "finished_at": iso(record.updated_at),
        }

    def hands(
        self, stored: Match, first: dict[str, Any] | None, moves: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each hand of the match played again from its seed: its deal, opener, moves and
        result."""
        m = replay(stored.rules, [], seed=stored.seed, deals={}, at=stored.start_at, first=first)
        hands: list[dict[str, Any]] = []

        def begin() -> None:
            seats, boneyard = dealt(m, m.hand_number)
            hands.append(
                {
                    "hand_number": m.hand_number,
                    "deal": {str(s): tiles for s, tiles in enumerate(seats)},
                    "boneyard": boneyard,
                    "opener": m.opener,
                    "moves": [],
                    "result": None,
                }
            )

        begin()
        for move in moves:
            # a hand_over record follows the move that ended its hand (and began the next)
            hand = next(h for h in reversed(hands) if h["hand_number"] == move["hand_number"])
            hand["moves"].append({**move, "at": iso(move.get("at"))})
            if move["action"] == "hand_over":
                continue
            make(m, move)
            if m.status == "finished" or m.hand_number != hand["hand_number"]:
                hand["result"] = m.last_hand()
                if m.status == "playing":
                    begin()
        if m.result() != stored.result():
            logger.error("a record's replay does not give its match's result")
            raise NotFound("This match's record cannot be played again.")
        return hands
