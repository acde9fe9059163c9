"""Safety among strangers in the table: blocks, reports, and the emotes' rate limit.

Blocks live in the blocker's partition, one item per blocked player, keyed by a hash of the
blocked id (an id of 255 four-byte characters would not fit a sort key behind a prefix):
``pk=PLAYER#<blocker>, sk=BLOCK#<sha256(player)[:32]>`` holding ``player``, ``name`` and
``since``; beside them ``sk=BLOCKS`` counts them (``MAX_BLOCKS`` at most: the count and the
block are written in one transaction). Whether two people block each other is two keys, read in
one BatchGetItem (``blocks_among``).

A report is an item of its day's partition, ``pk=REPORTS#<YYYY-MM-DD>, sk=<time>#<id>``, which
the operator's tool lists a day at a time (no index: reports are few). It is written in one
transaction with the reporter's mark ``sk=REPORTED#<sha256(player)[:32]>#<reason>`` (``at``),
whose condition makes the same reporter, player and reason within 24 hours one report.

The emotes' limiter is one small item a player and game, ``sk=EMOTE#<game>`` (``at_ms``, a TTL):
a conditional put that fails within the interval.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.accounts import PROFILE_SK
from domino.store.cursors import decode_cursor, encode_cursor
from domino.store.errors import Unavailable, cancellation_codes
from domino.store.records import iso, player_key, to_attributes
from domino.store.table import Table

BLOCK_PREFIX = "BLOCK#"
BLOCK_COUNT_SK = "BLOCKS"
REPORTED_PREFIX = "REPORTED#"
REPORTS_PREFIX = "REPORTS#"
EMOTE_PREFIX = "EMOTE#"
#: the same reporter, player and reason within this long is one report
REPORT_WINDOW_SECONDS = 24 * 3600
#: reports are kept this long for the operator
REPORT_TTL_SECONDS = 180 * 24 * 3600
#: the blocks' cursor: the sort key of the page's last block
BLOCK_CURSOR = {"s": re.compile(re.escape(BLOCK_PREFIX) + "[0-9a-f]{32}")}
BATCH_ATTEMPTS = 5
BATCH_PAUSE_SECONDS = 0.05


class Block(NamedTuple):
    player: str
    name: str
    since: int


class Report(NamedTuple):
    id: str
    reporter: str
    player: str
    reason: str
    at: int
    game: str | None = None
    note: str | None = None


class BlockLimit(Exception):
    """The blocker holds ``MAX_BLOCKS`` blocks already."""


def hashed(player: str) -> str:
    """A player id as the blocks' and reports' sort keys hold it."""
    return hashlib.sha256(player.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def block_key(blocker: str, player: str) -> dict[str, Any]:
    return to_attributes({"pk": player_key(blocker), "sk": BLOCK_PREFIX + hashed(player)})


def day_of(at: int) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


class DynamoSafety:
    def __init__(self, table: Table) -> None:
        self.table = table

    # ------------------------------------------------------------------ blocks

    def block(self, blocker: str, player: str, name: str, at: int, limit: int) -> bool:
        """Block ``player`` (False: blocked already, nothing changes); ``BlockLimit`` when the
        blocker has ``limit`` blocks."""
        count_key = to_attributes({"pk": player_key(blocker), "sk": BLOCK_COUNT_SK})
        item = {
            **block_key(blocker, player),
            **to_attributes({"player": player, "name": name, "since": at}),
        }
        try:
            self.table.call(
                self.table.client.transact_write_items,
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self.table.name,
                            "Item": item,
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                    {
                        "Update": {
                            "TableName": self.table.name,
                            "Key": count_key,
                            "UpdateExpression": "ADD blocks :one",
                            "ConditionExpression": "attribute_not_exists(blocks) OR blocks < :max",
                            "ExpressionAttributeValues": to_attributes({":one": 1, ":max": limit}),
                        }
                    },
                ],
            )
        except ClientError as err:
            reasons = cancellation_codes(err)
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                raise BlockLimit() from None
            raise Unavailable() from None  # a transaction conflict: the client tries again
        return True

    def unblock(self, blocker: str, player: str) -> bool:
        """Lift the block (False: there was none)."""
        count_key = to_attributes({"pk": player_key(blocker), "sk": BLOCK_COUNT_SK})
        try:
            self.table.call(
                self.table.client.transact_write_items,
                TransactItems=[
                    {
                        "Delete": {
                            "TableName": self.table.name,
                            "Key": block_key(blocker, player),
                            "ConditionExpression": "attribute_exists(pk)",
                        }
                    },
                    {
                        "Update": {
                            "TableName": self.table.name,
                            "Key": count_key,
                            "UpdateExpression": "ADD blocks :less",
                            "ExpressionAttributeValues": to_attributes({":less": -1}),
                        }
                    },
                ],
            )
        except ClientError as err:
            reasons = cancellation_codes(err)
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            raise Unavailable() from None
        return True

    def blocks(
        self, blocker: str, limit: int, cursor: str | None
    ) -> tuple[list[Block], str | None]:
        """A page of the blocker's blocks (in key order), and the next page's cursor."""
        kwargs: dict[str, Any] = {
            "TableName": self.table.name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :b)",
            "ExpressionAttributeValues": to_attributes(
                {":pk": player_key(blocker), ":b": BLOCK_PREFIX}
            ),
            "Limit": limit + 1,
            "ConsistentRead": True,
        }
        if cursor:
            after = decode_cursor(cursor, BLOCK_CURSOR)["s"]
            kwargs["ExclusiveStartKey"] = to_attributes({"pk": player_key(blocker), "sk": after})
        items = self.table.call(self.table.client.query, **kwargs).get("Items", [])
        page = items[:limit]
        following = encode_cursor({"s": page[-1]["sk"]["S"]}) if len(items) > limit else None
        found = [Block(i["player"]["S"], i["name"]["S"], int(i["since"]["N"])) for i in page]
        return found, following

    def blocks_among(self, pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """Which of the (blocker, blocked) pairs are blocks: one strongly consistent
        BatchGetItem (up to 100 pairs); never a partial answer (``Unavailable``)."""
        wanted = {hashed(b) + "|" + blocker: (blocker, b) for blocker, b in pairs}
        keys = [block_key(blocker, b) for blocker, b in dict.fromkeys(pairs)]
        found: set[tuple[str, str]] = set()
        if not keys:
            return found
        for item in self.table.batch_get(keys, consistent=True, projection="pk, sk"):
            blocker = item["pk"]["S"].removeprefix("PLAYER#")
            key = item["sk"]["S"].removeprefix(BLOCK_PREFIX) + "|" + blocker
            if key in wanted:
                found.add(wanted[key])
        return found

    # ------------------------------------------------------------------ players

    def known(self, player: str) -> bool:
        """Whether an account has used ``player``: its partition holds something (a profile, a
        seat, a device, a socket, a block, a notification) and no deletion's tombstone."""
        pk = player_key(player)
        profile = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": pk, "sk": PROFILE_SK}),
            ConsistentRead=True,
        ).get("Item")
        if profile is not None:
            return "deleted" not in profile
        response = self.table.call(
            self.table.client.query,
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues=to_attributes({":pk": pk}),
            ProjectionExpression="sk",
            Limit=1,
        )
        return bool(response.get("Items"))

    # ------------------------------------------------------------------ reports

    def report(self, report: Report) -> bool:
        """Keep ``report`` for the operator, unless the same reporter reported the same player
        for the same reason within REPORT_WINDOW_SECONDS (False: that one stands)."""
        mark = {
            "pk": player_key(report.reporter),
            "sk": f"{REPORTED_PREFIX}{hashed(report.player)}#{report.reason}",
            "at": report.at,
            "report": report.id,
            "ttl": report.at + REPORT_WINDOW_SECONDS,
        }
        item: dict[str, Any] = {
            "pk": REPORTS_PREFIX + day_of(report.at),
            "sk": f"{iso(report.at)}#{report.id}",
            "reporter": report.reporter,
            "player": report.player,
            "reason": report.reason,
            "at": report.at,
            "ttl": report.at + REPORT_TTL_SECONDS,
        }
        if report.game is not None:
            item["game"] = report.game
        if report.note:
            item["note"] = report.note
        try:
            self.table.call(
                self.table.client.transact_write_items,
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self.table.name,
                            "Item": to_attributes(mark),
                            "ConditionExpression": "attribute_not_exists(pk) OR #at <= :before",
                            "ExpressionAttributeNames": {"#at": "at"},
                            "ExpressionAttributeValues": to_attributes(
                                {":before": report.at - REPORT_WINDOW_SECONDS}
                            ),
                        }
                    },
                    {"Put": {"TableName": self.table.name, "Item": to_attributes(item)}},
                ],
            )
        except ClientError as err:
            reasons = cancellation_codes(err)
            if reasons and reasons[0] == "ConditionalCheckFailed":
                return False
            raise Unavailable() from None
        return True

    def reports_of_day(self, day: str) -> list[Report]:
        """Every report made on ``day`` (``YYYY-MM-DD``), oldest first: the operator's read."""
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues=to_attributes({":pk": REPORTS_PREFIX + day}),
        )
        return [
            Report(
                id=i["sk"]["S"].rsplit("#", 1)[1],
                reporter=i["reporter"]["S"],
                player=i["player"]["S"],
                reason=i["reason"]["S"],
                at=int(i["at"]["N"]),
                game=i["game"]["S"] if "game" in i else None,
                note=i["note"]["S"] if "note" in i else None,
            )
            for i in items
        ]

    # ------------------------------------------------------------------ emotes

    def take_emote_slot(self, player: str, game_id: str, at_ms: int, interval_ms: int) -> int:
        """Claim the player's emote slot in the game: 0 when taken, else the milliseconds
        until it frees (the last emote was sent less than ``interval_ms`` ago)."""
        item = {
            "pk": player_key(player),
            "sk": EMOTE_PREFIX + game_id,
            "at_ms": at_ms,
            "ttl": at_ms // 1000 + 60,
        }
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes(item),
                ConditionExpression="attribute_not_exists(pk) OR at_ms <= :before",
                ExpressionAttributeValues=to_attributes({":before": at_ms - interval_ms}),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            old = err.response.get("Item") or {}
            last = int(old.get("at_ms", {}).get("N", at_ms))
            return max(1, last + interval_ms - at_ms)
        return 0


def new_report_id() -> str:
    return secrets.token_urlsafe(12)
