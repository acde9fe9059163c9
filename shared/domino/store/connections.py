"""Open WebSocket connections per player: ``pk=PLAYER#<sub>, sk=CONN#<connection id>``, expired
by TTL two hours after they opened (API Gateway ends a connection then; a connection whose
$disconnect never came goes too)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from domino.store.records import player_key, to_attributes
from domino.store.table import Table

CONN_PREFIX = "CONN#"
#: API Gateway closes a WebSocket after 2 hours; the item outlives it a little
CONNECTION_TTL_SECONDS = 2 * 3600 + 600


class DynamoConnections:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(self, player: str, connection_id: str, at: float, locale: str | None) -> None:
        item: dict[str, str | int] = {
            "pk": player_key(player),
            "sk": CONN_PREFIX + connection_id,
            "connected": int(at),
            # the order of a player's connections: a page opening sockets opens several a second
            "opened_ms": int(at * 1000),
            "ttl": int(at) + CONNECTION_TTL_SECONDS,
        }
        if locale:
            item["locale"] = locale
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=to_attributes(item)
        )

    def remove(self, player: str, connection_id: str, opened_before: int | None = None) -> None:
        """Forget the connection (only if it opened before ``opened_before``, when given)."""
        key = {"pk": player_key(player), "sk": CONN_PREFIX + connection_id}
        kwargs: dict[str, object] = {}
        if opened_before is not None:
            kwargs["ConditionExpression"] = "connected < :t"
            kwargs["ExpressionAttributeValues"] = to_attributes({":t": opened_before})
        try:
            self.table.call(
                self.table.client.delete_item,
                TableName=self.table.name,
                Key=to_attributes(key),
                **kwargs,
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise

    def of_player(self, player: str, now: int) -> list[tuple[str, str | None]]:
        """The player's open connections and their locales (TTL deletes late: an expired one
        is left out)."""
        return [connection(item) for item in self._items(player, now)]

    def opened(self, player: str, now: int) -> list[tuple[str, int]]:
        """The player's open connections and when each opened (epoch milliseconds)."""
        return [
            (
                item["sk"]["S"].removeprefix(CONN_PREFIX),
                int(item.get("opened_ms", {}).get("N") or int(item["connected"]["N"]) * 1000),
            )
            for item in self._items(player, now)
        ]

    def _items(self, player: str, now: int) -> list[dict[str, Any]]:
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :c)",
            ExpressionAttributeValues=to_attributes({":pk": player_key(player), ":c": CONN_PREFIX}),
        )
        return [item for item in items if is_open(item, now)]


def is_open(item: dict[str, Any], now: int) -> bool:
    """A connection item TTL has not deleted yet but should have is closed."""
    return int(item["ttl"]["N"]) > now


def connection(item: dict[str, Any]) -> tuple[str, str | None]:
    """A connection item's id and locale."""
    return item["sk"]["S"].removeprefix(CONN_PREFIX), item.get("locale", {}).get("S")
