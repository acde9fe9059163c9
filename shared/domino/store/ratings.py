"""Ratings as stored: one item per (player, pool), ``pk=PLAYER#<player>, sk=RATING#<pool>``,
in the player's partition (so deleting the account erases them with the rest of it).

``mu`` and ``sigma`` are kept as text (the items hold no floats: records.py), ``games`` counts
the rated matches, ``rating`` is the number shown, and ``version`` orders the item's writes
(each update is conditional on the version it read).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domino.store.records import from_attributes, player_key, to_attributes
from domino.store.table import Table

RATING_PREFIX = "RATING#"
MU0 = 25.0
SIGMA0 = 25.0 / 3.0
PROVISIONAL_GAMES = 10


class Rating(NamedTuple):
    """A player's rating in one pool: the model's ``mu`` and ``sigma`` and how many rated
    matches made them."""

    player: str
    pool: str
    mu: float = MU0
    sigma: float = SIGMA0
    games: int = 0

    @property
    def shown(self) -> int:
        return shown_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: 1000 for a newcomer (mu0 - 3 sigma0 = 0)."""
    return round(1000 + 40 * (mu - 3 * sigma))


def rating_key(player: str, pool: str) -> dict[str, str]:
    return {"pk": player_key(player), "sk": f"{RATING_PREFIX}{pool}"}


def rating_item(rating: Rating, version: int, at: int) -> dict[str, Any]:
    return {
        **rating_key(rating.player, rating.pool),
        "mu": repr(rating.mu),
        "sigma": repr(rating.sigma),
        "games": rating.games,
        "rating": shown_rating(rating.mu, rating.sigma),
        "version": version,
        "changed": at,
    }


def rating_from_item(item: dict[str, Any]) -> tuple[Rating, int]:
    """The rating an item holds and the item's version."""
    player = str(item["pk"]).removeprefix("PLAYER#")
    pool = str(item["sk"]).removeprefix(RATING_PREFIX)
    rating = Rating(player, pool, float(item["mu"]), float(item["sigma"]), int(item["games"]))
    return rating, int(item.get("version", 0))


class DynamoRatings:
    def __init__(self, table: Table) -> None:
        self.table = table

    def get(self, player: str, pool: str) -> Rating:
        """The player's rating in ``pool`` (a newcomer's when none is stored)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes(rating_key(player, pool)),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return rating_from_item(from_attributes(item))[0] if item else Rating(player, pool)

    def put(self, rating: Rating, at: int) -> None:
        """Set a rating outright (dev mode's ``POST /dev/rating``; never the match path, which
        updates conditionally)."""
        self.table.call(
            self.table.client.put_item,
            TableName=self.table.name,
            Item=to_attributes(rating_item(rating, 0, at)),
        )
