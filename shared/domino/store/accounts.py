"""Each player's profile, and what deleting their account removes from the table.

The profile is one small item, ``pk=PLAYER#<sub>, sk=PROFILE``: the display name the player
chose (``PATCH /me``). Deleting the account replaces it with a tombstone, ``deleted`` (epoch
seconds) and a TTL: a token issued before that moment cannot create a profile, a game or a seat
again while it is still valid (``DELETED_KEPT_SECONDS`` outlives any token's lifetime); a token
issued afterwards (the same person signing in again) can. Everything else in the player's
partition (memberships ``GAME#``, devices ``DEVICE#``, inbox ``NOTE#`` and ``READ``,
connections ``CONN#``) is deleted by ``erase``.

The notification types the player muted (``PATCH /me {"mute"}``: not pushed) are their own item,
``sk=DEVICE!MUTE`` (``types``, comma-separated): it sorts between the sockets ``CONN#`` and the
devices ``DEVICE#`` (``!`` sorts before ``#``), so the notifier's one query of where a player can
be reached (store/reach.py) reads it with them, at no extra request.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.records import player_key, to_attributes
from domino.store.table import Table

PROFILE_SK = "PROFILE"
MUTE_SK = "DEVICE!MUTE"
#: how long a deleted account's tombstone stays: longer than tokens live (Cognito's ID tokens
#: 1 hour by default, 1 day at most; the local runtime's dev tokens 7 days)
DELETED_KEPT_SECONDS = 8 * 24 * 3600


class Profile(NamedTuple):
    """A player's profile: the chosen display name (None: the token's), and when the account
    was deleted (None: it was not)."""

    player: str
    name: str | None = None
    deleted_at: int | None = None

    def refuses(self, issued_at: int | None) -> bool:
        """Whether the account was deleted after a token issued at ``issued_at`` (a token that
        does not say when it was issued counts as older)."""
        return self.deleted_at is not None and (issued_at is None or issued_at <= self.deleted_at)


class ProfileDeleted(Exception):
    """The account was deleted after the caller's token was issued: nothing is written."""


def _key(player: str) -> dict[str, Any]:
    return to_attributes({"pk": player_key(player), "sk": PROFILE_SK})


def alive_since(table: Table, player: str, issued_at: int | None) -> dict[str, Any]:
    """A transaction's ``ConditionCheck`` that the player's account was not deleted at or after
    ``issued_at`` (a token's ``iat``; None: a token that does not say, refused by any
    tombstone): written beside a game's membership or a socket's item, it makes the write and
    ``DELETE /me``'s tombstone serial, so a deletion either sees the write or refuses it."""
    return {
        "ConditionCheck": {
            "TableName": table.name,
            "Key": _key(player),
            "ConditionExpression": "attribute_not_exists(deleted) OR deleted < :issued",
            "ExpressionAttributeValues": to_attributes({":issued": issued_at or 0}),
        }
    }


class DynamoAccounts:
    def __init__(self, table: Table) -> None:
        self.table = table

    def profile(self, player: str) -> Profile | None:
        """One strongly consistent GetItem (a name set a moment ago shows in the next seat)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=_key(player),
            ConsistentRead=True,
        )
        item = response.get("Item")
        if not item:
            return None
        name, deleted = item.get("name"), item.get("deleted")
        return Profile(player, name["S"] if name else None, int(deleted["N"]) if deleted else None)

    def set_name(self, player: str, name: str, at: int, issued_at: int | None) -> None:
        """The profile with ``name``, unless the account was deleted after ``issued_at``
        (``ProfileDeleted``): one conditional PutItem, which replaces a tombstone it passes."""
        item = {"pk": player_key(player), "sk": PROFILE_SK, "name": name, "changed": at}
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes(item),
                ConditionExpression="attribute_not_exists(deleted) OR deleted < :issued",
                ExpressionAttributeValues=to_attributes({":issued": issued_at or 0}),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            raise ProfileDeleted() from err

    def muted(self, player: str) -> tuple[str, ...]:
        """The notification types the player does not want pushed."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": MUTE_SK}),
            ConsistentRead=True,
        )
        return muted_types(response.get("Item"))

    def set_muted(self, player: str, types: tuple[str, ...], at: int) -> None:
        """Mute exactly ``types`` (none: the item goes)."""
        key = {"pk": player_key(player), "sk": MUTE_SK}
        if not types:
            self.table.call(
                self.table.client.delete_item, TableName=self.table.name, Key=to_attributes(key)
            )
            return
        item = {**key, "types": ",".join(types), "changed": at}
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=to_attributes(item)
        )

    def mark_deleted(self, player: str, at: int) -> None:
        """The tombstone, in place of the profile (its name goes with it)."""
        item = {
            "pk": player_key(player),
            "sk": PROFILE_SK,
            "deleted": at,
            "ttl": at + DELETED_KEPT_SECONDS,
        }
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=to_attributes(item)
        )

    def game_ids(self, player: str) -> list[str]:
        """Every game the player has a membership item for (no cap: deletion needs them all)."""
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :g)",
            ExpressionAttributeValues=to_attributes({":pk": player_key(player), ":g": "GAME#"}),
            ProjectionExpression="sk",
            # strongly consistent: a membership written before the tombstone is seen
            ConsistentRead=True,
        )
        return [item["sk"]["S"].removeprefix("GAME#") for item in items]

    def erase(self, player: str) -> int:
        """Delete every item of the player's partition but the profile (the tombstone): their
        memberships, devices, inbox, read marker and connections. Returns how many."""
        pk = player_key(player)
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues=to_attributes({":pk": pk}),
            ProjectionExpression="sk",
        )
        keys = [{"pk": pk, "sk": item["sk"]["S"]} for item in items]
        keys = [key for key in keys if key["sk"] != PROFILE_SK]
        self.table.delete_keys(keys)
        return len(keys)


def muted_types(item: dict[str, Any] | None) -> tuple[str, ...]:
    """The types a ``DEVICE!MUTE`` item holds (none without one)."""
    if not item or not item.get("types", {}).get("S"):
        return ()
    return tuple(item["types"]["S"].split(","))
