"""Who met whom: each player's opponents in finished matches (``GET /me/opponents``).

Three kinds of item, all in the game table:
- ``PLAYER#<p> / OPP#<o>``: the pair's row, found by the opponent (``matches``, ``name``, ``at``:
  when they last finished a match together, epoch seconds).
- ``PLAYER#<p> / MET#<at ISO>#<o>``: the same row under its time, so that the player's
  partition lists opponents most recent first, one Query a page; moved (deleted and put again)
  when ``at`` moves on.
- ``GAME#<g> / MET#<p>``: the marker that game ``g`` was counted for ``p``, written in the same
  transaction as ``p``'s rows with ``attribute_not_exists``: a redelivered finish (the stream
  retries) finds it and counts nothing. It expires with ``MARKER_TTL_SECONDS``, long after the
  stream (24 hours) could deliver the finish again.
A row's OPP item is updated only while its ``at`` is what was read (two games of the same pair
finishing at once: the loser reads again), and a game that finished before the pair's latest
adds to the count without moving the row back in time.
"""

from __future__ import annotations

import re
from typing import Any

from botocore.exceptions import ClientError

from domino.store.cursors import decode_cursor, encode_cursor
from domino.store.errors import Unavailable, cancellation_codes
from domino.store.records import Item, from_attributes, game_key, iso, player_key, to_attributes
from domino.store.table import Table

OPP_PREFIX = "OPP#"
MET_PREFIX = "MET#"
MET_END = MET_PREFIX + "\uffff"
#: how long a game's "counted" markers stay: the stream keeps records for 24 hours
MARKER_TTL_SECONDS = 7 * 24 * 3600
#: lost races for a pair's row (another game of the pair finishing at once) before giving up
RECORD_ATTEMPTS = 8
#: a page's position: the sort key of its last row
MET_CURSOR = {"s": re.compile(r"MET#[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z#.{1,255}", re.DOTALL)}


def _met_key(at: int, opponent: str) -> str:
    return f"{MET_PREFIX}{iso(at)}#{opponent}"


class DynamoOpponents:
    """``OpponentStore`` on the game table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.client = table.client
        self.name = table.name

    def record_match(self, game_id: str, people: list[tuple[str, str]], finished_at: int) -> int:
        """Count ``game_id`` once for each player of ``people`` against each other one."""
        written = 0
        for player, _ in people:
            others = [(o, name) for o, name in people if o != player]
            for _attempt in range(RECORD_ATTEMPTS):
                outcome = self._record_one(game_id, player, others, finished_at)
                if outcome is not None:
                    written += outcome
                    break
            else:
                raise Unavailable()
        return written

    def _record_one(
        self, game_id: str, player: str, others: list[tuple[str, str]], finished_at: int
    ) -> int | None:
        """1: counted now; 0: counted before; None: a row changed meanwhile (read again)."""
        pk = player_key(player)
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.name,
                    "Item": to_attributes(
                        {
                            "pk": game_key(game_id),
                            "sk": MET_PREFIX + player,
                            "ttl": finished_at + MARKER_TTL_SECONDS,
                        }
                    ),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        ]
        for opponent, name in others:
            row = self._row(pk, opponent)
            matches = int(row["matches"]) + 1 if row else 1
            before = int(row["at"]) if row else None
            at = max(finished_at, before or 0)
            fields = {"opponent": opponent, "name": name, "matches": matches, "at": at}
            if before is not None and before > finished_at:
                fields["name"] = str(row["name"]) if row else name  # the later game's name stays
            update: dict[str, Any] = {
                "TableName": self.name,
                "Item": to_attributes({"pk": pk, "sk": OPP_PREFIX + opponent, **fields}),
            }
            if row is None:
                update["ConditionExpression"] = "attribute_not_exists(pk)"
            else:
                update["ConditionExpression"] = "matches = :m"
                update["ExpressionAttributeValues"] = to_attributes({":m": int(row["matches"])})
            items.append({"Put": update})
            if before is not None and _met_key(before, opponent) != _met_key(at, opponent):
                old = {"pk": pk, "sk": _met_key(before, opponent)}
                items.append({"Delete": {"TableName": self.name, "Key": to_attributes(old)}})
            met = {"pk": pk, "sk": _met_key(at, opponent), **fields}
            items.append({"Put": {"TableName": self.name, "Item": to_attributes(met)}})
        try:
            self.table.call(self.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            codes = cancellation_codes(err)
            if codes and codes[0] == "ConditionalCheckFailed":
                return 0  # this game was counted for this player already
            if "ConditionalCheckFailed" in codes or "TransactionConflict" in codes:
                return None
            raise
        return 1

    def _row(self, pk: str, opponent: str) -> dict[str, Any] | None:
        response = self.table.call(
            self.client.get_item,
            TableName=self.name,
            Key=to_attributes({"pk": pk, "sk": OPP_PREFIX + opponent}),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return from_attributes(item) if item else None

    def page(
        self, player: str, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The player's opponents, most recently met first, after ``cursor``."""
        upper = decode_cursor(cursor, MET_CURSOR)["s"] if cursor else MET_END
        response = self.table.call(
            self.client.query,
            TableName=self.name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=to_attributes(
                {":pk": player_key(player), ":lo": MET_PREFIX, ":hi": upper}
            ),
            ScanIndexForward=False,
            Limit=limit + 2,  # the upper bound is inclusive: the cursor's own row comes back
        )
        items = [i for i in response.get("Items", []) if not cursor or i["sk"]["S"] != upper]
        page = items[:limit]
        following = encode_cursor({"s": page[-1]["sk"]["S"]}) if len(items) > limit else None
        return [opponent_row(i) for i in page], following


def opponent_row(item: Item) -> dict[str, Any]:
    """A stored row as ``GET /me/opponents`` lists it."""
    plain = from_attributes(item)
    return {
        "player": plain["opponent"],
        "name": plain["name"],
        "matches": int(plain["matches"]),
        "last_played": iso(plain["at"]),
    }
