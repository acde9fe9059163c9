"""Game items under optimistic locking, membership items, and the listings built on the GSIs.

One game is one item (``pk=GAME#<id>, sk=GAME``) holding the engine's compact encoding, so an
accepted move costs one strongly consistent GetItem and one conditional PutItem
(``version = :expected``). Joins, creates and pre-deal leaves also write the player's membership
item (``pk=PLAYER#<sub>, sk=GAME#<id>``) in the same transaction.

Every write stamps the item with a fresh ``writer`` token. When a write's reply is lost (a
timeout, a reset connection) the SDK sends it again; if the first one was applied, the retry
fails its condition, and the item it returns (ALL_OLD) carries this write's token: the write
happened, and ``save`` returns as if the first reply had come.
"""

from __future__ import annotations

import itertools
import json
import secrets
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import ClientError

from domino.store.accounts import alive_since
from domino.store.cursors import MINE_CURSOR, decode_cursor, encode_cursor, games_position
from domino.store.errors import AccountGone, AlreadyMember, Unavailable, VersionConflict
from domino.store.listings import player_page
from domino.store.records import (
    DONE_PREFIX,
    DUE_SHARDS,
    GAME_SK,
    OPEN_LIST,
    OPEN_SHARDS,
    GameRecord,
    Item,
    done_key,
    from_attributes,
    from_item,
    game_key,
    iso,
    membership,
    player_key,
    premoves_json,
    to_attributes,
    to_item,
)
from domino.store.table import Table

#: the most games "my games" reads for one player
MAX_MEMBER_GAMES = 1000


class DynamoGameStore:
    """Versioned load/save of games and the player-scoped listings (thread-safe)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.client = table.client
        self.table_name = table.name
        self._call = table.call
        self._query = table.query

    def _game_key(self, game_id: str) -> Item:
        return to_attributes({"pk": game_key(game_id), "sk": GAME_SK})

    # ------------------------------------------------------------------ games

    def load(self, game_id: str) -> GameRecord | None:
        """One strongly consistent GetItem."""
        response = self._call(
            self.client.get_item,
            TableName=self.table_name,
            Key=self._game_key(game_id),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return from_item(from_attributes(item)) if item else None

    def create(self, record: GameRecord, *, token_issued: int | None = None) -> None:
        """The new game and its creator's membership (and each invitee's: "my games" lists
        their invitations), atomically; with ``token_issued`` (the caller's token's ``iat``),
        only if the creator's account was not deleted since (``AccountGone``)."""
        item, token = stamped(record)
        self._transact(
            [
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": item,
                        "ConditionExpression": "attribute_not_exists(pk)",
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
                *self._members_of_new(record, token_issued),
            ],
            record,
            token,
        )

    def _members_of_new(self, record: GameRecord, token_issued: int | None) -> list[Item]:
        """A new game's memberships (its creator's first, then its invitees') and, with
        ``token_issued``, the check that the creator's account was not deleted since."""
        creator = record.host
        assert creator is not None
        people = [creator] + [s.player for s in record.seats if s.player and s.invited]
        items: list[Item] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": to_attributes(membership(player, record.id, record.created_at)),
                }
            }
            for player in dict.fromkeys(people)
        ]
        if token_issued is not None:
            items.append(alive_since(self.table, creator, token_issued))
        return items

    def create_rematch(
        self,
        record: GameRecord,
        finished: GameRecord,
        expected: int,
        *,
        token_issued: int | None = None,
    ) -> None:
        """The rematch ``record`` and the finished game naming it (``finished``), in one
        transaction: only while the finished game is at ``expected`` and names no rematch
        yet, so that two players asking at once make one game (the loser gets
        ``VersionConflict`` with the finished game as the winner left it)."""
        item, token = stamped(record)
        marked, _ = stamped(finished)
        marked["writer"] = {"S": token}
        items: list[Item] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": marked,
                    "ConditionExpression": "version = :expected AND attribute_not_exists(rematch)",
                    "ExpressionAttributeValues": {":expected": {"N": str(expected)}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                }
            },
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": item,
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            *self._members_of_new(record, token_issued),
        ]
        self._transact(items, finished, token)

    def save(
        self,
        record: GameRecord,
        expected: int,
        *,
        join: str | None = None,
        unjoin: str | None = None,
        token_issued: int | None = None,
        invited: bool = False,
    ) -> None:
        """Write ``record`` if the stored version is still ``expected``: one conditional PutItem,
        or a transaction with the membership item when a player joins or leaves a seat (with
        ``token_issued``, a join only while the joiner's account was not deleted since it:
        ``AccountGone``; ``invited``: the joiner's membership was written with their
        invitation, and is written again)."""
        item, token = stamped(record)
        condition = "version = :expected"
        values: Item = {":expected": {"N": str(expected)}}
        if record.writer is not None:  # and nobody stored pre-moves since it was loaded
            condition += " AND writer = :writer"
            values[":writer"] = {"S": record.writer}
        put = {
            "TableName": self.table_name,
            "Item": item,
            "ConditionExpression": condition,
            "ExpressionAttributeValues": values,
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        }
        if join is None and unjoin is None:
            try:
                self._call(self.client.put_item, **put)
            except ClientError as err:
                if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    raise
                old = err.response.get("Item")
                if _written_by(old, token):
                    record.writer = token
                    return  # this write was applied; only its first reply was lost
                raise VersionConflict(from_item(from_attributes(old)) if old else None) from err
            record.writer = token
            return
        items: list[dict[str, Any]] = [{"Put": put}]
        if join is not None:
            member: dict[str, Any] = {
                "TableName": self.table_name,
                "Item": to_attributes(membership(join, record.id, record.updated_at)),
            }
            if not invited:
                member["ConditionExpression"] = "attribute_not_exists(pk)"
            items.append({"Put": member})
            if token_issued is not None:
                items.append(alive_since(self.table, join, token_issued))
        if unjoin is not None:
            key = {"pk": player_key(unjoin), "sk": game_key(record.id)}
            items.append({"Delete": {"TableName": self.table_name, "Key": to_attributes(key)}})
        self._transact(items, record, token)
        record.writer = token

    def _transact(self, items: list[dict[str, Any]], record: GameRecord, token: str) -> None:
        try:
            self._call(self.client.transact_write_items, TransactItems=items)
        except ClientError as err:
            if err.response["Error"]["Code"] != "TransactionCanceledException":
                raise
            reasons = err.response.get("CancellationReasons") or []
            codes = [r.get("Code") for r in reasons]
            if any(code in ("ThrottlingError", "ProvisionedThroughputExceeded") for code in codes):
                raise Unavailable() from err
            if codes and codes[0] == "ConditionalCheckFailed":
                old = reasons[0].get("Item")
                if _written_by(old, token):
                    return  # this transaction was applied; only its first reply was lost
                raise VersionConflict(from_item(from_attributes(old)) if old else None) from err
            checked = [i for i, entry in enumerate(items) if "ConditionCheck" in entry]
            if any(codes[i] == "ConditionalCheckFailed" for i in checked if i < len(codes)):
                raise AccountGone() from err
            if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
                raise AlreadyMember() from err
            if "TransactionConflict" in codes:
                # another transaction touched the item at the same moment: a lost race
                raise VersionConflict(self.load(record.id)) from err
            raise

    # ------------------------------------------------------------------ hand archives

    def archive_moves(self, game_id: str, hand_number: int, moves: list[dict[str, Any]]) -> None:
        """Keep a finished hand's move log apart from the game item, which stays small.

        The log is compressed JSON: a hand of double-six fits in one write unit (1 KB).
        """
        packed = zlib.compress(json.dumps(moves, separators=(",", ":")).encode(), 9)
        item = {"pk": game_key(game_id), "sk": f"HAND#{hand_number:04d}", "log": packed}
        self._call(self.client.put_item, TableName=self.table_name, Item=to_attributes(item))

    def _hand_items(self, game_id: str, projection: str | None = None) -> Iterator[Item]:
        kwargs: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :hand)",
            "ExpressionAttributeValues": to_attributes(
                {":pk": game_key(game_id), ":hand": "HAND#"}
            ),
        }
        if projection:
            kwargs["ProjectionExpression"] = projection
        return self._query(**kwargs)

    def archived_moves(self, game_id: str) -> list[dict[str, Any]]:
        moves: list[dict[str, Any]] = []
        for item in self._hand_items(game_id):
            moves.extend(json.loads(zlib.decompress(item["log"]["B"])))
        return moves

    def delete_satellites(
        self, game_id: str, players: list[str], finished_at: int | None = None
    ) -> int:
        """Delete what hangs off a game whose item is gone (its TTL expired): the archived
        hands and the players' membership items (filed as finished at ``finished_at``, or
        not). Returns how many items it deleted."""
        keys = [{"pk": player_key(player), "sk": game_key(game_id)} for player in players]
        if finished_at is not None:
            done = done_key(iso(finished_at) or "", game_id)
            keys += [{"pk": player_key(player), "sk": done} for player in players]
        keys += [from_attributes(item) for item in self._hand_items(game_id, "pk, sk")]
        self.table.delete_keys(keys)
        return len(keys)

    # ------------------------------------------------------------------ listings

    def open_games(self, limit: int, cursor: str | None) -> tuple[list[GameRecord], str | None]:
        """Public games waiting for players, most recently updated first, and the cursor of the
        next page (None on the last). The open_games index is spread over OPEN_SHARDS
        partitions: each is read (in parallel) down from the cursor's position, and the
        newest ``limit`` of them all make the page."""
        position = decode_cursor(cursor, MINE_CURSOR) if cursor else None

        def shard(number: int) -> list[tuple[tuple[str, str], dict[str, Any]]]:
            values: dict[str, Any] = {":open": f"{OPEN_LIST}#{number}"}
            condition = "open_list = :open"
            if position:
                condition += " AND updated_at <= :u"
                values[":u"] = position["u"]
            items = self._query(
                TableName=self.table_name,
                IndexName="open_games",
                KeyConditionExpression=condition,
                ExpressionAttributeValues=to_attributes(values),
                ScanIndexForward=False,
                Limit=limit + 1,
            )
            found: list[tuple[tuple[str, str], dict[str, Any]]] = []
            for item in items:
                plain = from_attributes(item)
                key = (str(plain["updated_at"]), str(plain["pk"]).removeprefix("GAME#"))
                if len(found) > limit and key[0] != found[-1][0][0]:
                    break  # one more than the page (is there a next one?), and its whole second
                if position and key >= (position["u"], position["i"]):
                    continue  # the cursor's own second: what the last page showed
                found.append((key, plain))
            # games of one second tie on the index's sort key and come in an order DynamoDB
            # keeps, not by id: the last second is read whole, so that the newest by (second,
            # id) are all here however the index ordered them
            return found

        with ThreadPoolExecutor(max_workers=OPEN_SHARDS) as pool:
            rows = sorted(
                itertools.chain.from_iterable(pool.map(shard, range(OPEN_SHARDS))),
                key=lambda row: row[0],
                reverse=True,
            )
        page = rows[:limit]
        following = None
        if len(rows) > limit:
            (updated, game_id), _ = page[-1]
            following = encode_cursor({"u": updated, "i": game_id})
        return [from_item(plain) for _, plain in page], following

    def player_games(
        self,
        player: str,
        *,
        status: str | None,
        turn_mine: bool,
        limit: int,
        cursor: str | None,
        updated_after: str | None = None,
    ) -> tuple[list[GameRecord], str | None]:
        """``player``'s games (those awaiting their move with ``turn_mine``, GSI by_turn; else
        their memberships), most recently updated first, and the cursor of the next page."""
        position = games_position(cursor, updated_after)  # refused before reads
        if turn_mine:
            ids = self.games_on_turn(player)
        else:
            # the games not finished yet (or finished but not yet filed by the stream
            # consumer), and one page of the filed ones below the cursor: the page is the
            # newest ``limit`` of them all
            ids = self.member_games(player)
            if status in (None, "finished"):
                before = (position["u"], position["i"]) if position else None
                # one more than the page (is there a next one?), and one more for the
                # cursor's own game, which BETWEEN's upper bound includes
                ids += self.finished_games(player, limit + 2, before, updated_after)
        return player_page(
            self.load_many(list(dict.fromkeys(ids))),
            player,
            status,
            turn_mine,
            limit,
            cursor,
            updated_after,
        )

    def games_on_turn(self, player: str) -> list[str]:
        """Ids of the games waiting for ``player``'s move (GSI by_turn)."""
        items = self._query(
            TableName=self.table_name,
            IndexName="by_turn",
            KeyConditionExpression="turn_player = :p",
            ExpressionAttributeValues=to_attributes({":p": player}),
        )
        return [i["pk"]["S"].removeprefix("GAME#") for i in items]

    def file_finished(self, game_id: str, players: list[str], finished_at: int) -> None:
        """Move the players' memberships of a finished game under DONE#<when it ended>, where
        "my games" pages through them newest first: one transaction each, which moves only a
        membership that is there (filed already by a redelivery, or gone with its player's
        account: nothing to do)."""
        done = done_key(iso(finished_at) or "", game_id)
        for player in players:
            pk = player_key(player)
            moved = [
                {
                    "Delete": {
                        "TableName": self.table_name,
                        "Key": to_attributes({"pk": pk, "sk": game_key(game_id)}),
                        "ConditionExpression": "attribute_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": to_attributes({"pk": pk, "sk": done, "game": game_id}),
                    }
                },
            ]
            try:
                self._call(self.client.transact_write_items, TransactItems=moved)
            except ClientError as err:
                reasons = err.response.get("CancellationReasons") or []
                if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                    continue
                raise

    def finished_games(
        self, player: str, count: int, before: tuple[str, str] | None, after: str | None
    ) -> list[str]:
        """Ids of ``player``'s ``count`` most recently finished games that ended before
        ``before`` (a cursor's position: time, id) and after ``after`` (ISO time)."""
        upper = done_key(*before) if before else DONE_PREFIX + "\uffff"
        lower = DONE_PREFIX + (after or "")
        items = self._query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lower AND :upper",
            ExpressionAttributeValues=to_attributes(
                {":pk": player_key(player), ":lower": lower, ":upper": upper}
            ),
            ScanIndexForward=False,
            Limit=count,
        )
        return [i["sk"]["S"].rsplit("#", 1)[1] for i in itertools.islice(items, count)]

    def member_games(self, player: str) -> list[str]:
        items = self._query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :g)",
            ExpressionAttributeValues=to_attributes({":pk": player_key(player), ":g": "GAME#"}),
            ProjectionExpression="sk",
        )
        # the generator stops paging once enough ids are in
        return [
            i["sk"]["S"].removeprefix("GAME#") for i in itertools.islice(items, MAX_MEMBER_GAMES)
        ]

    def load_many(self, game_ids: list[str]) -> list[GameRecord]:
        """BatchGetItem in chunks of 100 (eventually consistent: listings, not moves). Raises
        ``Unavailable`` rather than answer a partial list when DynamoDB keeps keys unread."""
        keys = [self._game_key(gid) for gid in game_ids]
        return [from_item(from_attributes(i)) for i in self.table.batch_get(keys)]

    # ------------------------------------------------------------------ deadlines

    def due_keys(self, now: int, limit: int) -> list[tuple[str, str]]:
        """The keys due by ``now`` in the by_due index (games; players' held pushes), most
        overdue first: every partition queried at once (the index is spread over DUE_SHARDS
        partitions)."""

        def shard(number: int) -> list[tuple[int, str, str]]:
            items = self._query(
                TableName=self.table_name,
                IndexName="by_due",
                KeyConditionExpression="due_shard = :s AND due <= :now",
                ExpressionAttributeValues=to_attributes({":s": str(number), ":now": now}),
            )
            found = []
            for item in itertools.islice(items, limit):
                found.append((int(item["due"]["N"]), item["pk"]["S"], item["sk"]["S"]))
            return found

        with ThreadPoolExecutor(max_workers=min(DUE_SHARDS, 16)) as pool:
            due = sorted(itertools.chain.from_iterable(pool.map(shard, range(DUE_SHARDS))))
        return [(pk, sk) for _, pk, sk in due[:limit]]

    def mark_reminded(self, record: GameRecord, at: int) -> bool:
        """``reminded`` = the version, if the game is still at it; the version stays, so a move
        racing the reminder is not refused (it replaces the item, reminder mark and all)."""
        try:
            self._call(
                self.client.update_item,
                TableName=self.table_name,
                Key=self._game_key(record.id),
                UpdateExpression="SET reminded = :v, reminded_at = :at, due = :deadline",
                ConditionExpression="version = :v AND #status = :playing",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_attributes(
                    {
                        ":v": record.version,
                        ":at": at,
                        ":deadline": record.deadline or at,
                        ":playing": "playing",
                    }
                ),
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                return False
            raise
        return True

    def mark_nudged(self, record: GameRecord, seat: int, at: int) -> GameRecord | None:
        """``nudged`` = the version (and who, when), if the game is still at it, playing, and
        nobody nudged that version: the once-per-turn guard is this condition. The version
        stays (a move racing the nudge is not refused). None when written, else the game as
        the failed condition found it."""
        try:
            self._call(
                self.client.update_item,
                TableName=self.table_name,
                Key=self._game_key(record.id),
                UpdateExpression="SET nudged = :v, nudged_at = :at, nudger = :seat",
                ConditionExpression=(
                    "version = :v AND #status = :playing"
                    " AND (attribute_not_exists(nudged) OR nudged <> :v)"
                ),
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_attributes(
                    {":v": record.version, ":at": at, ":seat": seat, ":playing": "playing"}
                ),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] == "ConditionalCheckFailedException":
                old = err.response.get("Item")
                return from_item(from_attributes(old)) if old else record
            raise
        return None

    def set_premoves(self, record: GameRecord) -> None:
        """Write ``record.premoves`` if the game is still the one loaded (the same version and
        the same last writer), playing; the version stays, ``record.writer`` becomes this
        write's. Else ``VersionConflict`` with the game as the condition found it (None:
        gone)."""
        token = secrets.token_hex(6)
        values: dict[str, Any] = {":v": record.version, ":w": record.writer or "", ":t": token}
        values[":playing"] = "playing"
        update = "SET writer = :t"
        if record.premoves:
            update += ", pm = :pm"
            values[":pm"] = premoves_json(record.premoves)
        else:
            update += " REMOVE pm"
        try:
            self._call(
                self.client.update_item,
                TableName=self.table_name,
                Key=self._game_key(record.id),
                UpdateExpression=update,
                ConditionExpression="version = :v AND writer = :w AND #status = :playing",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_attributes(values),
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            old = err.response.get("Item")
            raise VersionConflict(from_item(from_attributes(old)) if old else None) from err
        record.writer = token


def stamped(record: GameRecord) -> tuple[Item, str]:
    """``record``'s item with a fresh writer token, and the token."""
    token = secrets.token_hex(6)
    item = to_attributes(to_item(record))
    item["writer"] = {"S": token}
    return item, token


def _written_by(old: Item | None, token: str) -> bool:
    """Whether the item a failed condition returned is the one this write put there."""
    return bool(old) and old.get("writer", {}).get("S") == token  # type: ignore[union-attr]
