"""DynamoDB as the benchmarks count it (a helper module: ``make bench`` does not run it): every
read and write of this process, timed, with its consumed capacity; an item's size by
DynamoDB's rules."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

READS = {"GetItem", "Query", "BatchGetItem", "Scan", "TransactGetItems"}
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


@dataclass
class Call:
    operation: str
    total: float | None  # capacity units of the request, GSIs included
    table: float  # units of the base table
    indexes: dict[str, float]  # units per GSI
    kind: str = ""  # what the request wrote or read: its sort key up to "#" (GAME, HAND, NOTE...)


class DynamoRequests:
    """The DynamoDB reads and writes of this process, timed and (``counting``) recorded with
    their consumed capacity: a request that asks for ``TOTAL`` is sent asking for ``INDEXES``,
    to split the base table from the GSIs.

    It wraps botocore's ``BaseClient._make_api_call``, which every client's requests go
    through, rather than hooking the store's client: so it needs nothing of the code it
    measures, whichever tree that is. Clients passed to ``ignore`` (the benchmark's own) are
    left alone.
    """

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.spent = 0.0  # seconds inside requests, counting or not
        self.counting = False
        self._ignored: set[int] = set()
        self._installed: Callable[..., Any] | None = None

    def install(self) -> DynamoRequests:
        from botocore.client import BaseClient

        original = BaseClient._make_api_call
        requests = self

        def make_api_call(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if (
                operation not in READS | WRITES
                or id(client) in requests._ignored
                or client.meta.service_model.service_name != "dynamodb"
            ):
                return original(client, operation, params)
            if requests.counting:  # every request, Powertools' idempotency layer's too
                params = {**params, "ReturnConsumedCapacity": "INDEXES"}
            started = time.perf_counter()
            try:
                parsed = original(client, operation, params)
            finally:
                requests.spent += time.perf_counter() - started
            if requests.counting:
                requests._record(operation, parsed, item_kind(params))
            return parsed

        BaseClient._make_api_call = make_api_call  # type: ignore[method-assign]
        self._installed = original
        return self

    def ignore(self, client: Any) -> Any:
        self._ignored.add(id(client))
        return client

    def _record(self, operation: str, parsed: dict[str, Any], kind: str = "") -> None:
        consumed = parsed.get("ConsumedCapacity")
        if consumed is None:
            self.calls.append(Call(operation, None, 0.0, {}, kind))
            return
        total, table, indexes = 0.0, 0.0, dict[str, float]()
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            total += float(entry.get("CapacityUnits", 0))
            table += float((entry.get("Table") or {}).get("CapacityUnits", 0))
            for name, units in (entry.get("GlobalSecondaryIndexes") or {}).items():
                indexes[name] = indexes.get(name, 0.0) + float(units.get("CapacityUnits", 0))
        self.calls.append(Call(operation, total, table, indexes, kind))


def item_kind(params: dict[str, Any]) -> str:
    """The kind of item a request is about: its sort key up to the first "#" (KEY: an
    idempotency record, whose table has no sort key)."""
    key = params.get("Item") or params.get("Key") or {}
    if "id" in key and "sk" not in key:
        return "KEY"
    sort = (key.get("sk") or {}).get("S", "")
    return str(sort).split("#", 1)[0]


def attribute_size(value: dict[str, Any]) -> int:
    """Bytes of one typed attribute value by DynamoDB's item size rules."""
    ((kind, raw),) = value.items()
    if kind == "S":
        return len(raw.encode())
    if kind == "B":
        return len(raw)
    if kind == "N":
        digits = raw.lstrip("+-").replace(".", "").split("E")[0].split("e")[0]
        significant = digits.strip("0") or "0"
        return math.ceil(len(significant) / 2) + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + attribute_size(v) for v in raw)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + attribute_size(v) for k, v in raw.items())
    if kind in ("SS", "NS", "BS"):
        return sum(attribute_size({kind[0]: v}) for v in raw)
    raise ValueError(kind)


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + attribute_size(value) for name, value in item.items())
