"""Ratings as stored: one item per (player, pool), ``pk=PLAYER#<player>, sk=RATING#<pool>``,
in the player's partition (so deleting the account erases them with the rest of it).

``mu`` and ``sigma`` are kept as text (the items hold no floats: records.py), ``games`` counts
the rated matches, ``rating`` is the number shown, and ``version`` orders the item's writes
(each update is conditional on the version it read). ``name`` is the name the player chose
with ``PATCH /me`` (``rename`` writes it on every rating), else the name their seat showed in
the match that last changed it (the leaderboard reads it from the index).

Beside them (docs/decisions.md, "Ratings and leaderboards"):

- the **leaderboard index** ``leaderboard`` (sparse): only a rating past its provisional
  matches carries ``lb_pool`` (the pool) and ``lb_rating`` (the number shown), so the top of a
  pool is one Query, highest first;
- the **histogram** of each pool's non-provisional ratings, ``pk=POOL#<pool>,
  sk=HIST#<shard>``: one number attribute ``b<n>`` per bucket of ``BUCKET_POINTS`` rating
  points, spread over ``HIST_SHARDS`` items (a game adds to the shard its id hashes to; the
  counts are the sum over the shards). ``/leaderboards/{pool}/me``'s percentile reads it;
- each person's **stats**, ``pk=PLAYER#<player>, sk=STATS``: finished matches, wins, forfeits;
- the **tally marker** of a finished game, ``pk=GAME#<id>, sk=TALLY``: its ratings and stats
  were counted. It is written in the same transaction as every rating, stat and histogram
  change of the game, with ``attribute_not_exists``: a redelivered finish finds it and changes
  nothing, so each game counts exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.accounts import PROFILE_SK
from domino.store.errors import Unavailable, cancellation_codes
from domino.store.records import (
    FINISHED_TTL_SECONDS,
    from_attributes,
    game_key,
    player_key,
    shard_of,
    to_attributes,
)
from domino.store.table import Table

RATING_PREFIX = "RATING#"
STATS_SK = "STATS"
TALLY_SK = "TALLY"
LEADERBOARD_INDEX = "leaderboard"
#: a histogram bucket's width in rating points, and the buckets' range (ratings outside it
#: count in the first or last bucket)
BUCKET_POINTS = 10
MAX_BUCKET = 399
#: the histogram of a pool is spread over this many items (docs/SCALE.md)
HIST_SHARDS = 8
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


def rating_item(rating: Rating, version: int, at: int, name: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {
        **rating_key(rating.player, rating.pool),
        "mu": repr(rating.mu),
        "sigma": repr(rating.sigma),
        "games": rating.games,
        "rating": shown_rating(rating.mu, rating.sigma),
        "version": version,
        "changed": at,
    }
    if name:
        item["name"] = name
    if not rating.provisional:  # the sparse leaderboard index holds established ratings only
        item["lb_pool"] = rating.pool
        item["lb_rating"] = item["rating"]
    return item


def bucket_of(rating: int) -> int:
    """The histogram bucket of a shown rating."""
    return min(max(rating // BUCKET_POINTS, 0), MAX_BUCKET)


def counted(rating: Rating | None) -> int | None:
    """The bucket ``rating`` counts in (None: provisional or absent, not in the histogram)."""
    return None if rating is None or rating.provisional else bucket_of(rating.shown)


def histogram_key(pool: str, shard: int) -> dict[str, str]:
    return {"pk": f"POOL#{pool}", "sk": f"HIST#{shard}"}


class RatingChange(NamedTuple):
    """A rating a finished match sets: ``before`` as read (None: no item yet) at ``version``,
    and ``name`` the seat's name."""

    after: Rating
    before: Rating | None
    version: int | None
    name: str | None = None


class StatsChange(NamedTuple):
    """One person's finished match: won it, forfeited it (left or timed out under forfeit)."""

    player: str
    won: bool
    forfeited: bool
    name: str | None = None


class Stats(NamedTuple):
    matches: int = 0
    wins: int = 0
    forfeits: int = 0


class PlayerItems(NamedTuple):
    """What ``GET /players/{id}`` reads of a player's partition (one Query)."""

    name: str | None  # the profile's chosen name, else the latest seat's
    deleted_at: int | None
    since: int | None
    ratings: list[Rating]
    stats: Stats
    known: bool  # a profile, a rating or stats: someone this service has seen


class Ranked(NamedTuple):
    """A leaderboard row as the index holds it."""

    player: str
    name: str | None
    rating: int
    games: int


class TallyConflict(Exception):
    """Another write changed a rating (or touched the same items) since it was read: read
    again and retry."""


class PlayerGone(TallyConflict):
    """A player's account was deleted (before the game began): leave them out and retry."""


def histogram_update(
    table: Table, pool: str, shard: int, deltas: dict[int, int]
) -> dict[str, Any] | None:
    """One transaction entry adding ``deltas`` (bucket -> count) to a histogram shard (None
    when they cancel out: a transaction may touch an item once only)."""
    moved = {b: d for b, d in sorted(deltas.items()) if d}
    if not moved:
        return None
    names = {f"#b{b}": f"b{b}" for b in moved}
    values = {f":d{b}": d for b, d in moved.items()}
    return {
        "Update": {
            "TableName": table.name,
            "Key": to_attributes(histogram_key(pool, shard)),
            "UpdateExpression": "ADD " + ", ".join(f"#b{b} :d{b}" for b in moved),
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": to_attributes(values),
        }
    }


def moved_buckets(pairs: Iterable[tuple[Rating | None, Rating | None]]) -> dict[int, int]:
    """The histogram's change when each ``before`` becomes its ``after``."""
    deltas: dict[int, int] = {}
    for before, after in pairs:
        old, new = counted(before), counted(after)
        if old == new:
            continue
        if old is not None:
            deltas[old] = deltas.get(old, 0) - 1
        if new is not None:
            deltas[new] = deltas.get(new, 0) + 1
    return deltas


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

    def read(self, player: str, pool: str) -> tuple[Rating | None, int | None, str | None]:
        """The stored rating, its version and name (None, None, None: none stored)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes(rating_key(player, pool)),
            ConsistentRead=True,
        )
        item = response.get("Item")
        if not item:
            return None, None, None
        plain = from_attributes(item)
        rating, version = rating_from_item(plain)
        return rating, version, plain.get("name")

    def put(self, rating: Rating, at: int) -> None:
        """Set a rating outright (dev mode's ``POST /dev/rating``; never the match path): a
        conditional write on the version read, with the histogram moved in the same
        transaction, so the index and the histogram stay in step."""
        for _attempt in range(8):
            before, version, name = self.read(rating.player, rating.pool)
            items = [self._put_rating(RatingChange(rating, before, version, name), at)]
            shard = shard_of(rating.player, HIST_SHARDS)
            moved = histogram_update(
                self.table, rating.pool, shard, moved_buckets([(before, rating)])
            )
            items += [moved] if moved else []
            try:
                self.table.call(self.table.client.transact_write_items, TransactItems=items)
                return
            except ClientError as err:
                if err.response["Error"]["Code"] != "TransactionCanceledException":
                    raise
        raise Unavailable()

    def _put_rating(self, change: RatingChange, at: int) -> dict[str, Any]:
        version = (change.version or 0) + 1
        put: dict[str, Any] = {
            "TableName": self.table.name,
            "Item": to_attributes(rating_item(change.after, version, at, change.name)),
        }
        if change.version is None:
            put["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            put["ConditionExpression"] = "version = :v"
            put["ExpressionAttributeValues"] = to_attributes({":v": change.version})
        return {"Put": put}

    # ------------------------------------------------------------------ a finished match

    def tallied(self, game_id: str) -> bool:
        """Whether the game's ratings and stats were counted already."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": game_key(game_id), "sk": TALLY_SK}),
            ConsistentRead=True,
            ProjectionExpression="pk",
        )
        return bool(response.get("Item"))

    def standing(self, players: Sequence[str], since: int) -> tuple[set[str], dict[str, str]]:
        """Who of ``players`` deleted their account at or after ``since`` (a tombstone), and
        the names the others chose with ``PATCH /me`` (their profiles, one read each)."""
        gone: set[str] = set()
        chosen: dict[str, str] = {}
        for player in players:
            response = self.table.call(
                self.table.client.get_item,
                TableName=self.table.name,
                Key=to_attributes({"pk": player_key(player), "sk": PROFILE_SK}),
                ConsistentRead=True,
                ProjectionExpression="deleted, #name",
                ExpressionAttributeNames={"#name": "name"},
            )
            item = response.get("Item") or {}
            deleted = item.get("deleted")
            if deleted is not None and int(deleted["N"]) >= since:
                gone.add(player)
            elif "name" in item:
                chosen[player] = item["name"]["S"]
        return gone, chosen

    def rename(self, player: str, name: str) -> int:
        """Show ``name`` on every rating the player holds (the leaderboard reads it from the
        index): one conditional update each, which moves the item's version on, so a match
        being counted with the name read before fails its version check and reads again."""
        renamed = 0
        for raw in self._rating_items(player):
            try:
                self.table.call(
                    self.table.client.update_item,
                    TableName=self.table.name,
                    Key={"pk": raw["pk"], "sk": raw["sk"]},
                    UpdateExpression="SET #name = :name, version = version + :one",
                    ConditionExpression="attribute_exists(version)",
                    ExpressionAttributeNames={"#name": "name"},
                    ExpressionAttributeValues=to_attributes({":name": name, ":one": 1}),
                )
                renamed += 1
            except ClientError as err:
                if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    raise
        return renamed

    def _rating_items(self, player: str) -> list[dict[str, Any]]:
        """The player's rating items, as stored (every page)."""
        return list(
            self.table.query(
                TableName=self.table.name,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
                ExpressionAttributeValues=to_attributes(
                    {":pk": player_key(player), ":r": RATING_PREFIX}
                ),
                ConsistentRead=True,
            )
        )

    def tally(
        self,
        game_id: str,
        pool: str,
        at: int,
        ratings: Sequence[RatingChange],
        stats: Sequence[StatsChange],
        alive_since: int,
    ) -> bool:
        """Count a finished game once: the marker, every rating (each on the version read),
        every person's stats and the histogram's change, in one transaction, each person
        checked not deleted at or after ``alive_since``. False: counted before (a
        redelivery). ``TallyConflict``: a rating moved since it was read, or a concurrent
        transaction touched the same items; ``PlayerGone``: an account was deleted."""
        marker = {
            "pk": game_key(game_id),
            "sk": TALLY_SK,
            "at": at,
            "ttl": at + FINISHED_TTL_SECONDS,
        }
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table.name,
                    "Item": to_attributes(marker),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        ]
        items += [self._put_rating(change, at) for change in ratings]
        for change in stats:
            values: dict[str, Any] = {
                ":one": 1,
                ":won": int(change.won),
                ":forfeited": int(change.forfeited),
                ":at": at,
            }
            sets = "since = if_not_exists(since, :at), changed = :at"
            if change.name:
                values[":name"] = change.name
                sets += ", #name = :name"
            update: dict[str, Any] = {
                "TableName": self.table.name,
                "Key": to_attributes({"pk": player_key(change.player), "sk": STATS_SK}),
                "UpdateExpression": f"SET {sets} ADD matches :one, wins :won, forfeits :forfeited",
                "ExpressionAttributeValues": to_attributes(values),
            }
            if change.name:
                update["ExpressionAttributeNames"] = {"#name": "name"}
            items.append({"Update": update})
        people = sorted({c.after.player for c in ratings} | {c.player for c in stats})
        checks_from = len(items)
        for player in people:
            items.append(
                {
                    "ConditionCheck": {
                        "TableName": self.table.name,
                        "Key": to_attributes({"pk": player_key(player), "sk": PROFILE_SK}),
                        "ConditionExpression": "attribute_not_exists(deleted) OR deleted < :since",
                        "ExpressionAttributeValues": to_attributes({":since": alive_since}),
                    }
                }
            )
        moved = histogram_update(
            self.table,
            pool,
            shard_of(game_id, HIST_SHARDS),
            moved_buckets((c.before, c.after) for c in ratings),
        )
        items += [moved] if moved else []
        try:
            self.table.call(self.table.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            codes = cancellation_codes(err)
            if codes and codes[0] == "ConditionalCheckFailed":
                return False
            if any(code in ("ThrottlingError", "ProvisionedThroughputExceeded") for code in codes):
                raise Unavailable() from err
            if "ConditionalCheckFailed" in codes[checks_from : checks_from + len(people)]:
                raise PlayerGone() from err
            raise TallyConflict() from err
        return True

    # ------------------------------------------------------------------ reads

    def player_items(self, player: str) -> PlayerItems:
        """The player's profile, ratings and stats: one Query of their partition (the sort
        keys from PROFILE to STATS; the read marker that sorts among them is skipped)."""
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :from AND :to",
            ExpressionAttributeValues=to_attributes(
                {":pk": player_key(player), ":from": PROFILE_SK, ":to": STATS_SK}
            ),
        )
        chosen = seat_name = deleted = None
        times: list[int] = []  # when each item began (the earliest is "since")
        latest = 0  # the latest change of a rating or the stats
        ratings: list[Rating] = []
        stats = Stats()
        profile_alive = False
        for raw in items:
            item = from_attributes(raw)
            sk = str(item["sk"])
            if sk == PROFILE_SK:
                chosen, deleted = item.get("name"), item.get("deleted")
                profile_alive = deleted is None
                if profile_alive and item.get("changed"):
                    times.append(int(item["changed"]))
            elif sk.startswith(RATING_PREFIX):
                ratings.append(rating_from_item(item)[0])
                seat_name = seat_name or item.get("name")
                latest = max(latest, int(item.get("changed", 0)))
                times.append(int(item.get("changed", 0)))
            elif sk == STATS_SK:
                stats = Stats(
                    int(item.get("matches", 0)),
                    int(item.get("wins", 0)),
                    int(item.get("forfeits", 0)),
                )
                seat_name = item.get("name") or seat_name
                latest = max(latest, int(item.get("changed", 0)))
                times.append(int(item.get("since", 0)))
        # a tombstone hides what its account left, unless the person played again since
        played = bool(ratings) or stats.matches > 0
        known = profile_alive or (played and (deleted is None or latest > int(deleted)))
        if not known and deleted is None:
            # no profile, rating or match yet: anything else of theirs (a seat in a game, a
            # device) makes them someone this service has met; its earliest `joined` is since
            joined = self._first_joined(player)
            known = joined is not None
            times.append(joined or 0)
        since = min((t for t in times if t), default=None)
        if deleted is not None and not profile_alive:
            deleted = int(deleted)
        return PlayerItems(chosen or seat_name, deleted, since, ratings, stats, known)

    def _first_joined(self, player: str) -> int | None:
        """When the player took their first seat still stored (0: some other item of theirs;
        None: their partition is empty)."""
        response = self.table.call(
            self.table.client.query,
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues=to_attributes({":pk": player_key(player)}),
            ProjectionExpression="sk, joined",
            Limit=25,
        )
        items = [from_attributes(raw) for raw in response.get("Items", [])]
        if not items:
            return None
        return min((int(i["joined"]) for i in items if i.get("joined")), default=0)

    def top(
        self, pool: str, limit: int, after: dict[str, Any] | None
    ) -> tuple[list[Ranked], dict[str, Any] | None]:
        """A page of the pool's established ratings, highest first: one Query of the sparse
        index. ``after``: the last row of the previous page (player, rating)."""
        kwargs: dict[str, Any] = {
            "TableName": self.table.name,
            "IndexName": LEADERBOARD_INDEX,
            "KeyConditionExpression": "lb_pool = :pool",
            "ExpressionAttributeValues": to_attributes({":pool": pool}),
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if after is not None:
            kwargs["ExclusiveStartKey"] = to_attributes(
                {**rating_key(after["player"], pool), "lb_pool": pool, "lb_rating": after["rating"]}
            )
        response = self.table.call(self.table.client.query, **kwargs)
        rows = []
        for raw in response.get("Items", []):
            item = from_attributes(raw)
            rows.append(
                Ranked(
                    str(item["pk"]).removeprefix("PLAYER#"),
                    item.get("name"),
                    int(item["lb_rating"]),
                    int(item.get("games", 0)),
                )
            )
        last = response.get("LastEvaluatedKey")
        following = None
        if last and rows:
            following = {"player": rows[-1].player, "rating": rows[-1].rating}
        return rows, following

    def count_rated(self, pool: str, low: int, high: int | None, cap: int) -> int:
        """How many established ratings of the pool lie from ``low`` to ``high`` (None: no
        upper bound), counting at most ``cap`` (keys only: the index's Select COUNT)."""
        condition = "lb_pool = :pool AND lb_rating >= :low"
        values: dict[str, Any] = {":pool": pool, ":low": low}
        if high is not None:
            condition = "lb_pool = :pool AND lb_rating BETWEEN :low AND :high"
            values[":high"] = high
        kwargs: dict[str, Any] = {
            "TableName": self.table.name,
            "IndexName": LEADERBOARD_INDEX,
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": to_attributes(values),
            "Select": "COUNT",
            "Limit": cap,
        }
        total = 0
        while total < cap:
            kwargs["Limit"] = cap - total
            response = self.table.call(self.table.client.query, **kwargs)
            total += int(response.get("Count", 0))
            if "LastEvaluatedKey" not in response:
                break
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        return total

    def histogram(self, pool: str) -> dict[int, int]:
        """The pool's established ratings by bucket (the shards summed): one BatchGetItem."""
        keys = [to_attributes(histogram_key(pool, shard)) for shard in range(HIST_SHARDS)]
        counts: dict[int, int] = {}
        for raw in self.table.batch_get(keys):
            for name, value in from_attributes(raw).items():
                if name.startswith("b") and name[1:].isdigit():
                    counts[int(name[1:])] = counts.get(int(name[1:]), 0) + int(value)
        return counts

    # ------------------------------------------------------------------ account deletion

    def forget(self, player: str) -> int:
        """Delete every rating of the player, each with its histogram count in the same
        transaction (so a deleted player leaves every leaderboard and every percentile);
        returns how many. ``DELETE /me`` runs it before erasing the rest of the partition."""
        removed = 0
        for raw in self._rating_items(player):
            rating, version = rating_from_item(from_attributes(raw))
            delete = {
                "Delete": {
                    "TableName": self.table.name,
                    "Key": to_attributes(rating_key(player, rating.pool)),
                    "ConditionExpression": "version = :v",
                    "ExpressionAttributeValues": to_attributes({":v": version}),
                }
            }
            shard = shard_of(player, HIST_SHARDS)
            moved = histogram_update(
                self.table, rating.pool, shard, moved_buckets([(rating, None)])
            )
            try:
                self.table.call(
                    self.table.client.transact_write_items,
                    TransactItems=[delete, *([moved] if moved else [])],
                )
                removed += 1
            except ClientError as err:
                if err.response["Error"]["Code"] != "TransactionCanceledException":
                    raise
                raise Unavailable() from err  # changed meanwhile: DELETE /me is retried
        return removed
