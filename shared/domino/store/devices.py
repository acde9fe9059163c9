"""Each player's registered devices: ``pk=PLAYER#<sub>, sk=DEVICE#<id>``, holding the platform,
the push token, the locale and the SNS endpoint the token is registered as."""

from __future__ import annotations

from typing import Any, NamedTuple

from domino.store.records import player_key, to_attributes
from domino.store.table import Table

DEVICE_PREFIX = "DEVICE#"


class Device(NamedTuple):
    player: str
    device_id: str
    platform: str  # apns | apns_sandbox | fcm
    token: str
    endpoint: str  # the SNS platform endpoint's ARN
    locale: str | None = None
    updated_at: int = 0


def _key(player: str, device_id: str) -> dict[str, Any]:
    return to_attributes({"pk": player_key(player), "sk": DEVICE_PREFIX + device_id})


class DynamoDevices:
    def __init__(self, table: Table) -> None:
        self.table = table

    def put(self, device: Device) -> None:
        item: dict[str, Any] = {
            "pk": player_key(device.player),
            "sk": DEVICE_PREFIX + device.device_id,
            "platform": device.platform,
            "token": device.token,
            "endpoint": device.endpoint,
            # not "updated_at": that name is open_games' sort key, a string
            "registered": device.updated_at,
        }
        if device.locale:
            item["locale"] = device.locale
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=to_attributes(item)
        )

    def get(self, player: str, device_id: str) -> Device | None:
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=_key(player, device_id),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return device(player, item) if item else None

    def delete(self, player: str, device_id: str) -> None:
        self.table.call(
            self.table.client.delete_item, TableName=self.table.name, Key=_key(player, device_id)
        )

    def of_player(self, player: str) -> list[Device]:
        """The player's devices, the most recently registered first."""
        items = self.table.query(
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :d)",
            ExpressionAttributeValues=to_attributes(
                {":pk": player_key(player), ":d": DEVICE_PREFIX}
            ),
        )
        return newest_first([device(player, item) for item in items])


def newest_first(devices: list[Device]) -> list[Device]:
    return sorted(devices, key=lambda d: d.updated_at, reverse=True)


def device(player: str, item: dict[str, dict[str, Any]]) -> Device:
    locale = item.get("locale")
    return Device(
        player=player,
        device_id=item["sk"]["S"].removeprefix(DEVICE_PREFIX),
        platform=item["platform"]["S"],
        token=item["token"]["S"],
        endpoint=item["endpoint"]["S"],
        locale=locale["S"] if locale else None,
        updated_at=int(item["registered"]["N"]),
    )
