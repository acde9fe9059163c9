"""Game items under optimistic locking, membership items, and the listings built on the GSIs.

One game is one item (``pk=GAME#<id>, sk=GAME``) holding the engine's compact encoding, so an
accepted move costs one strongly consistent GetItem and one conditional PutItem
(``version = :expected``). Joins, creates and pre-deal leaves also write the player's membership
item (``pk=PLAYER#<sub>, sk=GAME#<id>``) in the same transaction.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

GAME_SK = "GAME"
OPEN_LIST = "OPEN"
DEADLINE_LIST = "DUE"
FINISHED_TTL_SECONDS = 90 * 24 * 3600  # finished and abandoned games expire after 90 days
THROTTLE_CODES = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "InternalServerError",
    "ServiceUnavailable",
}


def throttled(err: BaseException | None) -> bool:
    """Whether DynamoDB throttled (or was briefly unavailable) behind ``err`` or its causes."""
    while err is not None:
        if isinstance(err, ClientError) and err.response["Error"]["Code"] in THROTTLE_CODES:
            return True
        err = err.__cause__ or err.__context__
    return False


class StoreError(Exception):
    """Base class of what the store raises."""


class VersionConflict(StoreError):
    """The conditional write lost a race; ``current`` is the item that won (or None if gone)."""

    def __init__(self, current: GameRecord | None) -> None:
        super().__init__("version conflict")
        self.current = current


class AlreadyMember(StoreError):
    """The player's membership item exists already (a concurrent join of the same player)."""


class Unavailable(StoreError):
    """DynamoDB throttled us after the SDK's retries (the API answers 503 with Retry-After)."""


@dataclass
class Seat:
    player: str | None  # None: an open seat (before the deal) or a bot
    name: str | None
    bot: str | None = None  # the bot level when a computer plays this seat

    def to_json(self) -> list[Any]:
        return [self.player, self.name, self.bot]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Seat:
        return cls(raw[0], raw[1], raw[2])


@dataclass
class GameRecord:
    """A game as stored: metadata the API needs plus the engine state (``state``) once dealt."""

    id: str
    version: int
    status: str  # waiting | playing | finished
    preset: str
    config: dict[str, Any]  # players, rules overrides, name, private, timeouts, bot level, seed
    seats: list[Seat]
    state: bytes | None = None
    created_at: int = 0
    updated_at: int = 0
    deadline: int | None = None
    turn_player: str | None = None
    # set by a write that ends a hand: the hand, now the item's previous one, whose moves the
    # stream consumer copies to their own item (functions/archive)
    archive_hand: int | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of(self, player: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.player == player and seat.bot is None:
                return index
        return None


def iso(epoch: int | float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _typed(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Our items hold only strings, whole numbers and bytes: DynamoDB's typed form of them,
    written out directly (boto3's resource layer costs about half a millisecond a call)."""
    out: dict[str, dict[str, Any]] = {}
    for key, value in item.items():
        if isinstance(value, str):
            out[key] = {"S": value}
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = {"N": str(value)}
        elif isinstance(value, bytes):
            out[key] = {"B": value}
        else:
            raise TypeError(f"{key}: {type(value).__name__} is not stored")
    return out


def _plain(item: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The typed attributes DynamoDB returns, back to str, int and bytes (binary values come
    base64-encoded in the JSON of stream events)."""
    out: dict[str, Any] = {}
    for key, typed in item.items():
        ((kind, value),) = typed.items()
        if kind == "N":
            value = int(value)
        elif kind == "B" and isinstance(value, str):
            value = base64.b64decode(value)
        out[key] = value
    return out


def game_id_of(keys: dict[str, dict[str, Any]]) -> str | None:
    """The game id of a game item's typed key (None for any other item)."""
    key = _plain(keys)
    pk = str(key.get("pk", ""))
    return pk.removeprefix("GAME#") if key.get("sk") == GAME_SK and pk.startswith("GAME#") else None


def record_from_image(image: dict[str, dict[str, Any]]) -> GameRecord | None:
    """The game in a stream record's image (None for any other item)."""
    if game_id_of({k: image[k] for k in ("pk", "sk") if k in image}) is None:
        return None
    return _from_item(_plain(image))


def _to_item(record: GameRecord) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": f"GAME#{record.id}",
        "sk": GAME_SK,
        "version": record.version,
        "status": record.status,
        "preset": record.preset,
        "cfg": json.dumps(record.config, separators=(",", ":")),
        "seats": json.dumps([s.to_json() for s in record.seats], separators=(",", ":")),
        "created": record.created_at,
        "updated_at": iso(record.updated_at),
    }
    if record.state is not None:
        item["state"] = record.state
    if record.status == "playing" and record.turn_player:
        item["turn_player"] = record.turn_player
    if record.status == "waiting" and not record.config.get("private"):
        item["open_list"] = OPEN_LIST
    if record.deadline is not None and record.status == "playing":
        item["deadline"] = record.deadline
        item["deadline_list"] = DEADLINE_LIST
    if record.status == "finished":
        item["ttl"] = record.updated_at + FINISHED_TTL_SECONDS
    if record.archive_hand is not None:
        item["archive"] = record.archive_hand
    return item


def _from_item(item: dict[str, Any]) -> GameRecord:
    state = item.get("state")
    updated = item.get("updated_at")
    return GameRecord(
        id=str(item["pk"]).removeprefix("GAME#"),
        version=int(item["version"]),
        status=str(item["status"]),
        preset=str(item["preset"]),
        config=json.loads(item["cfg"]),
        seats=[Seat.from_json(raw) for raw in json.loads(item["seats"])],
        state=bytes(state) if state else None,
        created_at=int(item.get("created", 0)),
        # fromisoformat: strptime costs ~15 us a call, on every load
        updated_at=int(datetime.fromisoformat(updated).timestamp()) if updated else 0,
        deadline=int(item["deadline"]) if "deadline" in item else None,
        turn_player=item.get("turn_player"),
        archive_hand=int(item["archive"]) if "archive" in item else None,
    )


def _membership(player: str, game_id: str, now: int) -> dict[str, Any]:
    return {"pk": f"PLAYER#{player}", "sk": f"GAME#{game_id}", "joined": now}


class GameStore:
    """Versioned load/save of games and the player-scoped listings, on one low-level client
    (thread-safe)."""

    def __init__(self, table_name: str, *, endpoint_url: str | None = None) -> None:
        config = Config(
            retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=2, read_timeout=5
        )
        session = boto3.session.Session()
        self.client = session.client("dynamodb", endpoint_url=endpoint_url or None, config=config)
        self.table_name = table_name
        self.consumed: list[dict[str, Any]] = []  # ReturnConsumedCapacity, read by the bench
        self.track_capacity = os.environ.get("DOMINO_TRACK_CAPACITY") == "true"

    # ------------------------------------------------------------------ plumbing

    def _call(self, fn: Any, **kwargs: Any) -> Any:
        if self.track_capacity:
            kwargs["ReturnConsumedCapacity"] = "TOTAL"
        try:
            response = fn(**kwargs)
        except ClientError as err:
            if throttled(err):
                raise Unavailable(err.response["Error"]["Code"]) from err
            raise
        if self.track_capacity:
            capacity = response.get("ConsumedCapacity")
            if capacity:
                self.consumed.extend(capacity if isinstance(capacity, list) else [capacity])
        return response

    def _query(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        """Every item a Query matches, page after page, read as they are consumed."""
        while True:
            response = self._call(self.client.query, **kwargs)
            yield from response.get("Items", [])
            if "LastEvaluatedKey" not in response:
                return
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    # ------------------------------------------------------------------ games

    def load(self, game_id: str) -> GameRecord | None:
        """One strongly consistent GetItem."""
        response = self._call(
            self.client.get_item,
            TableName=self.table_name,
            Key=_typed({"pk": f"GAME#{game_id}", "sk": GAME_SK}),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return _from_item(_plain(item)) if item else None

    def create(self, record: GameRecord) -> None:
        """The new game and its creator's membership, atomically."""
        creator = record.seats[0].player
        assert creator is not None
        self._transact(
            [
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": _typed(_to_item(record)),
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": _typed(_membership(creator, record.id, record.created_at)),
                    }
                },
            ],
            record,
            expected=None,
        )

    def save(
        self,
        record: GameRecord,
        expected: int,
        *,
        join: str | None = None,
        unjoin: str | None = None,
    ) -> None:
        """Write ``record`` if the stored version is still ``expected``: one conditional PutItem,
        or a transaction with the membership item when a player joins or leaves a seat."""
        if join is None and unjoin is None:
            try:
                self._call(
                    self.client.put_item,
                    TableName=self.table_name,
                    Item=_typed(_to_item(record)),
                    ConditionExpression="version = :expected",
                    ExpressionAttributeValues={":expected": {"N": str(expected)}},
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                )
            except ClientError as err:
                if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    raise
                old = err.response.get("Item")
                raise VersionConflict(_from_item(_plain(old)) if old else None) from err
            return
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": _typed(_to_item(record)),
                    "ConditionExpression": "version = :expected",
                    "ExpressionAttributeValues": {":expected": {"N": str(expected)}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            }
        ]
        if join is not None:
            items.append(
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": _typed(_membership(join, record.id, record.updated_at)),
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                }
            )
        if unjoin is not None:
            items.append(
                {
                    "Delete": {
                        "TableName": self.table_name,
                        "Key": _typed({"pk": f"PLAYER#{unjoin}", "sk": f"GAME#{record.id}"}),
                    }
                }
            )
        self._transact(items, record, expected=expected)

    def _transact(
        self, items: list[dict[str, Any]], record: GameRecord, expected: int | None
    ) -> None:
        try:
            self._call(self.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            reasons = err.response.get("CancellationReasons") or []
            codes = [r.get("Code") for r in reasons]
            if any(code in ("ThrottlingError", "ProvisionedThroughputExceeded") for code in codes):
                raise Unavailable("transaction throttled") from err
            if codes and codes[0] == "ConditionalCheckFailed":
                old = reasons[0].get("Item")
                raise VersionConflict(_from_item(_plain(old)) if old else None) from err
            if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
                raise AlreadyMember() from err
            if "TransactionConflict" in codes:
                # another transaction touched the item at the same moment: a lost race
                raise VersionConflict(self.load(record.id)) from err
            raise

    def archive_moves(self, game_id: str, hand_number: int, moves: list[dict[str, Any]]) -> None:
        """Keep a finished hand's move log apart from the game item, which stays small.

        The log is compressed JSON: a hand of double-six fits in one write unit (1 KB).
        """
        packed = zlib.compress(json.dumps(moves, separators=(",", ":")).encode(), 9)
        self._call(
            self.client.put_item,
            TableName=self.table_name,
            Item=_typed({"pk": f"GAME#{game_id}", "sk": f"HAND#{hand_number:04d}", "log": packed}),
        )

    def delete_satellites(self, game_id: str, players: list[str]) -> int:
        """Delete what hangs off a game whose item is gone (its TTL expired): the archived
        hands and the players' membership items. Returns how many items it deleted."""
        keys = [{"pk": f"PLAYER#{player}", "sk": f"GAME#{game_id}"} for player in players]
        kwargs: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :hand)",
            "ExpressionAttributeValues": _typed({":pk": f"GAME#{game_id}", ":hand": "HAND#"}),
            "ProjectionExpression": "pk, sk",
        }
        keys += [_plain(item) for item in self._query(**kwargs)]
        for start in range(0, len(keys), 25):  # BatchWriteItem's limit
            requests = [{"DeleteRequest": {"Key": _typed(k)}} for k in keys[start : start + 25]]
            pending: dict[str, Any] = {self.table_name: requests}
            for _attempt in range(8):
                response = self._call(self.client.batch_write_item, RequestItems=pending)
                pending = response.get("UnprocessedItems") or {}
                if not pending:
                    break
                time.sleep(0.05)
            else:
                raise Unavailable("UnprocessedItems")
        return len(keys)

    def archived_moves(self, game_id: str) -> list[dict[str, Any]]:
        moves: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :hand)",
            "ExpressionAttributeValues": _typed({":pk": f"GAME#{game_id}", ":hand": "HAND#"}),
        }
        for item in self._query(**kwargs):
            moves.extend(json.loads(zlib.decompress(item["log"]["B"])))
        return moves

    # ------------------------------------------------------------------ listings

    def open_games(
        self, limit: int, start: dict[str, Any] | None
    ) -> tuple[list[GameRecord], dict[str, Any] | None]:
        """Public games waiting for players, most recently updated first (GSI open_games)."""
        kwargs: dict[str, Any] = {
            # one more than the page: DynamoDB hands back a LastEvaluatedKey whenever it stops at
            # Limit, even with nothing left, and the last page must say next: null
            "TableName": self.table_name,
            "IndexName": "open_games",
            "Limit": limit + 1,
            "ScanIndexForward": False,
            "KeyConditionExpression": "open_list = :open",
            "ExpressionAttributeValues": _typed({":open": OPEN_LIST}),
        }
        if start:
            kwargs["ExclusiveStartKey"] = _typed(start)
        items = [_plain(i) for i in self._call(self.client.query, **kwargs).get("Items", [])]
        last = None
        if len(items) > limit:
            items = items[:limit]
            last = {name: items[-1][name] for name in ("pk", "sk", "open_list", "updated_at")}
        return [_from_item(i) for i in items], last

    def games_on_turn(self, player: str) -> list[str]:
        """Ids of the games waiting for ``player``'s move (GSI by_turn)."""
        items = self._query(
            TableName=self.table_name,
            IndexName="by_turn",
            KeyConditionExpression="turn_player = :p",
            ExpressionAttributeValues=_typed({":p": player}),
        )
        return [i["pk"]["S"].removeprefix("GAME#") for i in items]

    def member_games(self, player: str, max_games: int = 1000) -> list[str]:
        items = self._query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :g)",
            ExpressionAttributeValues=_typed({":pk": f"PLAYER#{player}", ":g": "GAME#"}),
            ProjectionExpression="sk",
        )
        # the generator stops paging once enough ids are in
        return [i["sk"]["S"].removeprefix("GAME#") for i in itertools.islice(items, max_games)]

    def load_many(self, game_ids: list[str]) -> list[GameRecord]:
        """BatchGetItem in chunks of 100 (eventually consistent: listings, not moves)."""
        records: list[GameRecord] = []
        for start in range(0, len(game_ids), 100):
            keys = [
                _typed({"pk": f"GAME#{gid}", "sk": GAME_SK})
                for gid in game_ids[start : start + 100]
            ]
            request: dict[str, Any] = {self.table_name: {"Keys": keys}}
            for _attempt in range(8):
                response = self._call(self.client.batch_get_item, RequestItems=request)
                records += [
                    _from_item(_plain(i)) for i in response["Responses"].get(self.table_name, [])
                ]
                request = response.get("UnprocessedKeys") or {}
                if not request:
                    break
                time.sleep(0.05)
        return records
