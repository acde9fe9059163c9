"""Each player's registered devices: ``pk=PLAYER#<sub>, sk=DEVICE#<id>``, holding the platform,
the push token, the locale and the SNS endpoint the token is registered as.

A push token (one phone's app) belongs to one player's device at a time, whoever registered it
last: its owner item ``pk=PUSHTOKEN#<platform>#<sha256 of the token>, sk=OWNER`` names the
player, the device id and the endpoint. ``claim`` writes it, the claiming device's item and the
deletion of the previous owner's device item in one transaction, each conditioned on what was
read, so two accounts registering one phone at once leave one owner; ``release`` deletes a
device and, only while it still owns its token, the owner item: the caller deletes the SNS
endpoint only then (another player's registration of the phone keeps it).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.records import player_key, to_attributes
from domino.store.table import Table

DEVICE_PREFIX = "DEVICE#"
TOKEN_PREFIX = "PUSHTOKEN#"
OWNER_SK = "OWNER"
#: DynamoDB Local can show a device or token owner item that a transaction is writing or
#: deleting at that instant with its key alone (seen once in ~20 runs of two accounts racing
#: for one phone; real DynamoDB is serializable and never does): it is read again this many times
PARTIAL_READS = 5
PARTIAL_WAIT_S = 0.02
#: what a whole device item and a whole owner item hold
DEVICE_FIELDS = frozenset({"platform", "token", "endpoint", "registered"})
OWNER_FIELDS = frozenset({"player", "device", "endpoint"})


class Device(NamedTuple):
    player: str
    device_id: str
    platform: str  # apns | apns_sandbox | fcm
    token: str
    endpoint: str  # the SNS platform endpoint's ARN
    locale: str | None = None
    updated_at: int = 0


class Owner(NamedTuple):
    """Whose device a push token is registered for, and its endpoint."""

    player: str
    device_id: str
    endpoint: str


class ClaimLost(Exception):
    """The token's owner, or the device it was taken from, changed since they were read."""


def _key(player: str, device_id: str) -> dict[str, Any]:
    return to_attributes({"pk": player_key(player), "sk": DEVICE_PREFIX + device_id})


def _token_key(platform: str, token: str) -> dict[str, Any]:
    digest = hashlib.sha256(token.encode()).hexdigest()
    return to_attributes({"pk": f"{TOKEN_PREFIX}{platform}#{digest}", "sk": OWNER_SK})


def _owned_by(player: str, device_id: str) -> dict[str, Any]:
    """A condition: the token's owner item is absent or names this device."""
    return {
        "ConditionExpression": "attribute_not_exists(pk) OR (player = :p AND device = :d)",
        "ExpressionAttributeValues": to_attributes({":p": player, ":d": device_id}),
    }


class DynamoDevices:
    def __init__(self, table: Table) -> None:
        self.table = table

    def put(self, device: Device) -> None:
        self.table.call(
            self.table.client.put_item, TableName=self.table.name, Item=self._item(device)
        )

    def owner(self, platform: str, token: str) -> Owner | None:
        """Whose device ``token`` is registered for (strongly consistent; an owner item caught
        with its key alone is read again as ``get`` does, then taken for none: a claim then
        conditioned on no owner fails and is tried again)."""
        item = self._whole(_token_key(platform, token), OWNER_FIELDS)
        if item is None:
            return None
        return Owner(item["player"]["S"], item["device"]["S"], item["endpoint"]["S"])

    def claim(self, device: Device, previous: Owner | None, replaced: Device | None) -> None:
        """Make ``device`` its token's owner, atomically: the owner item (only if it is still
        ``previous``), the device's item, the previous owner's device item deleted (only while
        it holds this token) and, when the device had another token (``replaced``, owned by
        it), that token's owner item deleted. ``ClaimLost`` when any of that changed."""
        name = self.table.name
        owner = {
            **_token_key(device.platform, device.token),
            "player": {"S": device.player},
            "device": {"S": device.device_id},
            "endpoint": {"S": device.endpoint},
        }
        put_owner: dict[str, Any] = {"TableName": name, "Item": owner}
        if previous is None:
            put_owner["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            put_owner["ConditionExpression"] = "player = :p AND device = :d"
            put_owner["ExpressionAttributeValues"] = to_attributes(
                {":p": previous.player, ":d": previous.device_id}
            )
        items: list[dict[str, Any]] = [
            {"Put": put_owner},
            {"Put": {"TableName": name, "Item": self._item(device)}},
        ]
        if previous is not None and previous[:2] != (device.player, device.device_id):
            items.append(
                {
                    "Delete": {
                        "TableName": name,
                        "Key": _key(previous.player, previous.device_id),
                        "ConditionExpression": "attribute_not_exists(pk) OR #t = :t",
                        "ExpressionAttributeNames": {"#t": "token"},
                        "ExpressionAttributeValues": {":t": {"S": device.token}},
                    }
                }
            )
        if replaced is not None and (replaced.platform, replaced.token) != (
            device.platform,
            device.token,
        ):
            delete = {"TableName": name, "Key": _token_key(replaced.platform, replaced.token)}
            items.append({"Delete": {**delete, **_owned_by(device.player, device.device_id)}})
        try:
            self.table.call(self.table.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            raise ClaimLost() from err

    def release(self, device: Device) -> bool:
        """Forget ``device``; True when it still owned its token (its owner item went with it,
        and its endpoint is no one else's), False when another registration had taken it."""
        try:
            self.table.call(
                self.table.client.transact_write_items,
                TransactItems=[
                    {
                        "Delete": {
                            "TableName": self.table.name,
                            "Key": _token_key(device.platform, device.token),
                            **_owned_by(device.player, device.device_id),
                        }
                    },
                    {
                        "Delete": {
                            "TableName": self.table.name,
                            "Key": _key(device.player, device.device_id),
                        }
                    },
                ],
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            self.delete(device.player, device.device_id)
            return False
        return True

    def _item(self, device: Device) -> dict[str, Any]:
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
        return to_attributes(item)

    def get(self, player: str, device_id: str) -> Device | None:
        """The device, strongly consistent; None when there is none (or only its key, still,
        after ``PARTIAL_READS``: a transaction in flight that never settled is no device)."""
        item = self._whole(_key(player, device_id), DEVICE_FIELDS)
        return None if item is None else device(player, item)

    def _whole(self, key: dict[str, Any], fields: frozenset[str]) -> dict[str, Any] | None:
        """The item at ``key`` (strongly consistent) once it holds ``fields``, read again while
        it shows its key alone (``PARTIAL_READS``); None when there is none, or no more."""
        for attempt in range(PARTIAL_READS):
            response = self.table.call(
                self.table.client.get_item,
                TableName=self.table.name,
                Key=key,
                ConsistentRead=True,
            )
            item: dict[str, Any] | None = response.get("Item")
            if not item:
                return None
            if item.keys() >= fields:
                return item
            time.sleep(PARTIAL_WAIT_S * (attempt + 1))
        return None

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
        return newest_first([device(player, item) for item in items if is_whole(item)])


def newest_first(devices: list[Device]) -> list[Device]:
    return sorted(devices, key=lambda d: d.updated_at, reverse=True)


def is_whole(item: dict[str, Any]) -> bool:
    """A device item with every attribute ``device`` reads (not one caught mid-transaction by
    DynamoDB Local, ``PARTIAL_READS``): a query skips the other kind as a device not there yet,
    or not any more."""
    return item.keys() >= DEVICE_FIELDS


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
