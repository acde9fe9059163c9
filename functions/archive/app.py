"""DynamoDB stream: copy each finished hand's moves from the game item to their own item.

A write that ends a hand marks the item with ``archive`` (the hand number); the event source's
filter delivers only those records. The item keeps that hand as its previous one until the
next hand ends, so the copy is in place long before the item lets the hand go, and the play
that ended it stayed one write. Failed records are reported one by one and retried.
"""

from typing import Any

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from domino.api.http import METRICS_ON, count, logger, metrics, service

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def archive(record: DynamoDBRecord) -> None:
    image = (record.raw_event.get("dynamodb") or {}).get("NewImage") or {}
    if service().archive_hand(image):
        count("hands_archived")


def consume(event: dict[str, Any], context: Any) -> Any:
    return process_partial_response(
        event=event, record_handler=archive, processor=processor, context=context
    )


handler = logger.inject_lambda_context(
    metrics.log_metrics(consume) if METRICS_ON else consume, clear_state=True
)
