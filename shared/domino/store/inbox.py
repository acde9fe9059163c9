"""Each player's inbox: notification items, and how far the player has read.

A notification is ``pk=PLAYER#<sub>, sk=NOTE#<id>`` with ``id = <time>#<game>#<version>#<type>``
(the change's ``updated_at``, zero-padded version): deterministic, so the item itself is the
dedupe: writing it with ``attribute_not_exists`` succeeds once per (player, game, version,
type), however often the stream delivers the change. Ids sort by time, so a Query backwards
is newest first. ``pushed`` stays false until every device and socket has been sent it (the
outbox: a redelivered change finds it unsent and sends it). Items expire after 30 days (TTL).

How far a player has read is one item, ``sk=READ``, holding the newest id read: that one and
every older one are read, and ``unread`` counts the ids above it.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from botocore.exceptions import ClientError

from domino.store.cursors import decode_cursor, encode_cursor
from domino.store.records import iso, player_key, to_attributes
from domino.store.table import Table

NOTE_PREFIX = "NOTE#"
#: above every NOTE# key and below READ ('$' follows '#')
NOTE_END = "NOTE$"
READ_SK = "READ"
NOTE_TTL_SECONDS = 30 * 24 * 3600
#: what a notification id looks like (types are lowercase words with underscores); ASCII
#: digits only (``\d`` would take any script's)
NOTE_ID = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"
    r"#[A-Za-z0-9_-]{1,64}#[0-9]{10}#[a-z_]{1,20}"
)
#: the inbox's cursor: the sort key of the page's last notification
NOTE_CURSOR = {"s": re.compile(re.escape(NOTE_PREFIX) + NOTE_ID.pattern)}


class Note(NamedTuple):
    """A stored notification."""

    player: str
    type: str
    game: str
    version: int
    at: int
    preset: str
    detail: str | None = None
    pushed: bool = False
    #: pushed time-sensitive (a turn of a short-turn game); not stored: only the first delivery
    #: pushes, and it has the notice's own
    urgent: bool = False
    #: the public move that led to it (``Notice.by``, ``Notice.move``)
    by: str | None = None
    move: str | None = None

    @property
    def id(self) -> str:
        return f"{iso(self.at)}#{self.game}#{self.version:010d}#{self.type}"


def _item(note: Note) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": player_key(note.player),
        "sk": NOTE_PREFIX + note.id,
        "type": note.type,
        "game": note.game,
        "version": note.version,
        "at": note.at,
        "preset": note.preset,
        "pushed": int(note.pushed),
        "ttl": note.at + NOTE_TTL_SECONDS,
    }
    for name in ("detail", "by", "move"):
        if getattr(note, name) is not None:
            item[name] = getattr(note, name)
    return item


def _note(player: str, item: dict[str, dict[str, Any]]) -> Note:
    detail, by, move = (item.get(name) for name in ("detail", "by", "move"))
    return Note(
        player=player,
        type=item["type"]["S"],
        game=item["game"]["S"],
        version=int(item["version"]["N"]),
        at=int(item["at"]["N"]),
        preset=item["preset"]["S"],
        detail=detail["S"] if detail else None,
        pushed=item.get("pushed", {"N": "0"})["N"] != "0",
        by=by["S"] if by else None,
        move=move["S"] if move else None,
    )


class DynamoInbox:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(self, note: Note) -> bool:
        """Write ``note`` once: False if it was there already (a redelivered change)."""
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes(_item(note)),
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def get(self, player: str, note_id: str) -> Note | None:
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": NOTE_PREFIX + note_id}),
            # strongly consistent: the notifier asks right after a write whose reply may have
            # been lost, and "not there" would read as "sent long ago, expired"
            ConsistentRead=True,
        )
        item = response.get("Item")
        return _note(player, item) if item else None

    def page(self, player: str, limit: int, cursor: str | None) -> tuple[list[Note], str | None]:
        """The player's notifications newest first, after ``cursor``, and the next cursor."""
        upper = NOTE_END
        if cursor:
            upper = decode_cursor(cursor, NOTE_CURSOR)["s"]
        response = self.table.call(
            self.table.client.query,
            TableName=self.table.name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=to_attributes(
                {":pk": player_key(player), ":lo": NOTE_PREFIX, ":hi": upper}
            ),
            ScanIndexForward=False,
            Limit=limit + 2,  # the upper bound is inclusive: the cursor's own item comes back
        )
        items = [i for i in response.get("Items", []) if not cursor or i["sk"]["S"] != upper]
        page = items[:limit]
        following = encode_cursor({"s": page[-1]["sk"]["S"]}) if len(items) > limit else None
        return [_note(player, i) for i in page], following

    def read_until(self, player: str) -> str | None:
        """The newest notification id the player has read (None: none)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(player), "sk": READ_SK}),
        )
        item = response.get("Item")
        return item["until"]["S"] if item else None

    def unread(self, player: str, read_until: str | None) -> int:
        """How many notifications are newer than ``read_until`` (all of them if None)."""
        lower = NOTE_PREFIX + read_until + "~" if read_until else NOTE_PREFIX  # '~' > any id char
        count = 0
        kwargs: dict[str, Any] = {
            "TableName": self.table.name,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": to_attributes(
                {":pk": player_key(player), ":lo": lower, ":hi": NOTE_END}
            ),
            "Select": "COUNT",
        }
        while True:
            response = self.table.call(self.table.client.query, **kwargs)
            count += int(response.get("Count", 0))
            if "LastEvaluatedKey" not in response:
                return count
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def mark_read(self, player: str, until: str) -> None:
        """Read up to ``until``; never back (a late request for an older one changes nothing)."""
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes({"pk": player_key(player), "sk": READ_SK, "until": until}),
                ConditionExpression="attribute_not_exists(#until) OR #until < :until",
                ExpressionAttributeNames={"#until": "until"},
                ExpressionAttributeValues=to_attributes({":until": until}),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise

    def mark_pushed(self, note: Note) -> None:
        """Every device and socket has been sent ``note``: a redelivery sends it no more."""
        self.table.call(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": player_key(note.player), "sk": NOTE_PREFIX + note.id}),
            UpdateExpression="SET pushed = :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
        )
