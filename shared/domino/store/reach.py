"""Where a player can be reached, read in one query: their devices (``DEVICE#<id>``) and open
sockets (``CONN#<id>``) sort next to each other in the player's partition, with nothing between
them but the player's muted notification types (``DEVICE!MUTE``, store/accounts.py: what the
push channel needs too); ``DONE#`` sorts after ``DEVICE#``, games, notes and the profile later
still, so ``sk BETWEEN "CONN#" AND "DEVICE#\\uffff"`` reads exactly those."""

from __future__ import annotations

from typing import NamedTuple

from domino.store.accounts import MUTE_SK, notice_settings
from domino.store.connections import CONN_PREFIX, connection, expired, is_open
from domino.store.devices import DEVICE_PREFIX, Device, device, is_whole, newest_first
from domino.store.records import player_key, to_attributes
from domino.store.table import Table

#: above every device's sort key, below anything that sorts after them
LAST = DEVICE_PREFIX + "\uffff"


class Reach(NamedTuple):
    devices: list[Device]  # the most recently registered first
    sockets: list[tuple[str, str | None]]  # open connections: (id, locale)
    expired: tuple[str, ...] = ()  # connections whose token has expired: to close
    muted: tuple[str, ...] = ()  # notification types not pushed (PATCH /me {"mute"})
    locale: str | None = None  # the language chosen with PATCH /me {"locale"}
    quiet: str | None = None  # their quiet hours (PATCH /me {"quiet_hours"}), encoded


class DynamoReach:
    def __init__(self, table: Table) -> None:
        self.table = table

    def of_player(self, player: str, now: int) -> Reach:
        bounds = {":pk": player_key(player), ":first": CONN_PREFIX, ":last": LAST}
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :first AND :last",
            ExpressionAttributeValues=to_attributes(bounds),
        )
        devices: list[Device] = []
        sockets: list[tuple[str, str | None]] = []
        ended: list[str] = []
        settings = notice_settings(None)
        for item in items:
            key = item["sk"]["S"]
            if key == MUTE_SK:
                settings = notice_settings(item)
            elif key.startswith(DEVICE_PREFIX):
                if is_whole(item):
                    devices.append(device(player, item))
            elif key.startswith(CONN_PREFIX) and is_open(item, now):
                if expired(item, now):
                    ended.append(connection(item)[0])
                else:
                    sockets.append(connection(item))
        return Reach(
            newest_first(devices),
            sockets,
            tuple(ended),
            settings.muted,
            settings.locale,
            settings.quiet,
        )
