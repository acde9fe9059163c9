"""A player's vacations: one item (``PLAYER#<sub> / VACATION``) with the one under way (its
start and ``until``) and the spans of those that ended within the last 365 days, which the
30-day budget counts.

Every write is conditional on the item's ``v`` as it was read (a vacation set, ended early and
ending by itself may race: one wins, the others read again). While a vacation is under way
the item carries ``due``/``due_shard`` (= ``until``), so the sweeper's ``by_due`` index lists
it when it ends: the safety net behind its timer.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from botocore.exceptions import ClientError

from domino.store.errors import VersionConflict
from domino.store.records import due_shard, player_key, to_attributes
from domino.store.table import Table

VACATION_SK = "VACATION"


class Vacation(NamedTuple):
    """``start``/``until``: the vacation under way (None: none); ``past``: the spans (start,
    end) of those that ended; ``v``: the item's version (0: no item)."""

    player: str
    start: int | None = None
    until: int | None = None
    past: tuple[tuple[int, int], ...] = ()
    v: int = 0


class DynamoVacations:
    def __init__(self, table: Table) -> None:
        self.table = table

    def get(self, player: str) -> Vacation:
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": VACATION_SK}),
            ConsistentRead=True,
        )
        item = response.get("Item")
        if not item:
            return Vacation(player)
        past = tuple((int(s), int(e)) for s, e in json.loads(item["past"]["S"]))
        start = int(item["start"]["N"]) if "start" in item else None
        until = int(item["until"]["N"]) if "until" in item else None
        return Vacation(player, start, until, past, int(item["v"]["N"]))

    def put(self, vacation: Vacation) -> Vacation:
        """Write ``vacation`` if the item is still at ``vacation.v`` (else ``VersionConflict``);
        the vacation as written (its ``v`` one more)."""
        written = vacation._replace(v=vacation.v + 1)
        item: dict[str, object] = {
            "pk": player_key(vacation.player),
            "sk": VACATION_SK,
            "v": written.v,
            "past": json.dumps([list(span) for span in vacation.past]),
        }
        if vacation.start is not None and vacation.until is not None:
            item.update(start=vacation.start, until=vacation.until, due=vacation.until)
            item["due_shard"] = due_shard(player_key(vacation.player))
        condition = "attribute_not_exists(v)" if vacation.v == 0 else "v = :v"
        values = {} if vacation.v == 0 else {":v": {"N": str(vacation.v)}}
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes(item),
                ConditionExpression=condition,
                **({"ExpressionAttributeValues": values} if values else {}),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            raise VersionConflict(None) from None
        return written
