"""Each player's profile, and what deleting their account removes from the table.

The profile is one small item, ``pk=PLAYER#<sub>, sk=PROFILE``: the display name the player
chose (``PATCH /me``). Deleting the account replaces it with a tombstone, ``deleted`` (epoch
seconds) and a TTL: a token issued before that moment cannot create a profile, a game or a seat
again while it is still valid (``DELETED_KEPT_SECONDS`` outlives any token's lifetime); a token
issued afterwards (the same person signing in again) can. Everything else in the player's
partition (memberships ``GAME#``, devices ``DEVICE#``, inbox ``NOTE#`` and ``READ``,
connections ``CONN#``) is deleted by ``erase``.

A ban (the operator's ``domino-admin ban``) is ``banned`` (epoch seconds) and ``ban_reason`` on
the same item: every authenticated request reads it (``refuse_if_banned``: 401 everywhere), and
the transactions that seat a player or admit a socket check it with the tombstone
(``alive_since``), so a ban racing a join or a $connect either sees it or refuses it. Only
``unban`` removes it; a rename and the player's own ``PATCH /me`` keep it.

The notification types the player muted (``PATCH /me {"mute"}``: not pushed) and the language
they chose (``PATCH /me {"locale"}``) are their own item, ``sk=DEVICE!MUTE`` (``types``,
comma-separated, and ``locale``): it sorts between the sockets ``CONN#`` and the devices
``DEVICE#`` (``!`` sorts before ``#``), so the notifier's one query of where a player can be
reached (store/reach.py) reads both with them, at no extra request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from domino.store.records import Item, player_key, to_attributes
from domino.store.table import Table

PROFILE_SK = "PROFILE"
MUTE_SK = "DEVICE!MUTE"
#: how long a deleted account's tombstone stays: longer than tokens live (Cognito's ID tokens
#: 1 hour by default, 1 day at most; the local runtime's dev tokens 7 days)
DELETED_KEPT_SECONDS = 8 * 24 * 3600


class Profile(NamedTuple):
    """A player's profile: the chosen display name (None: the token's), when the account
    was deleted and when it was banned (None: it was not)."""

    player: str
    name: str | None = None
    deleted_at: int | None = None
    banned_at: int | None = None

    def refuses(self, issued_at: int | None) -> bool:
        """Whether a token issued at ``issued_at`` is refused: the account is banned, or was
        deleted after it (a token that does not say when it was issued counts as older)."""
        if self.banned_at is not None:
            return True
        return self.deleted_at is not None and (issued_at is None or issued_at <= self.deleted_at)


class ProfileDeleted(Exception):
    """The account was deleted after the caller's token was issued, or banned: nothing is
    written."""


#: a profile that takes a write from a token issued at ``:issued``: not banned, and not deleted
#: at or after that moment
ALIVE = "attribute_not_exists(banned) AND (attribute_not_exists(deleted) OR deleted < :issued)"


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
            "ConditionExpression": ALIVE,
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
        name, deleted, banned = item.get("name"), item.get("deleted"), item.get("banned")
        return Profile(
            player,
            name["S"] if name else None,
            int(deleted["N"]) if deleted else None,
            int(banned["N"]) if banned else None,
        )

    def refuse_if_banned(self, player: str, refuse: Callable[[], None]) -> None:
        """``refuse()`` (which raises) if the operator banned the player, read along with the
        request's next GetItem (``Table.read_with_next``): an authenticated call's ban costs no
        round trip of its own when the call loads a game or a profile first."""

        def on_profile(item: Item | None) -> None:
            if item is not None and "banned" in item:
                refuse()

        self.table.read_with_next(_key(player), on_profile)

    def ban(self, player: str, at: int, reason: str) -> None:
        """Mark the profile banned (an UpdateItem: a chosen name stays, for the operator)."""
        self.table.call(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=_key(player),
            UpdateExpression="SET banned = :at, ban_reason = :reason",
            ExpressionAttributeValues=to_attributes({":at": at, ":reason": reason}),
        )

    def unban(self, player: str) -> bool:
        """Lift a ban (False: the player was not banned)."""
        return self.table.conditional(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=_key(player),
            UpdateExpression="REMOVE banned, ban_reason",
            ConditionExpression="attribute_exists(banned)",
        )

    def rename(self, player: str, name: str, at: int) -> None:
        """The operator's rename: the name set whatever the player chose, a ban kept; an
        account deleted is not brought back (``ProfileDeleted``)."""
        if not self.table.conditional(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=_key(player),
            UpdateExpression="SET #name = :name, changed = :at",
            ConditionExpression="attribute_not_exists(deleted)",
            ExpressionAttributeNames={"#name": "name"},
            ExpressionAttributeValues=to_attributes({":name": name, ":at": at}),
        ):
            raise ProfileDeleted()

    def set_name(self, player: str, name: str, at: int, issued_at: int | None) -> None:
        """The profile with ``name``, unless the account was deleted after ``issued_at`` or is
        banned (``ProfileDeleted``): one conditional PutItem, which replaces a tombstone it
        passes."""
        item = {"pk": player_key(player), "sk": PROFILE_SK, "name": name, "changed": at}
        if not self.table.conditional(
            self.table.client.put_item,
            TableName=self.table.name,
            Item=to_attributes(item),
            ConditionExpression=ALIVE,
            ExpressionAttributeValues=to_attributes({":issued": issued_at or 0}),
        ):
            raise ProfileDeleted()

    def notice_settings(self, player: str) -> NoticeSettings:
        """The notification types the player does not want pushed, and the language chosen."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": MUTE_SK}),
            ConsistentRead=True,
        )
        return notice_settings(response.get("Item"))

    def muted(self, player: str) -> tuple[str, ...]:
        return self.notice_settings(player).muted

    def set_muted(self, player: str, types: tuple[str, ...], at: int) -> None:
        """Mute exactly ``types`` (none: every type pushed again); the locale is kept."""
        self._set(player, at, "types", ",".join(types) or None)

    def set_locale(self, player: str, locale: str | None, at: int) -> None:
        """The language chosen (None: none, the devices' and the token's decide again)."""
        self._set(player, at, "locale", locale)

    def set_auto_forced(self, player: str, on: bool, at: int) -> None:
        """Whether a turn with one thing to do is played for the player at once."""
        self._set(player, at, "auto_forced", True if on else None)

    def set_quiet_hours(self, player: str, quiet: str | None, at: int) -> None:
        """The player's quiet hours, encoded (None: none, every push sent at once)."""
        self._set(player, at, "quiet", quiet)

    def _set(self, player: str, at: int, attribute: str, value: str | bool | None) -> None:
        values: dict[str, Any] = {":at": at}
        update = "SET changed = :at"
        if value is None:
            update += f" REMOVE {attribute}"
        else:
            update += f", {attribute} = :v"
            values[":v"] = value
        self.table.call(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": MUTE_SK}),
            UpdateExpression=update,
            ExpressionAttributeValues=to_attributes(values),
        )

    def mark_deleted(self, player: str, at: int) -> None:
        """The tombstone, in place of the profile (its name goes with it). A banned account's
        request never gets here; one racing the ban is refused (``ProfileDeleted``), so the
        tombstone never wipes a ban."""
        item = {
            "pk": player_key(player),
            "sk": PROFILE_SK,
            "deleted": at,
            "ttl": at + DELETED_KEPT_SECONDS,
        }
        if not self.table.conditional(
            self.table.client.put_item,
            TableName=self.table.name,
            Item=to_attributes(item),
            ConditionExpression="attribute_not_exists(banned)",
        ):
            raise ProfileDeleted()

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


class NoticeSettings(NamedTuple):
    """What ``PATCH /me`` chose of the player's notifications."""

    muted: tuple[str, ...] = ()  # the types not pushed
    locale: str | None = None  # their language (None: their devices' or token's)
    auto_forced: bool = False  # a turn with one thing to do is played for them at once
    #: their quiet hours, ``22:00 08:00 Europe/Madrid`` (``domino.service.quiet.QuietHours``)
    quiet: str | None = None


def notice_settings(item: dict[str, Any] | None) -> NoticeSettings:
    """What a ``DEVICE!MUTE`` item holds (nothing chosen without one)."""
    if not item:
        return NoticeSettings()
    types = item.get("types", {}).get("S")
    locale = item.get("locale", {}).get("S")
    auto_forced = bool(item.get("auto_forced", {}).get("BOOL", False))
    quiet = item.get("quiet", {}).get("S")
    muted = tuple(types.split(",")) if types else ()
    return NoticeSettings(muted, locale or None, auto_forced, quiet or None)
