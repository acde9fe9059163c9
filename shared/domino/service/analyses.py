"""Analysis of finished matches (docs/api.md "Analysis"): queued by the table's stream when a
match finishes, computed once by a function of its own (functions/analysis: its own timeout and
memory, never inside a request), kept, and read with ``GET /games/{id}/analysis``.

The computation is the engine's (``engine.analysis``): the expert from each decision's
information set, a fixed budget of worlds a decision and decisions a match. It is kept with a
conditional write, so a job delivered twice (or two running at once) keeps one analysis and
the answer never changes once ready. ``status: pending`` until then; a read of a match that
finished a while ago with none kept (its job lost) queues it again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from domino.engine.analysis import Analysis, analyse
from domino.service.clock import Clock, system_clock
from domino.service.history import MatchHistory
from domino.service.ports import AnalysisStore
from domino.service.values import Caller
from domino.store.records import FINISHED_TTL_SECONDS, Item, record_from_image

logger = logging.getLogger(__name__)

#: a finished match with no analysis this long after it ended has lost its job: queue it again
REQUEUE_AFTER_SECONDS = 120


def summary(analysis: Analysis, people: list[int]) -> dict[str, Any]:
    """The answer's ``players`` and ``moves``."""
    players = []
    for seat in people:
        mine = [d for d in analysis.decisions if d.seat == seat]
        agreed = sum(d.played == d.best for d in mine)
        players.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "agreement": round(agreed / len(mine), 3) if mine else None,
                "points_lost": round(sum(d.lost for d in mine), 2),
            }
        )
    moves = [
        {"n": d.n, "seat": d.seat, "played": d.played, "best": d.best, "values": d.values}
        for d in analysis.decisions
    ]
    return {"players": players, "moves": moves, "skipped": analysis.skipped}


class Analyses:
    def __init__(
        self,
        store: AnalysisStore,
        history: MatchHistory,
        queue: Callable[[str], None] | None = None,
        clock: Clock = system_clock,
    ) -> None:
        self.store = store
        self.history = history
        self.queue = queue  # sends a match's job (None: no queue; tests run ``run`` themselves)
        self.clock = clock

    def get(self, caller: Caller, game_id: str) -> dict[str, Any]:
        """``GET /games/{id}/analysis``: 409 while the match runs; pending until computed."""
        game, _match = self.history.finished(caller, game_id)  # no moves read: not replayed
        kept = self.store.get(game_id)
        if kept is not None:
            return {"status": "ready", **kept}
        if self.queue is not None and self.clock() - game.record.updated_at > REQUEUE_AFTER_SECONDS:
            self.queue(game_id)
        return {"status": "pending", "players": [], "moves": []}

    def on_change(self, old_image: Item | None, new_image: Item) -> bool:
        """The stream: a match that has just finished gets its job queued; whether it did."""
        new = record_from_image(new_image)
        if new is None or new.status != "finished" or self.queue is None:
            return False
        old = record_from_image(old_image) if old_image else None
        if old is not None and old.status == "finished":
            return False
        self.queue(new.id)
        return True

    def run(self, game_id: str) -> bool:
        """The job: analyse the match and keep it, once; whether this run kept it."""
        if self.store.get(game_id) is not None:
            return False  # a job delivered again
        game, match, moves = self.history.played(None, game_id)
        record = game.record
        people = [i for i, s in enumerate(record.seats) if s.player is not None]
        analysis = analyse(
            match.rules,
            moves,
            seed=match.seed or 0,
            people=set(people),
            first=record.config.get("dealt"),
            at=match.start_at,
        )
        kept = self.store.put_once(
            game_id, summary(analysis, people), record.updated_at + FINISHED_TTL_SECONDS
        )
        logger.info("match analysed", extra={"decisions": len(analysis.decisions)})
        return kept


def job(game_id: str) -> str:
    """The queue message of a match's analysis."""
    return json.dumps({"game": game_id})
