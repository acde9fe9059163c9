"""A finished match's analysis, kept once: ``pk=GAME#<id>, sk=ANALYSIS``, its body compressed
JSON, expiring with the game (its ``ttl`` is the finished game item's)."""

from __future__ import annotations

import json
import zlib
from typing import Any

from botocore.exceptions import ClientError

from domino.store.records import game_key, to_attributes
from domino.store.table import Table

ANALYSIS_SK = "ANALYSIS"


class DynamoAnalyses:
    def __init__(self, table: Table) -> None:
        self.table = table

    def get(self, game_id: str) -> dict[str, Any] | None:
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=to_attributes({"pk": game_key(game_id), "sk": ANALYSIS_SK}),
        )
        item = response.get("Item")
        if not item:
            return None
        body: dict[str, Any] = json.loads(zlib.decompress(item["body"]["B"]))
        return body

    def put_once(self, game_id: str, body: dict[str, Any], expires: int) -> bool:
        """Keep ``body`` unless an analysis is kept already (False: another run kept one)."""
        packed = zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 9)
        item = {"pk": game_key(game_id), "sk": ANALYSIS_SK, "body": packed, "ttl": expires}
        try:
            self.table.call(
                self.table.client.put_item,
                TableName=self.table.name,
                Item=to_attributes(item),
                ConditionExpression="attribute_not_exists(sk)",
            )
        except ClientError as err:
            if err.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False
        return True
