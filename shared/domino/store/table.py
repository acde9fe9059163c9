"""The one DynamoDB table (single-table design) and the plumbing every store shares: one
low-level client, throttling turned into ``Unavailable``, paged queries, capacity tracking, and
a read that rides along with the next GetItem (``Table.read_with_next``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from botocore.config import Config
from botocore.exceptions import ClientError, ConnectionError, HTTPClientError

from domino.store.clients import aws_client
from domino.store.errors import Unavailable, throttled
from domino.store.records import Item

#: BatchWriteItem takes 25 requests; under load it leaves some undone: how often to ask again
BATCH_WRITE_LIMIT = 25
#: BatchGetItem takes 100 keys
BATCH_GET_LIMIT = 100
BATCH_ATTEMPTS = 8
BATCH_PAUSE_SECONDS = 0.05


#: per thread, the read waiting for the thread's next request (``Table.read_with_next``)
_riding = threading.local()

#: tries of a request the database's HTTP server refused before reading it (refused_unread)
REFUSED_ATTEMPTS = 3


def refused_unread(err: ClientError) -> bool:
    """Whether the HTTP server refused the request before DynamoDB read it: an HTML page, not a
    DynamoDB error. DynamoDB Local's Jetty does so now and then under concurrent requests
    ("400 Illegal character COLON" for a well-formed request); since nothing was read, nothing
    was applied, and the request may be sent again. DynamoDB itself always answers JSON."""
    message = str(err.response.get("Error", {}).get("Message", ""))
    return err.response.get("Error", {}).get("Code", "").isdigit() and "<html" in message[:200]


def _key_of(item: Item) -> tuple[str, str]:
    return item["pk"]["S"], item["sk"]["S"]


def settle_riding() -> None:
    """Make the read still waiting in this thread (``Table.read_with_next``) now, alone: at the
    end of a request that made no other."""
    riding = _take_riding()
    if riding is not None:
        _read_alone(riding)


def _take_riding() -> tuple[Table, Item, Callable[[Item | None], None]] | None:
    riding = getattr(_riding, "read", None)
    if riding is not None:
        _riding.read = None
    return riding


def _read_alone(riding: tuple[Table, Item, Callable[[Item | None], None]]) -> None:
    table, key, on_item = riding
    on_item(table.call(table.client.get_item, TableName=table.name, Key=key).get("Item"))


def drop_riding() -> None:
    """Forget a read left waiting in this thread (a request that ended before making it)."""
    _riding.read = None


class Table:
    """The game table on one low-level client (thread-safe). ``track_capacity`` asks DynamoDB
    for the capacity each request consumed and keeps it in ``consumed`` (for the benchmarks)."""

    def __init__(
        self,
        name: str,
        *,
        endpoint_url: str | None = None,
        track_capacity: bool = False,
        client: Any = None,
    ) -> None:
        if client is None:
            config = Config(
                retries={"max_attempts": 4, "mode": "standard"},
                connect_timeout=2,
                read_timeout=5,
                # the store builds every request itself and DynamoDB validates it again: the
                # SDK's own check was a fifth of its CPU a request (docs/decisions.md)
                parameter_validation=False,
            )
            client = aws_client("dynamodb", endpoint_url=endpoint_url or None, config=config)
        self.client = client
        self.name = name
        self.consumed: list[dict[str, Any]] = []
        self.track_capacity = track_capacity

    def sibling(self, name: str) -> Table:
        """Another table on this one's client (one connection pool, one client to build)."""
        return Table(name, track_capacity=self.track_capacity, client=self.client)

    def read_with_next(self, key: Item, on_item: Callable[[Item | None], None]) -> None:
        """Read the item at ``key`` together with this thread's next GetItem of a whole item of
        this table (one BatchGetItem of both), or alone just before the thread's next request of
        any other kind, or at ``settle_riding()``, whichever comes first: a request never goes
        out before it. ``on_item`` gets the item (None: there is none) and may raise, which the
        GetItem's caller then gets. Every API call reads its caller's ban so: nine calls in ten
        load a game or a profile first, and save a round trip (docs/decisions.md, "Bans")."""
        _riding.read = (self, key, on_item)

    def call(self, fn: Callable[..., Any], **kwargs: Any) -> Any:
        """``fn`` (a client method) with ``kwargs``; ``Unavailable`` when DynamoDB is busy or
        out of reach after the SDK's retries (a timeout, a reset connection). A write whose
        reply was lost may have been applied all the same: the game item's writer token and
        reply entries tell its retry so (store/dynamo.py, service/writes.py)."""
        riding = _take_riding()
        if riding is not None:
            table, key, on_item = riding
            if (
                fn == self.client.get_item
                and kwargs["TableName"] == table.name
                and "ProjectionExpression" not in kwargs
                and kwargs["Key"] != key
            ):
                return self._get_with(kwargs, key, on_item)
            _read_alone(riding)
        if self.track_capacity:
            kwargs["ReturnConsumedCapacity"] = "TOTAL"
        for attempt in range(REFUSED_ATTEMPTS):
            try:
                response = fn(**kwargs)
                break
            except (ConnectionError, HTTPClientError) as err:
                raise Unavailable() from err
            except ClientError as err:
                if throttled(err):
                    raise Unavailable() from err
                if not refused_unread(err) or attempt == REFUSED_ATTEMPTS - 1:
                    raise
        if self.track_capacity:
            capacity = response.get("ConsumedCapacity")
            if capacity:
                self.consumed.extend(capacity if isinstance(capacity, list) else [capacity])
        return response

    def _get_with(
        self, get: dict[str, Any], key: Item, on_item: Callable[[Item | None], None]
    ) -> Any:
        """The GetItem ``get`` and the item at ``key`` in one BatchGetItem (with the GetItem's
        consistency): ``on_item`` gets the second, the caller a GetItem's response."""
        wanted = get["Key"]
        items = self.batch_get([wanted, key], consistent=get.get("ConsistentRead", False))
        found = {_key_of(item): item for item in items}
        on_item(found.get(_key_of(key)))
        item = found.get(_key_of(wanted))
        return {"Item": item} if item is not None else {}

    def batch_get(
        self, keys: list[Item], *, consistent: bool = False, projection: str | None = None
    ) -> list[Item]:
        """The items at ``keys`` (those that exist, in no particular order): BatchGetItem, 100
        keys at a time, asking again for what DynamoDB left unread; ``Unavailable`` rather than
        a partial answer when keys stay unread."""
        items: list[Item] = []
        for start in range(0, len(keys), BATCH_GET_LIMIT):
            wanted: dict[str, Any] = {"Keys": keys[start : start + BATCH_GET_LIMIT]}
            if consistent:
                wanted["ConsistentRead"] = True
            if projection is not None:
                wanted["ProjectionExpression"] = projection
            request: dict[str, Any] = {self.name: wanted}
            for _attempt in range(BATCH_ATTEMPTS):
                response = self.call(self.client.batch_get_item, RequestItems=request)
                answered = response.get("Responses")
                if answered is not None:  # else not DynamoDB's answer (seen once from DynamoDB
                    items += answered.get(self.name, [])  # Local under racing writes): again
                    request = response.get("UnprocessedKeys") or {}
                    if not request:
                        break
                time.sleep(BATCH_PAUSE_SECONDS)
            else:
                raise Unavailable()  # keys left unread after every attempt
        return items

    def conditional(self, fn: Callable[..., Any], **kwargs: Any) -> bool:
        """``call`` of a conditional write: False when its condition refused it."""
        try:
            self.call(fn, **kwargs)
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False
        return True

    def query(self, **kwargs: Any) -> Iterator[Item]:
        """Every item a Query matches, page after page, read as they are consumed."""
        while True:
            response = self.call(self.client.query, **kwargs)
            yield from response.get("Items", [])
            if "LastEvaluatedKey" not in response:
                return
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def delete_keys(self, keys: list[dict[str, str]]) -> None:
        """Delete the items of ``keys`` (plain ``pk``/``sk`` strings) with BatchWriteItem, 25 at a
        time, asking again for what DynamoDB left unprocessed; ``Unavailable`` if some stay."""
        for start in range(0, len(keys), BATCH_WRITE_LIMIT):
            requests = [
                {"DeleteRequest": {"Key": {name: {"S": value} for name, value in key.items()}}}
                for key in keys[start : start + BATCH_WRITE_LIMIT]
            ]
            pending: dict[str, Any] = {self.name: requests}
            for _attempt in range(BATCH_ATTEMPTS):
                response = self.call(self.client.batch_write_item, RequestItems=pending)
                pending = response.get("UnprocessedItems") or {}
                if not pending:
                    break
                time.sleep(BATCH_PAUSE_SECONDS)
            else:
                raise Unavailable()
