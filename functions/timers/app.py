"""SQS (the timer queue): a timer come back from its delay. A turn's reminder or deadline that
is due is handled as the sweep handles it (the same write path and optimistic locking as a
move); one not due yet (more than 15 minutes off when it was set) is sent on."""

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from domino.api.entry import count, queue_consumer
from domino.api.wiring import timers


def on_message(record: SQSRecord) -> None:
    count(f"timers_{timers().fire(record.body)}")


handler = queue_consumer(on_message)
