"""DynamoDB stream: every change of a game item tells the players it concerns (API.md
"Notifications"): an inbox item each, written once per (player, game, version, type).

The event source's filter delivers game items' modifications only. Records are handled in
order, one by one; a failed record is reported (partial batch failure) and the stream retries
from it, so a game's notifications keep their version order.
"""

from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from domino.api.http import count, notifier, stream_consumer


def on_change(record: DynamoDBRecord) -> None:
    change = record.raw_event.get("dynamodb") or {}
    count("notifications", notifier().on_change(change.get("OldImage"), change.get("NewImage")))


handler = stream_consumer(on_change)
