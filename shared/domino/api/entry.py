"""The Lambda entry points: every function's handler wrapped the same way (``entry_point``),
an API function's routing (``lambda_handler``), a stream's and a queue's batches
(``stream_consumer``, ``queue_consumer``), and the business metric each command counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.metrics import MetricUnit

from domino.api.settings import settings

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import (
        DynamoDBRecord,
    )
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

logger = Logger(service="domino")
metrics = Metrics(namespace="Domino", service="domino")


def count(metric: str, value: int = 1) -> None:
    """One business metric per accepted command (games_created, moves_played, ...)."""
    if settings().metrics_enabled and value:
        metrics.add_metric(name=metric, unit=MetricUnit.Count, value=value)


def stream_consumer(
    on_record: Callable[[DynamoDBRecord], None],
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of a DynamoDB stream function: Powertools' batch processing calls
    ``on_record`` for each record in order and reports the failed ones (ReportBatchItemFailures),
    from which the stream retries; through ``entry_point``, with metrics."""
    return _batch_consumer(on_record, "DynamoDBStreams")


def queue_consumer(
    on_record: Callable[[SQSRecord], None],
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of an SQS function, as ``stream_consumer``: the failed messages
    are reported and come back after the queue's visibility timeout."""
    return _batch_consumer(on_record, "SQS")


def _batch_consumer(
    on_record: Callable[[Any], None], event_type: str
) -> Callable[[dict[str, Any], Any], Any]:
    # the batch utility loads only in stream and queue functions (the API functions' cold starts)
    from aws_lambda_powertools.utilities.batch import (
        BatchProcessor,
        EventType,
        process_partial_response,
    )

    processor = BatchProcessor(event_type=EventType[event_type])

    def consume(event: dict[str, Any], context: Any) -> Any:
        return process_partial_response(
            event=event, record_handler=on_record, processor=processor, context=context
        )

    return entry_point(consume, records_metrics=True)


def lambda_handler(
    app: APIGatewayHttpResolver, *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of an API function: ``entry_point`` around the routing."""

    def handler(event: dict[str, Any], context: Any) -> Any:
        return app.resolve(event, context)

    return entry_point(handler, records_metrics=records_metrics)


def entry_point(
    handler: Callable[[dict[str, Any], Any], Any], *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], Any]:
    """Every function's handler wrapped the same way: settings checked at startup, logging
    context cleared per invocation with the request's correlation id, tracing, metrics.

    The X-Ray SDK behind Powertools Tracer adds about 190 ms to every cold start, so it is
    loaded only where detailed tracing is switched on (template parameter DetailedTracing);
    Lambda's active tracing records every invocation either way.
    """
    config = settings()  # a function without its configuration fails here, at startup
    inner = handler

    def correlated(event: dict[str, Any], context: Any) -> Any:
        # API Gateway's request id (stream and schedule events have none)
        logger.set_correlation_id((event.get("requestContext") or {}).get("requestId"))
        return inner(event, context)

    handler = correlated
    if records_metrics and config.metrics_enabled:
        handler = metrics.log_metrics(handler)
    if config.tracing_enabled:
        from aws_lambda_powertools import Tracer

        tracer = Tracer(service="domino")
        handler = tracer.capture_lambda_handler(handler, capture_response=False)
    # never the event, whatever POWERTOOLS_LOGGER_LOG_EVENT says: an HTTP event holds the
    # caller's bearer token (the Authorization header) and a stream event every hand
    return logger.inject_lambda_context(handler, clear_state=True, log_event=False)
