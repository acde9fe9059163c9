"""Public games in play, newest first, for spectators to find (``GET /games?status=playing``):
one small item a game, ``pk=LIVE#<shard>, sk=<started ISO>#<game id>``, written by the table's
stream as a public game is dealt and deleted as it finishes (its TTL drops one a game never
finished). Four shards, read in parallel, as the open games' index is.

Nothing is written by a move: the list costs two writes a game, where an index of games in play
would be written by every move of every public game.
"""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

from domino.store.cursors import LIVE_CURSOR, decode_cursor, encode_cursor
from domino.store.records import iso, shard_of, to_attributes
from domino.store.table import Table

LIVE_PREFIX = "LIVE#"
LIVE_SHARDS = 4
#: a game in play that never finishes leaves the list after this long
LIVE_TTL_SECONDS = 30 * 24 * 3600


def live_key(game_id: str, started_at: int) -> dict[str, dict[str, str]]:
    return to_attributes(
        {
            "pk": f"{LIVE_PREFIX}{shard_of(game_id, LIVE_SHARDS)}",
            "sk": f"{iso(started_at)}#{game_id}",
        }
    )


class DynamoLiveGames:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(self, game_id: str, started_at: int) -> None:
        item = {
            **live_key(game_id, started_at),
            **to_attributes({"ttl": started_at + LIVE_TTL_SECONDS}),
        }
        self.table.call(self.table.client.put_item, TableName=self.table.name, Item=item)

    def remove(self, game_id: str, started_at: int) -> None:
        self.table.call(
            self.table.client.delete_item,
            TableName=self.table.name,
            Key=live_key(game_id, started_at),
        )

    def newest(self, limit: int, cursor: str | None) -> tuple[list[str], str | None]:
        """The ids of the newest ``limit`` games in play below ``cursor``, and the next cursor."""
        below = decode_cursor(cursor, LIVE_CURSOR)["s"] if cursor else None

        def shard(number: int) -> list[str]:
            values = {":pk": f"{LIVE_PREFIX}{number}"}
            condition = "pk = :pk"
            if below:
                condition += " AND sk < :below"
                values[":below"] = below
            response = self.table.call(
                self.table.client.query,
                TableName=self.table.name,
                KeyConditionExpression=condition,
                ExpressionAttributeValues=to_attributes(values),
                ScanIndexForward=False,
                Limit=limit + 1,
            )
            return [item["sk"]["S"] for item in response.get("Items", [])]

        with ThreadPoolExecutor(max_workers=LIVE_SHARDS) as pool:
            keys = sorted(itertools.chain.from_iterable(pool.map(shard, range(LIVE_SHARDS))))
        keys.reverse()
        page = keys[:limit]
        following = encode_cursor({"s": page[-1]}) if len(keys) > limit else None
        return [key.split("#", 1)[1] for key in page], following
