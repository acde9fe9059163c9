"""The stream's step when a match finishes: every seat's rating (a rated match) and every
person's stats, counted exactly once per game (docs/api.md#ratings, docs/decisions.md "Ratings
and leaderboards").

A game item whose status goes from ``playing`` to ``finished`` is tallied: the ranks come from
the result (``ratings.standings``), the new ratings from ``openskill``'s Weng-Lin Plackett-Luce
(a pair is one team), and everything is written in one transaction with the game's tally
marker (``DynamoRatings.tally``): a redelivered finish, or a retry after a crash, finds the
marker and changes nothing. A rating that another game changed since it was read fails its
version check: read again, rate again, retry. A person whose account was deleted (before the
game began) is rated with the rest, so everyone else's change is the same, but nothing is
written for them.

``openskill`` is imported only here, and only when a rated match is rated: never on the play
path, nor on the stream's cold start.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from domino.engine import decode
from domino.service.ports import RatingStore
from domino.service.ratings import MU0, SIGMA0, Rating, Side, left, pool_name, standings
from domino.store.errors import Unavailable
from domino.store.ratings import PlayerGone, RatingChange, StatsChange, TallyConflict
from domino.store.records import GameRecord, Item, record_from_image

#: tries of a tally that lost a race (a rating changed by another game meanwhile)
TALLY_ATTEMPTS = 12
TALLY_PAUSE_SECONDS = 0.02


@lru_cache(maxsize=1)
def _model() -> Any:
    from openskill.models import PlackettLuce  # ~40 ms: only when a rated match is rated

    return PlackettLuce(mu=MU0, sigma=SIGMA0)


def rate(sides: Sequence[Side], before: dict[int, Rating]) -> dict[int, Rating]:
    """Each seat's rating after the match (``before`` by seat): one Plackett-Luce update of
    the sides as teams, ranked by ``Side.rank``."""
    model = _model()
    teams = [
        [model.rating(mu=before[seat].mu, sigma=before[seat].sigma) for seat in side.seats]
        for side in sides
    ]
    rated = model.rate(teams, ranks=[side.rank for side in sides])
    after: dict[int, Rating] = {}
    for side, team in zip(sides, rated, strict=True):
        for seat, new in zip(side.seats, team, strict=True):
            old = before[seat]
            after[seat] = old._replace(
                mu=float(new.mu), sigma=float(new.sigma), games=old.games + 1
            )
    return after


def finished(old: GameRecord | None, new: GameRecord | None) -> bool:
    """Whether the change ends a match that was being played."""
    return (
        old is not None
        and new is not None
        and old.status == "playing"
        and new.status == "finished"
        and new.state is not None
    )


def is_rated(record: GameRecord) -> bool:
    """A rated match: the quick matcher's ranked game of people only (``config.rated``)."""
    return record.config.get("rated") is True and all(s.player for s in record.seats)


class MatchTally:
    """Counts a finished match's ratings and stats, once."""

    def __init__(self, store: RatingStore, pause: float = TALLY_PAUSE_SECONDS) -> None:
        self.store = store
        self.pause = pause

    def on_change(self, old_image: Item | None, new_image: Item | None) -> bool:
        """Tally the game when this change finished it; True when it was counted now."""
        new = record_from_image(new_image) if new_image else None
        old = record_from_image(old_image) if old_image else None
        if not finished(old, new):
            return False
        assert new is not None
        return self.tally(new)

    def tally(self, record: GameRecord) -> bool:
        assert record.state is not None
        match = decode(record.state)
        people = {
            seat: person.player
            for seat, person in enumerate(record.seats)
            if person.player is not None
        }
        players = list(dict.fromkeys(people.values()))
        pool = pool_name(record.preset, record.players)
        rated = is_rated(record) and len(players) == record.players
        winners = set(match.match_winners_)
        gone: set[str] = set()
        for attempt in range(TALLY_ATTEMPTS):
            if self.store.tallied(record.id):
                return False  # counted before: a redelivery
            left_since, chosen = self.store.standing(players, record.created_at)
            gone |= left_since
            # the leaderboard shows the name a player chose with PATCH /me over the seat's
            names = {
                seat: chosen.get(player) or record.seats[seat].name
                for seat, player in people.items()
            }
            changes: list[RatingChange] = []
            if rated:
                read = {seat: self.store.read(player, pool) for seat, player in people.items()}
                before = {
                    seat: stored or Rating(people[seat], pool)
                    for seat, (stored, _, _) in read.items()
                }
                after = rate(standings(record, match), before)
                changes = [
                    RatingChange(after[seat], read[seat][0], read[seat][1], names[seat])
                    for seat, player in people.items()
                    if player not in gone
                ]
            stats = [
                StatsChange(player, seat in winners, left(record, match, seat), names[seat])
                for seat, player in people.items()
                if player not in gone
            ]
            try:
                return self.store.tally(
                    record.id, pool, record.updated_at, changes, stats, record.created_at
                )
            except PlayerGone:
                continue  # read who is gone again, and leave them out
            except TallyConflict:
                time.sleep(self.pause * random.uniform(1, 2 ** min(attempt, 5)))
        raise Unavailable()  # the stream retries the record
