"""Open WebSocket connections per player: ``pk=PLAYER#<sub>, sk=CONN#<connection id>``, expired
by TTL two hours after they opened (API Gateway ends a connection then; a connection whose
$disconnect never came goes too), and ``exp``, when its token stops being valid (the notifier
closes it then instead of posting).

Beside them, the player's admission ledger ``sk=SOCKETS``: the connections admitted (id ->
when each opened, ms) and a version. ``admit`` writes a connection's item, the ledger (only if
its version is still the one read) and the deletion of the connections it evicts in one
transaction, so admissions of one player are serial: the per-player cap holds however many
sockets open at once, and no connection item exists that the ledger does not list. A
$disconnect deletes only the item; an entry whose item is gone is dropped by the next admission.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.accounts import alive_since
from domino.store.errors import AccountGone
from domino.store.records import player_key, to_attributes
from domino.store.table import Table

CONN_PREFIX = "CONN#"
LEDGER_SK = "SOCKETS"
#: API Gateway closes a WebSocket after 2 hours; the item outlives it a little
CONNECTION_TTL_SECONDS = 2 * 3600 + 600
#: a token this far past its ``exp`` is refused (the authorizers' leeway for clock skew)
EXPIRY_LEEWAY_SECONDS = 30


class Ledger(NamedTuple):
    """A player's admitted connections that are still there (id, opened ms), oldest first, and
    the ledger's version (0: none yet)."""

    version: int
    entries: list[tuple[str, int]]


class AdmissionLost(Exception):
    """Another admission of the player's sockets wrote the ledger first: read it again."""


class DynamoConnections:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        expires: int | None = None,
    ) -> None:
        """The connection's item alone (no ledger: for tests and tools)."""
        self.table.call(
            self.table.client.put_item,
            TableName=self.table.name,
            Item=_item(player, connection_id, at, locale, expires),
        )

    def ledger(self, player: str, now: int) -> Ledger:
        """The admission ledger, less the entries whose connection is gone (strongly
        consistent reads: an admission that just committed is seen)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": LEDGER_SK}),
            ConsistentRead=True,
        )
        item = response.get("Item") or {}
        version = int(item.get("version", {}).get("N") or 0)
        admitted = {k: int(v["N"]) for k, v in item.get("admitted", {}).get("M", {}).items()}
        there = {
            item["sk"]["S"].removeprefix(CONN_PREFIX)
            for item in self._items(player, now, consistent=True)
        }
        entries = [(c, ms) for c, ms in admitted.items() if c in there]
        return Ledger(version, sorted(entries, key=lambda e: (e[1], e[0])))

    def admit(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        *,
        expires: int | None,
        token_issued: int | None,
        ledger: Ledger,
        evict: list[str],
    ) -> None:
        """Admit the connection, atomically: its item, the ledger (``ledger``'s entries but
        ``evict``, and this one; only if the ledger is still at ``ledger.version``:
        ``AdmissionLost``), the evicted connections' items deleted, and with ``token_issued``
        a check that the account was not deleted since (``AccountGone``)."""
        name = self.table.name
        admitted = {c: ms for c, ms in ledger.entries if c not in evict}
        admitted[connection_id] = int(at * 1000)
        put_ledger: dict[str, Any] = {
            "TableName": name,
            "Item": {
                **to_attributes(
                    {
                        "pk": player_key(player),
                        "sk": LEDGER_SK,
                        "version": ledger.version + 1,
                        "ttl": int(at) + CONNECTION_TTL_SECONDS,
                    }
                ),
                "admitted": {"M": {c: {"N": str(ms)} for c, ms in admitted.items()}},
            },
        }
        if ledger.version:
            put_ledger["ConditionExpression"] = "version = :v"
            put_ledger["ExpressionAttributeValues"] = to_attributes({":v": ledger.version})
        else:
            put_ledger["ConditionExpression"] = "attribute_not_exists(pk)"
        items: list[dict[str, Any]] = [
            {"Put": put_ledger},
            {
                "Put": {
                    "TableName": name,
                    "Item": _item(player, connection_id, at, locale, expires),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
        ]
        for gone in evict:
            key = to_attributes({"pk": player_key(player), "sk": CONN_PREFIX + gone})
            items.append({"Delete": {"TableName": name, "Key": key}})
        if token_issued is not None:
            items.append(alive_since(self.table, player, token_issued))
        try:
            self.table.call(self.table.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            codes = [r.get("Code") for r in err.response.get("CancellationReasons") or []]
            last = codes[-1] if len(codes) == len(items) else None
            if token_issued is not None and last == "ConditionalCheckFailed":
                raise AccountGone() from err
            raise AdmissionLost() from err

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
        is left out, and so is one whose token has expired)."""
        return [connection(item) for item in self._items(player, now) if not expired(item, now)]

    def expired(self, player: str, now: int) -> list[str]:
        """The player's connections whose token has expired: to close."""
        return [connection(item)[0] for item in self._items(player, now) if expired(item, now)]

    def opened(self, player: str, now: int) -> list[tuple[str, int]]:
        """The player's open connections and when each opened (epoch milliseconds)."""
        return [
            (
                item["sk"]["S"].removeprefix(CONN_PREFIX),
                int(item.get("opened_ms", {}).get("N") or int(item["connected"]["N"]) * 1000),
            )
            for item in self._items(player, now)
        ]

    def _items(self, player: str, now: int, consistent: bool = False) -> list[dict[str, Any]]:
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :c)",
            ExpressionAttributeValues=to_attributes({":pk": player_key(player), ":c": CONN_PREFIX}),
            ConsistentRead=consistent,
        )
        return [item for item in items if is_open(item, now)]


def _item(
    player: str, connection_id: str, at: float, locale: str | None, expires: int | None
) -> dict[str, Any]:
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
    if expires is not None:
        item["exp"] = expires  # the token's: past it (and the leeway), the socket is closed
    return to_attributes(item)


def is_open(item: dict[str, Any], now: int) -> bool:
    """A connection item TTL has not deleted yet but should have is closed."""
    return int(item["ttl"]["N"]) > now


def expired(item: dict[str, Any], _now: int) -> bool:
    """Whether the connection's token has expired (HTTP would refuse it now): against the wall
    clock, as tokens are, whatever clock the games run on (dev mode moves that one on)."""
    exp = item.get("exp")
    return exp is not None and token_expired(int(exp["N"]))


def token_expired(exp: int, now: float | None = None) -> bool:
    """Whether a token expiring at ``exp`` is refused now (past the leeway)."""
    return exp + EXPIRY_LEEWAY_SECONDS < (time.time() if now is None else now)


def connection(item: dict[str, Any]) -> tuple[str, str | None]:
    """A connection item's id and locale."""
    return item["sk"]["S"].removeprefix(CONN_PREFIX), item.get("locale", {}).get("S")
