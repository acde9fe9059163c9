"""SQS for the local runtime: the template's queues on moto's server, and their functions fed as
Lambda's SQS event source mapping feeds them.

Every ``AWS::SQS::Queue`` of the template is created on moto's server (the one that serves SNS:
it answers every service on one port), named by its logical id; ``!Ref <queue>`` in the
functions' variables resolves to its URL. Every function with a ``Type: SQS`` event on
``!GetAtt <queue>.Arn`` is polled for it: long polls of a second, batches of at most
``BatchSize`` (10), the messages the function did not report failed (ReportBatchItemFailures)
deleted, the others left to come back after the queue's visibility timeout, as Lambda does; a
message received more often than its queue's RedrivePolicy allows is dropped with a log line
(deployed, SQS moves it to the dead-letter queue).
Delay queues work as on AWS: moto holds a message back for its ``DelaySeconds``.

moto's queues live in memory, so a restart of the runtime would lose the timers of the games it
kept on disk (deployed, SQS keeps them): ``rearm_turn_timers`` sets one again for every game the
sweeper's index lists, at its start.

Not modelled: MaximumBatchingWindowInSeconds, maximum concurrency, FIFO queues.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

from local.template import Intrinsic, Template

REGION = "us-east-1"
#: SQS answers at most this many messages a receive
MAX_RECEIVE = 10
#: attributes of the template's queues moto takes as CloudFormation gives them
QUEUE_ATTRIBUTES = ("VisibilityTimeout", "MessageRetentionPeriod", "DelaySeconds")


@dataclass(frozen=True)
class QueueSource:
    """One ``Type: SQS`` event of a function."""

    function: str  # logical id
    code_uri: Path
    handler: str
    queue: str  # logical id of the queue
    batch_size: int = MAX_RECEIVE
    report_item_failures: bool = False


def _queue_of(value: Any) -> str | None:
    """The queue of ``!GetAtt Queue.Arn`` (short or long form), else None."""
    if isinstance(value, dict) and set(value) == {"Fn::GetAtt"}:
        value = Intrinsic("GetAtt", value["Fn::GetAtt"])
    if not isinstance(value, Intrinsic) or value.name != "GetAtt":
        return None
    parts = value.value.split(".", 1) if isinstance(value.value, str) else list(value.value)
    return str(parts[0]) if len(parts) == 2 and parts[1] == "Arn" else None


def queue_sources(template: Template) -> list[QueueSource]:
    """Every enabled SQS event of the template's functions on one of its queues."""
    queues = template.of_type("AWS::SQS::Queue")
    sources = []
    for function, code_uri, handler, props in template.function_events("SQS"):
        queue = _queue_of(props.get("Queue"))
        if queue not in queues or props.get("Enabled") is False:
            continue
        batch = int(props.get("BatchSize", MAX_RECEIVE))
        report = "ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or [])
        sources.append(QueueSource(function, code_uri, handler, queue, batch, report))
    return sources


class LocalQueues:
    """The template's queues on moto's server at ``endpoint``."""

    def __init__(self, endpoint: str, template: Template) -> None:
        self.endpoint = endpoint
        self.client = boto3.client(
            "sqs",
            endpoint_url=endpoint,
            region_name=REGION,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        self.urls: dict[str, str] = {}
        #: queue -> receives after which a message goes to its dead-letter queue (here: dropped)
        self.max_receives: dict[str, int] = {}
        for name, resource in template.of_type("AWS::SQS::Queue").items():
            props = resource.get("Properties", {})
            redrive = props.get("RedrivePolicy")
            if isinstance(redrive, dict) and "maxReceiveCount" in redrive:
                self.max_receives[name] = int(redrive["maxReceiveCount"])
            attributes = {k: str(props[k]) for k in QUEUE_ATTRIBUTES if k in props}
            created = self.client.create_queue(QueueName=name, Attributes=attributes)
            self.urls[name] = created["QueueUrl"]

    def environment(self) -> dict[str, str]:
        """Where the handlers' SQS calls go."""
        return {"AWS_ENDPOINT_URL_SQS": self.endpoint}


def sqs_event(queue_arn: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The event Lambda's SQS event source mapping sends."""
    return {
        "Records": [
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": dict(message.get("Attributes", {})),
                "messageAttributes": {},
                "md5OfBody": message.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": REGION,
            }
            for message in messages
        ]
    }


Invoke = Callable[[QueueSource, dict[str, Any]], Any]


def _receives(message: dict[str, Any]) -> int:
    return int(message.get("Attributes", {}).get("ApproximateReceiveCount", "1"))


#: a mapping's receive waits this long for a message (SQS long polling; Lambda waits 20 s):
#: moto looks again every second inside one receive, so a delayed message (a turn timer) is
#: handled as soon after it shows as with 1 s receives, for a fifth of the idle requests
LONG_POLL_SECONDS = 5


class QueuePump:
    """Polls each source's queue and invokes its function, like SQS event source mappings."""

    def __init__(
        self,
        queues: LocalQueues,
        sources: list[QueueSource],
        invoke: Invoke,
        log: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True),
    ) -> None:
        self.queues = queues
        self.sources = sources
        self.invoke = invoke
        self.log = log
        self.arns = {
            name: queues.client.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
                "Attributes"
            ]["QueueArn"]
            for name, url in queues.urls.items()
        }

    def poll_once(self, source: QueueSource, wait_seconds: int = 1) -> int:
        """One receive and its delivery; how many messages were handled."""
        url = self.queues.urls[source.queue]
        client = self.queues.client
        received = client.receive_message(
            QueueUrl=url,
            MaxNumberOfMessages=max(1, min(MAX_RECEIVE, source.batch_size)),
            WaitTimeSeconds=wait_seconds,
            AttributeNames=["All"],
        ).get("Messages", [])
        limit = self.queues.max_receives.get(source.queue)
        if limit is not None:  # Lambda never sees them: SQS moves them to the dead-letter queue
            spent = [m for m in received if _receives(m) > limit]
            for message in spent:
                self.log(f"queues: {source.queue}: message {message['MessageId']} given up on")
                client.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
            received = [m for m in received if m not in spent]
        if not received:
            return 0
        try:
            result = self.invoke(source, sqs_event(self.arns[source.queue], received))
        except Exception as err:  # the whole batch comes back after the visibility timeout
            self.log(f"queues: {source.function} failed on {len(received)} message(s): {err}")
            return 0
        failed: set[str] = set()
        if source.report_item_failures and isinstance(result, dict):
            for failure in result.get("batchItemFailures") or []:
                if isinstance(failure, dict):
                    failed.add(str(failure.get("itemIdentifier")))
        done = [m for m in received if m["MessageId"] not in failed]
        if done:
            client.delete_message_batch(
                QueueUrl=url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)
                ],
            )
        if failed:
            self.log(f"queues: {source.function} failed on {len(failed)} message(s)")
        return len(done)

    def run(self, stop: threading.Event) -> list[threading.Thread]:
        """A poller thread per source until ``stop``."""

        def loop(source: QueueSource) -> None:
            while not stop.is_set():
                try:
                    self.poll_once(source, wait_seconds=LONG_POLL_SECONDS)
                except Exception as err:  # moto's server stopping, a bug: never the runtime's end
                    if not stop.is_set():
                        self.log(f"queues: {source.function}: polling failed (retrying): {err}")
                        stop.wait(1.0)

        threads = []
        for source in self.sources:
            thread = threading.Thread(
                target=loop, args=(source,), name=f"queue-{source.function}", daemon=True
            )
            thread.start()
            threads.append(thread)
        if self.sources:
            names = ", ".join(f"{s.function} <- {s.queue}" for s in self.sources)
            print(f"queues: {names}", file=sys.stderr, flush=True)
        return threads


class _LocalTimerQueue:
    """The timers' queue port on a queue here (what ``SqsTimerQueue`` is on AWS)."""

    def __init__(self, queues: LocalQueues, url: str) -> None:
        self.queues, self.url = queues, url

    def send(self, body: str, delay_seconds: int) -> None:
        self.queues.client.send_message(
            QueueUrl=self.url, MessageBody=body, DelaySeconds=delay_seconds
        )


def rearm_turn_timers(
    endpoint: str, table: str, queues: LocalQueues, queue: str = "TimerQueue"
) -> int:
    """Set a turn timer for every game in the ``by_due`` index (a quiet window's end for every
    player's held pushes there), and a timer for every searching ticket (what a restart lost
    with moto's queue); how many. A timer its game or ticket no longer needs does nothing when
    it fires."""
    from domino.service.quiet import QUIET_TIMER
    from domino.service.timers import TURN, Timer, Timers
    from domino.service.vacations import VACATION_TIMER
    from domino.store.records import DUE_SHARDS

    url = queues.urls.get(queue)
    if url is None:
        return 0
    timers = Timers(_LocalTimerQueue(queues, url), time.time)  # a new run's clock is the system's
    dynamodb = boto3.client("dynamodb", endpoint_url=endpoint, region_name=REGION)
    armed = 0
    for shard in range(DUE_SHARDS):
        pages = dynamodb.get_paginator("query").paginate(
            TableName=table,
            IndexName="by_due",
            KeyConditionExpression="due_shard = :s",
            ExpressionAttributeValues={":s": {"S": str(shard)}},
            ProjectionExpression="pk, sk, due",
        )
        for page in pages:
            for item in page["Items"]:
                key, due = item["pk"]["S"], int(item["due"]["N"])
                if key.startswith("PLAYER#"):
                    kind = VACATION_TIMER if item["sk"]["S"] == "VACATION" else QUIET_TIMER
                    timers.set(Timer(kind, key.removeprefix("PLAYER#"), due))
                else:
                    timers.set(Timer(TURN, key.removeprefix("GAME#"), due))
                armed += 1
    return armed + rearm_ticket_timers(dynamodb, table, timers)


def rearm_ticket_timers(dynamodb: Any, table: str, timers: Any) -> int:
    """Look at once at every searching quick match ticket (the sparse ``by_queue`` index holds
    only those, so the scan reads nothing else); each look sets the ticket's next one."""
    from domino.service.matchmaking import TICKET_TIMER
    from domino.service.timers import Timer

    armed = 0
    pages = dynamodb.get_paginator("scan").paginate(
        TableName=table, IndexName="by_queue", ProjectionExpression="pk"
    )
    for page in pages:
        for item in page["Items"]:
            ticket = item["pk"]["S"].removeprefix("TICKET#")
            timers.set(Timer(TICKET_TIMER, ticket, int(time.time())))
            armed += 1
    return armed
