"""The answers of keyed game commands (join, play, draw, pass, leave), kept 24 hours in the
idempotency table so that a retry with the same ``Idempotency-Key`` gets the first answer.

The records share the table and the shape of Powertools' idempotency records (``id``,
``status``, ``expiration``, ``validation``), which the other mutating routes still keep through
Powertools: a key used on one route and then on another is seen by both and refused. What
differs is the answer: Powertools keeps the whole response as JSON in ``data``; a game command
keeps the caller's view compressed in ``reply`` (a double-six view of ~1.5 KB is ~0.6 KB), so
the record is one write unit, written once, after the move (docs/decisions.md "Idempotency in
the game item").
"""

from __future__ import annotations

import json
import time
import zlib
from typing import Any, NamedTuple

from domino.store.records import from_attributes, to_attributes
from domino.store.table import Table

#: Powertools' record status for an answer it may replay
COMPLETED = "COMPLETED"


class StoredReply(NamedTuple):
    """A record found under a key: the request it answered (``payload``, a hash) and, for a
    game command's, the version and view it answered with (None: another route's record)."""

    payload: str
    version: int | None
    view: dict[str, Any] | None


class DynamoReplies:
    """Keyed game commands' answers in the idempotency table (thread-safe)."""

    def __init__(self, table: Table, expires_after: int) -> None:
        self.table = table
        self.expires_after = expires_after

    def get(self, record_id: str) -> StoredReply | None:
        """The record under ``record_id`` if it has not expired (strongly consistent: a retry
        right after the first answer must see it)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"id": record_id}),
            ConsistentRead=True,
        )
        item = response.get("Item")
        if not item:
            return None
        plain = from_attributes(item)
        if int(plain.get("expiration", 0)) < time.time():
            return None  # expired, not yet removed by the TTL
        reply = plain.get("reply")
        view = json.loads(zlib.decompress(reply)) if reply else None
        version = int(plain["version"]) if "version" in plain else None
        return StoredReply(str(plain.get("validation", "")), version, view)

    def put(self, record_id: str, payload: str, version: int, view: dict[str, Any]) -> None:
        """Keep the answer ``view`` at ``version`` to the request ``payload`` for 24 hours."""
        packed = zlib.compress(json.dumps(view, separators=(",", ":")).encode(), 9)
        item = {
            "id": record_id,
            "status": COMPLETED,
            "expiration": int(time.time()) + self.expires_after,
            "validation": payload,
            "version": version,
            "reply": packed,
        }
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=to_attributes(item)
        )
