"""Who watches a game: one item per watching socket in the game's partition
(``pk=GAME#<id>, sk=WATCH#<connection id>``), the count on the game item (``watchers``) and the
games each socket watches on its connection item (``watching``, a string set).

A watch is one transaction: the watch item (if new), the game's count plus one (while under
its bound) and the socket's set plus the game (while under its own bound), so both bounds hold
however many sockets watch at once, and the count is the items'. The count's update also sets a
new ``writer`` token on the game item: a move that read the game before saves again with the
new count rather than write the old one back (``DynamoGameStore.save`` requires the token it
read). Unwatching is the same transaction the other way. A game's changes then cost the
notifier one Query of its watch items, and only when the count says there are any.
"""

from __future__ import annotations

import secrets
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.connections import CONN_PREFIX, CONNECTION_TTL_SECONDS
from domino.store.records import GAME_SK, game_key, player_key, to_attributes
from domino.store.table import Table

WATCH_PREFIX = "WATCH#"


class Watcher(NamedTuple):
    connection_id: str
    player: str


class WatchRefused(Exception):
    """A watch the bounds refuse: ``reason`` is ``game`` (the game is gone or has its most
    watchers) or ``socket`` (the socket is gone or watches its most games)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DynamoWatchers:
    def __init__(self, table: Table) -> None:
        self.table = table

    def _keys(self, game_id: str, player: str, connection_id: str) -> dict[str, Any]:
        return {
            "watch": to_attributes({"pk": game_key(game_id), "sk": WATCH_PREFIX + connection_id}),
            "game": to_attributes({"pk": game_key(game_id), "sk": GAME_SK}),
            "socket": to_attributes({"pk": player_key(player), "sk": CONN_PREFIX + connection_id}),
        }

    def watch(
        self,
        game_id: str,
        player: str,
        connection_id: str,
        at: int,
        most_watchers: int,
        most_watched: int,
    ) -> bool:
        """Watch the game from the socket; False when it watches it already. ``WatchRefused``
        when a bound (or a missing game or socket) refuses it."""
        keys = self._keys(game_id, player, connection_id)
        item = {
            **keys["watch"],
            **to_attributes(
                {"player": player, "at": at, "ttl": at + CONNECTION_TTL_SECONDS},
            ),
        }
        items = [
            {
                "Put": {
                    "TableName": self.table.name,
                    "Item": item,
                    "ConditionExpression": "attribute_not_exists(sk)",
                }
            },
            {
                "Update": {
                    "TableName": self.table.name,
                    "Key": keys["game"],
                    "UpdateExpression": "ADD watchers :one SET writer = :token",
                    "ConditionExpression": "attribute_exists(version) AND "
                    "(attribute_not_exists(watchers) OR watchers < :most)",
                    "ExpressionAttributeValues": {
                        ":one": {"N": "1"},
                        ":token": {"S": secrets.token_hex(6)},
                        ":most": {"N": str(most_watchers)},
                    },
                }
            },
            {
                "Update": {
                    "TableName": self.table.name,
                    "Key": keys["socket"],
                    "UpdateExpression": "ADD watching :game",
                    "ConditionExpression": "attribute_exists(sk) AND "
                    "(attribute_not_exists(watching) OR size(watching) < :most)",
                    "ExpressionAttributeValues": {
                        ":game": {"SS": [game_id]},
                        ":most": {"N": str(most_watched)},
                    },
                }
            },
        ]
        codes = self._transact(items)
        if not codes:
            return True
        if codes[0] == "ConditionalCheckFailed":
            return False  # watched from this socket already
        if codes[1] == "ConditionalCheckFailed":
            raise WatchRefused("game")
        if codes[2] == "ConditionalCheckFailed":
            raise WatchRefused("socket")
        raise WatchRefused("game")

    def unwatch(self, game_id: str, player: str, connection_id: str) -> bool:
        """Stop watching; False when the socket did not watch the game. The socket's item is
        left alone when it is gone (closed), and the count when the game is."""
        keys = self._keys(game_id, player, connection_id)
        delete = {
            "Delete": {
                "TableName": self.table.name,
                "Key": keys["watch"],
                "ConditionExpression": "attribute_exists(sk)",
            }
        }
        count = {
            "Update": {
                "TableName": self.table.name,
                "Key": keys["game"],
                "UpdateExpression": "ADD watchers :minus SET writer = :token",
                "ConditionExpression": "attribute_exists(version) AND watchers > :none",
                "ExpressionAttributeValues": {
                    ":minus": {"N": "-1"},
                    ":none": {"N": "0"},
                    ":token": {"S": secrets.token_hex(6)},
                },
            }
        }
        socket = {
            "Update": {
                "TableName": self.table.name,
                "Key": keys["socket"],
                "UpdateExpression": "DELETE watching :game",
                "ConditionExpression": "attribute_exists(sk)",
                "ExpressionAttributeValues": {":game": {"SS": [game_id]}},
            }
        }
        items = [delete, count, socket]
        while True:
            codes = self._transact(items)
            if not codes:
                return True
            if codes[0] == "ConditionalCheckFailed":
                return False
            # the game or the socket is gone: the watch item goes all the same
            items = [item for item, code in zip(items, codes, strict=True) if code == "None"]

    def of_game(self, game_id: str) -> list[Watcher]:
        """The sockets watching the game (one Query of its watch items)."""
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :w)",
            ExpressionAttributeValues=to_attributes({":pk": game_key(game_id), ":w": WATCH_PREFIX}),
            ProjectionExpression="sk, player",
        )
        return [
            Watcher(item["sk"]["S"].removeprefix(WATCH_PREFIX), item["player"]["S"])
            for item in items
        ]

    def watched_by(self, player: str, connection_id: str) -> list[str]:
        """The games the socket watches."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": CONN_PREFIX + connection_id}),
            ProjectionExpression="watching",
            ConsistentRead=True,
        )
        return sorted((response.get("Item") or {}).get("watching", {}).get("SS", []))

    def _transact(self, items: list[dict[str, Any]]) -> list[str]:
        """Run the transaction; the cancellation codes of its items ([] when it committed)."""
        try:
            self.table.call(self.table.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            reasons = err.response.get("CancellationReasons") or []
            codes = [str(r.get("Code") or "None") for r in reasons]
            codes += ["None"] * (len(items) - len(codes))
            if "ConditionalCheckFailed" not in codes:
                raise  # a conflict or throttling: the caller's retry, or 503
            return codes
        return []
