"""Ratings per pool (docs/api.md#ratings): the numbers every feature that seats strangers reads.

A **pool** is a preset and a player count, ``<preset>:<players>`` (``dos-jugadores:2``). The
model is Weng-Lin (OpenSkill's Plackett-Luce) with mu0 = 25 and sigma0 = 25/3; the number shown
is ``round(1000 + 40 * (mu - 3 * sigma))``, so a newcomer shows 1000. A rating is provisional
for its first ``PROVISIONAL_GAMES`` rated matches. The update itself (``openskill``) is imported
only where a finished rated match is rated, never on the play path.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple

from domino.engine import PRESETS, Match
from domino.engine.errors import InvalidInput
from domino.engine.scoring import side_totals
from domino.limits import MAX_PLAYER_ID
from domino.service.errors import PlayerNotFound
from domino.store.cursors import decode_cursor, encode_cursor
from domino.store.ratings import (
    BUCKET_POINTS,
    MAX_BUCKET,
    MU0,
    PROVISIONAL_GAMES,
    SIGMA0,
    Rating,
    bucket_of,
    shown_rating,
)
from domino.store.records import GameRecord, iso, player_key

if TYPE_CHECKING:
    from domino.service.ports import RatingStore

#: /leaderboards/{pool}/me's exact rank reaches this far (beyond it rank is null)
EXACT_RANK = 1000
#: a leaderboard cursor: the last row's player, rating, position and rank
BOARD_CURSOR = {
    "p": re.compile(rf"[^\x00-\x1f\x7f]{{1,{MAX_PLAYER_ID}}}"),
    "r": re.compile(r"-?[0-9]{1,6}"),
    "n": re.compile(r"[0-9]{1,9}"),
    "k": re.compile(r"[0-9]{1,9}"),
}
#: dev mode's POST /dev/rating bounds
MU_RANGE = (-100.0, 200.0)
SIGMA_RANGE = (0.001, 50.0)
MAX_DEV_GAMES = 1_000_000

__all__ = [
    "MU0",
    "PROVISIONAL_GAMES",
    "SIGMA0",
    "Rating",
    "Side",
    "parse_pool",
    "pool_name",
    "shown_rating",
    "standings",
]


#: a pool's text at most: a preset id, a colon and the player count
MAX_POOL_LENGTH = 64


def pool_name(preset: str, players: int) -> str:
    return f"{preset}:{players}"


def parse_pool(pool: str) -> tuple[str, int]:
    """``(preset, players)`` of a pool's text; ``InvalidInput`` for an unknown preset or a
    player count the preset is not played with."""
    preset_id, _, count = pool.partition(":") if len(pool) <= MAX_POOL_LENGTH else ("", "", "")
    preset = PRESETS.get(preset_id)
    if preset is None or not count.isdigit() or count != str(int(count)):
        raise InvalidInput("A pool is <preset>:<players>, such as dos-jugadores:2.")
    players = int(count)
    if not preset.min_players <= players <= preset.max_players:
        raise InvalidInput(
            "{preset} is played by {min} to {max} players.",
            preset=preset_id,
            min=preset.min_players,
            max=preset.max_players,
        )
    return preset_id, players


class Side(NamedTuple):
    """One side of a finished match as rated: its seats (a pair's two, or one) and its rank
    (0 is first; equal ranks tie)."""

    seats: tuple[int, ...]
    rank: int


def left(record: GameRecord, match: Match, seat: int) -> bool:
    """Whether the seat's person left or forfeited (a bot has played it since)."""
    person = record.seats[seat]
    return seat in match.forfeits or (person.player is not None and person.bot is not None)


def standings(record: GameRecord, match: Match) -> list[Side]:
    """The sides of a finished match ranked by its result (docs/api.md#ratings): the match
    winners first; then by match total, highest first (under ``penalty`` scoring the lowest);
    equal results tie; a side whose person left or forfeited ranks last, behind every other
    (with pairs, the leaver's pair: the engine bars that pair from winning too), and leavers
    tie among themselves."""
    rules = match.rules
    pairs = rules.teams == "pairs"
    seats: dict[int, list[int]] = {}
    for seat in range(len(record.seats)):
        seats.setdefault(seat % 2 if pairs else seat, []).append(seat)
    totals = side_totals(rules, match.scores)
    winners = {s % 2 if pairs else s for s in match.match_winners_}
    sign = 1 if rules.out_scoring == "penalty" else -1

    def result(side: int) -> tuple[int, int, int]:
        if any(left(record, match, s) for s in seats[side]):
            return (1, 0, 0)  # leavers tie, last: their seat's bot played for nobody's rating
        return (0, 0 if side in winners else 1, sign * totals[side])

    results = {side: result(side) for side in seats}
    ordered = sorted(set(results.values()))
    return [Side(tuple(seats[side]), ordered.index(results[side])) for side in seats]


def checked_pool(pool: str) -> str:
    """The pool's text when it names a preset and a player count it is played with."""
    parse_pool(pool)
    return pool


class RatingQueries:
    """``GET /players/{id}``, ``GET /leaderboards/{pool}`` and ``/me``, and dev mode's
    ``POST /dev/rating``."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    def player(self, player: str) -> dict[str, Any]:
        """docs/api.md#ratings: a known player's public profile (``PlayerNotFound`` for one
        never seen, or deleted)."""
        if not player or len(player) > MAX_PLAYER_ID:
            raise PlayerNotFound()
        found = self.store.player_items(player)
        if not found.known:
            raise PlayerNotFound()
        return {
            "player": player,
            "name": found.name or player,
            "since": iso(found.since),
            "ratings": [
                {
                    "pool": r.pool,
                    "rating": r.shown,
                    "games": r.games,
                    "provisional": r.provisional,
                }
                for r in sorted(found.ratings, key=lambda r: r.pool)
            ],
            "stats": found.stats._asdict(),
        }

    def leaderboard(self, pool: str, limit: int, cursor: str | None) -> dict[str, Any]:
        """A page of the pool's established ratings, highest first; equal ratings share a
        rank (1 + how many rate higher)."""
        checked_pool(pool)
        after = position = rank = None
        previous: int | None = None
        if cursor:
            at = decode_cursor(cursor, BOARD_CURSOR)
            player_key(at["p"])
            after = {"player": at["p"], "rating": int(at["r"])}
            previous, position, rank = int(at["r"]), int(at["n"]), int(at["k"])
        rows, following = self.store.top(pool, limit, after)
        players = []
        position = position or 0
        for row in rows:
            position += 1
            rank = rank if row.rating == previous and rank is not None else position
            previous = row.rating
            players.append(
                {
                    "rank": rank,
                    "player": row.player,
                    "name": row.name or row.player,
                    "rating": row.rating,
                    "games": row.games,
                }
            )
        next_cursor = None
        if following is not None and rows:
            next_cursor = encode_cursor(
                {
                    "p": rows[-1].player,
                    "r": str(rows[-1].rating),
                    "n": str(position),
                    "k": str(rank),
                }
            )
        return {"pool": pool, "players": players, "next": next_cursor}

    def mine(self, player: str, pool: str) -> dict[str, Any]:
        """The caller's rating in the pool, their exact rank within the top ``EXACT_RANK``
        and their percentile from the pool's histogram (both null while provisional)."""
        checked_pool(pool)
        rating = self.store.get(player, pool)
        answer: dict[str, Any] = {
            "pool": pool,
            "rating": rating.shown,
            "games": rating.games,
            "provisional": rating.provisional,
            "rank": None,
            "percentile": None,
        }
        if rating.provisional:
            return answer
        shown = rating.shown
        above = self.store.count_rated(pool, shown + 1, None, EXACT_RANK)
        answer["rank"] = above + 1 if above < EXACT_RANK else None
        answer["percentile"] = self.percentile(pool, shown)
        return answer

    def percentile(self, pool: str, shown: int) -> float:
        """The share of the pool's established ratings below ``shown``, in percent, within a
        point: whole buckets from the histogram; the caller's own bucket by interpolation
        when it holds at most 1 % of the pool, else counted exactly on the index (a Query of
        that bucket's keys only)."""
        counts = self.store.histogram(pool)
        total = sum(max(c, 0) for c in counts.values())
        if total <= 0:
            return 0.0
        mine = bucket_of(shown)
        below = float(sum(c for b, c in counts.items() if b < mine and c > 0))
        inside = max(counts.get(mine, 0), 0)
        low = mine * BUCKET_POINTS if mine > 0 else -(10**6)
        if inside * 100 <= total and 0 < mine < MAX_BUCKET:
            below += inside * (shown - low) / BUCKET_POINTS
        elif inside and shown > low:
            below += self.store.count_rated(pool, low, shown - 1, inside)
        return round(min(max(100.0 * below / total, 0.0), 100.0), 1)

    def set_rating(
        self, player: str, pool: str, mu: float, sigma: float, games: int | None, at: int
    ) -> None:
        """Dev mode: the player's rating in the pool, outright (``games`` None: the stored
        count, at least ``PROVISIONAL_GAMES``: a known strength is an established one)."""
        checked_pool(pool)
        player_key(player)
        if not MU_RANGE[0] <= mu <= MU_RANGE[1]:
            raise InvalidInput("mu must be from {min} to {max}.", min=MU_RANGE[0], max=MU_RANGE[1])
        if not SIGMA_RANGE[0] <= sigma <= SIGMA_RANGE[1]:
            raise InvalidInput(
                "sigma must be from {min} to {max}.", min=SIGMA_RANGE[0], max=SIGMA_RANGE[1]
            )
        if games is None:
            games = max(self.store.get(player, pool).games, PROVISIONAL_GAMES)
        self.store.put(Rating(player, pool, float(mu), float(sigma), games), at)
