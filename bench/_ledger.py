"""Every DynamoDB request of a process, with what became of it and what it cost (a helper module:
``make bench`` does not run it).

``bench/_dynamo.py`` records the capacity DynamoDB Local reports for the requests that
succeeded. That is right for single-item requests and Queries, but not for transactions:
DynamoDB Local adds the sizes of a transaction's items and rounds the sum once (two 100-byte
Puts report 2 WCU), where AWS rounds each item up to 1 KB and doubles it (4 WCU). And a
cancelled transaction reports nothing. So ``Ledger`` records every request, a cancelled
transaction's reasons included, and, while ``exact`` is on, reads each item a write touches
before and after it (with a client of its own) and prices the write by AWS's rules:

- the table: each item ``ceil(max(size before, size after) / 1 KB)`` WCU, at least 1 (a
  Delete of an absent item costs 1), times 2 in a transaction; a ``ConditionCheck`` is priced
  as a write of the item it reads;
- each GSI: the item's entry (its keys and projected attributes) before and after: inserted
  or removed, ``ceil(size / 1 KB)``; its index key changed, both; a projected attribute
  changed, ``ceil(max / 1 KB)``; untouched, nothing. Not doubled in a transaction (AWS
  documents the doubling for the table's items).

Reads keep the capacity DynamoDB Local reports (its rule is AWS's: a Query adds the sizes of
what it read and rounds once per 4 KB).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from _dynamo import READS, WRITES, item_size

Item = dict[str, Any]


@dataclass(frozen=True)
class Index:
    name: str
    keys: tuple[str, ...]  # the index's own key attributes
    projection: str  # ALL, KEYS_ONLY or INCLUDE
    included: tuple[str, ...] = ()


def index_entry(item: Item | None, index: Index, table_keys: Iterable[str]) -> Item | None:
    """What ``index`` holds of ``item`` (None: the item is not in it, a sparse index)."""
    if item is None or any(key not in item for key in index.keys):
        return None
    if index.projection == "ALL":
        return dict(item)
    names = {*table_keys, *index.keys, *(index.included if index.projection == "INCLUDE" else ())}
    return {name: value for name, value in item.items() if name in names}


def kilobytes(item: Item | None) -> int:
    """Write units of one item: its size in KB, rounded up, at least 1."""
    return max(1, math.ceil(item_size(item or {}) / 1024))


def table_units(before: Item | None, after: Item | None, transactional: bool) -> int:
    """WCU of one item's write on the table (AWS: the larger of its two sizes)."""
    larger = before if item_size(before or {}) >= item_size(after or {}) else after
    return kilobytes(larger) * (2 if transactional else 1)


def index_units(
    before: Item | None, after: Item | None, index: Index, table_keys: Iterable[str]
) -> int:
    """WCU the write of one item costs ``index``."""
    keys = tuple(table_keys)
    old, new = index_entry(before, index, keys), index_entry(after, index, keys)
    if old is None and new is None:
        return 0
    if old is None:
        return kilobytes(new)
    if new is None:
        return kilobytes(old)
    if any(old[k] != new[k] for k in index.keys):
        return kilobytes(old) + kilobytes(new)  # moved: a delete and a put
    if old == new:
        return 0
    return max(kilobytes(old), kilobytes(new))


def cancellation(err: Any) -> str:
    """``cancelled:<codes>`` for a cancelled transaction, else the error's code."""
    error = getattr(err, "response", {}) or {}
    code = str(error.get("Error", {}).get("Code", type(err).__name__))
    if code != "TransactionCanceledException":
        return code
    reasons = [r.get("Code") for r in error.get("CancellationReasons") or []]
    return "cancelled:" + ",".join(sorted({r for r in reasons if r and r != "None"}))


def _prefix(value: Any) -> str:
    text = next(iter(value.values())) if isinstance(value, dict) else ""
    return str(text).split("#", 1)[0]


@dataclass
class Entry:
    """One request: its operation, its shape (each action and the kind of item it touches,
    ``Put:PLAYER/TICKET``), its outcome (``ok``, ``cancelled:<reasons>`` or an error code),
    the capacity DynamoDB Local reported and, priced exactly, AWS's units."""

    operation: str
    shape: str
    outcome: str
    reported: float = 0.0
    reported_indexes: dict[str, float] = field(default_factory=dict)
    priced: float | None = None  # the table's WCU by AWS's rules (writes, while exact)
    priced_indexes: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)  # priced table WCU by item kind
    seconds: float = 0.0


@dataclass
class _Action:
    name: str  # Put, Update, Delete, ConditionCheck
    table: str
    key: Item


class Ledger:
    """Installs itself around botocore's ``BaseClient._make_api_call`` (as
    ``_dynamo.DynamoRequests`` does) and records the DynamoDB requests of this process while
    ``counting``; while ``exact`` too, prices each write by reading its items around it."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.entries: list[Entry] = []
        self.counting = False
        self.exact = False
        self._ignored: set[int] = set()
        self._raw: Any = None
        self._schemas: dict[str, tuple[tuple[str, ...], list[Index]]] = {}
        self._lock = threading.Lock()

    def install(self) -> Ledger:
        from botocore.client import BaseClient

        original: Callable[..., Any] = BaseClient._make_api_call
        ledger = self

        def make_api_call(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if (
                not ledger.counting
                or operation not in READS | WRITES
                or id(client) in ledger._ignored
                or client.meta.service_model.service_name != "dynamodb"
            ):
                return original(client, operation, params)
            params = {**params, "ReturnConsumedCapacity": "INDEXES"}
            actions = ledger._actions(operation, params)
            priced = ledger.exact and operation in WRITES
            before = ledger._read(actions) if priced else []
            started = time.perf_counter()
            try:
                parsed = original(client, operation, params)
            except Exception as err:
                shape = ledger._shape(operation, params, actions)
                entry = Entry(operation, shape, cancellation(err))
                entry.seconds = time.perf_counter() - started
                ledger.entries.append(entry)
                raise
            entry = Entry(operation, ledger._shape(operation, params, actions), "ok")
            entry.seconds = time.perf_counter() - started
            ledger._reported(entry, parsed.get("ConsumedCapacity"))
            if priced:
                ledger._price(entry, operation, actions, before, ledger._read(actions))
            ledger.entries.append(entry)
            return parsed

        BaseClient._make_api_call = make_api_call  # type: ignore[method-assign]
        self._raw = self.ignore(_client(self.endpoint))
        return self

    def ignore(self, client: Any) -> Any:
        self._ignored.add(id(client))
        return client

    def take(self) -> list[Entry]:
        """The entries recorded so far, and a fresh start."""
        taken, self.entries = self.entries, []
        return taken

    # ------------------------------------------------------------------ what a request touches

    def _schema(self, table: str) -> tuple[tuple[str, ...], list[Index]]:
        with self._lock:
            if table not in self._schemas:
                described = self._raw.describe_table(TableName=table)["Table"]
                keys = tuple(k["AttributeName"] for k in described["KeySchema"])
                indexes = [
                    Index(
                        gsi["IndexName"],
                        tuple(k["AttributeName"] for k in gsi["KeySchema"]),
                        gsi["Projection"]["ProjectionType"],
                        tuple(gsi["Projection"].get("NonKeyAttributes", ())),
                    )
                    for gsi in described.get("GlobalSecondaryIndexes", [])
                ]
                self._schemas[table] = (keys, indexes)
            return self._schemas[table]

    def _key(self, table: str, body: dict[str, Any]) -> Item:
        if "Key" in body:
            return dict(body["Key"])
        keys, _ = self._schema(table)
        return {k: body["Item"][k] for k in keys}

    def _actions(self, operation: str, params: dict[str, Any]) -> list[_Action]:
        if operation == "TransactWriteItems":
            found = []
            for action in params.get("TransactItems", []):
                ((name, body),) = action.items()
                found.append(_Action(name, body["TableName"], self._key(body["TableName"], body)))
            return found
        if operation == "BatchWriteItem":
            return [
                _Action(
                    "Put" if "PutRequest" in request else "Delete",
                    table,
                    self._key(table, request.get("PutRequest") or request["DeleteRequest"]),
                )
                for table, requests in params.get("RequestItems", {}).items()
                for request in requests
            ]
        if operation in ("PutItem", "UpdateItem", "DeleteItem"):
            name = operation.removesuffix("Item")
            return [_Action(name, params["TableName"], self._key(params["TableName"], params))]
        return []

    def _shape(self, operation: str, params: dict[str, Any], actions: list[_Action]) -> str:
        if not actions:
            return str(params.get("IndexName") or _prefix((params.get("Key") or {}).get("sk")))
        parts = [
            f"{a.name}:{_prefix(a.key.get('pk') or a.key.get('id'))}/{_prefix(a.key.get('sk'))}"
            for a in actions
        ]
        return " ".join(sorted(parts))

    def _read(self, actions: list[_Action]) -> list[Item | None]:
        found: list[Item | None] = []
        for action in actions:
            response = self._raw.get_item(
                TableName=action.table, Key=action.key, ConsistentRead=True
            )
            found.append(response.get("Item"))
        return found

    # ------------------------------------------------------------------ what it cost

    @staticmethod
    def _reported(entry: Entry, consumed: Any) -> None:
        for part in consumed if isinstance(consumed, list) else [consumed] if consumed else []:
            entry.reported += float(part.get("CapacityUnits", 0))
            for name, units in (part.get("GlobalSecondaryIndexes") or {}).items():
                value = float(units.get("CapacityUnits", 0))
                entry.reported_indexes[name] = entry.reported_indexes.get(name, 0.0) + value

    def _price(
        self,
        entry: Entry,
        operation: str,
        actions: list[_Action],
        before: list[Item | None],
        after: list[Item | None],
    ) -> None:
        transactional = operation == "TransactWriteItems"
        entry.priced = 0
        for action, old, new in zip(actions, before, after, strict=True):
            keys, indexes = self._schema(action.table)
            units = table_units(old, new, transactional)
            entry.priced += units
            kind = self._shape(operation, {}, [action]).split(":", 1)[1]
            entry.kinds[kind] = entry.kinds.get(kind, 0) + units
            for index in indexes:
                cost = index_units(old, new, index, keys)
                if cost:
                    spent = entry.priced_indexes.get(index.name, 0)
                    entry.priced_indexes[index.name] = spent + cost


def _client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(retries={"max_attempts": 4, "mode": "standard"}, read_timeout=30)
    return boto3.session.Session().client(
        "dynamodb", endpoint_url=endpoint, config=config, region_name="us-east-1"
    )


def total(entries: Iterable[Entry], reads: bool) -> float:
    """Reported units of the reads, or of the writes (AWS's price when an entry has one)."""
    units = 0.0
    for entry in entries:
        if (entry.operation in READS) != reads or entry.outcome != "ok":
            continue
        if reads or entry.priced is None:
            units += entry.reported
        else:
            units += entry.priced + sum(entry.priced_indexes.values())
    return units


def summary(entries: Iterable[Entry]) -> dict[str, dict[str, Any]]:
    """The entries by ``<operation> <shape> <outcome>``: how many, the units reported and
    priced (JSON: what a worker process hands back)."""
    grouped: dict[str, dict[str, Any]] = {}
    for entry in entries:
        row = grouped.setdefault(
            f"{entry.operation}|{entry.shape}|{entry.outcome}",
            {"n": 0, "reported": 0.0, "indexes": {}, "priced": 0.0, "priced_n": 0, "seconds": 0.0},
        )
        row["n"] += 1
        row["reported"] += entry.reported
        row["seconds"] += entry.seconds
        for name, units in entry.reported_indexes.items():
            row["indexes"][name] = row["indexes"].get(name, 0.0) + units
        if entry.priced is not None:
            row["priced"] += entry.priced + sum(entry.priced_indexes.values())
            row["priced_n"] += 1
    return grouped
