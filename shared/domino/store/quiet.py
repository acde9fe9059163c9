"""The pushes a player's quiet hours held: one item per player (``HELD`` in their partition)
with the games whose notifications waited, and when the window ends.

The item carries ``due``/``due_shard`` while it waits, so the sweeper's ``by_due`` index lists it
at the window's end: the safety net behind the window's timer, as for a turn's. Holding adds to
a string set (holding a game twice is holding it once); releasing is one conditional delete that
returns what it deleted, so of two releases racing (a timer delivered twice, the sweep beside
it) exactly one gets the item.
"""

from __future__ import annotations

from typing import NamedTuple

from domino.store.records import due_shard, player_key, to_attributes
from domino.store.table import Table

HELD_SK = "HELD"


class Held(NamedTuple):
    """What waited for a player through a window: the games whose notifications were held."""

    player: str
    games: frozenset[str]


def held_key(player: str) -> dict[str, dict[str, str]]:
    return to_attributes({"pk": player_key(player), "sk": HELD_SK})


class DynamoHeld:
    def __init__(self, table: Table) -> None:
        self.table = table

    def hold(self, player: str, game: str, until: int) -> bool:
        """Add ``game`` to the player's held games, due at ``until``; whether ``until`` is new
        to the item (the first hold of a window, or a window changed meanwhile)."""
        response = self.table.call(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=held_key(player),
            UpdateExpression="ADD games :game SET due = :until, due_shard = :shard",
            ExpressionAttributeValues={
                ":game": {"SS": [game]},
                ":until": {"N": str(until)},
                ":shard": {"S": due_shard(player_key(player))},
            },
            ReturnValues="UPDATED_OLD",
        )
        old = response.get("Attributes", {}).get("due")
        return old is None or int(old["N"]) != until

    def release(self, player: str, now: int) -> Held | None:
        response = None
        try:
            response = self.table.call(
                self.table.client.delete_item,
                TableName=self.table.name,
                Key=held_key(player),
                ConditionExpression="due <= :now",
                ExpressionAttributeValues={":now": {"N": str(now)}},
                ReturnValues="ALL_OLD",
            )
        except self.table.client.exceptions.ConditionalCheckFailedException:
            return None  # none held, still in the window, or another release took it
        item = response.get("Attributes") if response else None
        if not item:
            return None
        return Held(player, frozenset(item.get("games", {}).get("SS", [])))
