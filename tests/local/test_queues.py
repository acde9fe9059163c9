"""SQS in the local runtime: the template's queues on moto's server and their functions fed as
Lambda's SQS event source mapping feeds them (delays kept, reported failures left on the
queue, messages past the redrive's count dropped)."""

from __future__ import annotations

import time
import uuid
from typing import Any

from local.queues import LocalQueues, QueuePump, QueueSource, queue_sources
from local.template import Template

TEMPLATE = Template()


def timers_source() -> QueueSource:
    (source,) = [s for s in queue_sources(TEMPLATE) if s.function == "TimersFunction"]
    return source


def test_the_templates_timer_queue_feeds_the_timers_function() -> None:
    source = timers_source()
    event = TEMPLATE.resources["TimersFunction"]["Properties"]["Events"]["TimerDue"]
    assert source.queue == "TimerQueue" and source.batch_size == event["Properties"]["BatchSize"]
    assert source.report_item_failures
    assert (source.code_uri / "app.py").is_file()


class Function:
    def __init__(self) -> None:
        self.bodies: list[str] = []
        self.fail: set[str] = set()

    def __call__(self, source: QueueSource, event: dict[str, Any]) -> Any:
        failures = []
        for record in event["Records"]:
            assert record["eventSource"] == "aws:sqs" and record["eventSourceARN"].endswith(
                source.queue
            )
            self.bodies.append(record["body"])
            if record["body"] in self.fail:
                failures.append({"itemIdentifier": record["messageId"]})
        return {"batchItemFailures": failures}


def pump_on(sns: Any) -> tuple[LocalQueues, QueuePump, Function, str]:
    queues = LocalQueues(sns.endpoint, TEMPLATE)
    function = Function()
    logs: list[str] = []
    pump = QueuePump(queues, [timers_source()], function, logs.append)
    url = queues.urls["TimerQueue"]
    while True:  # what an earlier test left (PurgeQueue is allowed once a minute)
        left = queues.client.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
        if not left.get("Messages"):
            return queues, pump, function, url
        for message in left["Messages"]:
            queues.client.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])


def test_a_delayed_message_comes_when_due_and_once(sns: Any) -> None:
    queues, pump, function, url = pump_on(sns)
    body = f"due-{uuid.uuid4().hex}"
    sent = time.monotonic()
    queues.client.send_message(QueueUrl=url, MessageBody=body, DelaySeconds=2)
    assert pump.poll_once(timers_source(), wait_seconds=0) == 0  # not yet
    while body not in function.bodies and time.monotonic() - sent < 10:
        pump.poll_once(timers_source())
    assert function.bodies == [body] and time.monotonic() - sent >= 2
    pump.poll_once(timers_source(), wait_seconds=0)
    assert function.bodies == [body]  # deleted once handled


def test_a_reported_failure_stays_on_the_queue_and_the_rest_is_deleted(sns: Any) -> None:
    queues, pump, function, url = pump_on(sns)
    queues.client.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "1"})
    try:
        good, bad = f"good-{uuid.uuid4().hex}", f"bad-{uuid.uuid4().hex}"
        function.fail.add(bad)
        queues.client.send_message(QueueUrl=url, MessageBody=good)
        queues.client.send_message(QueueUrl=url, MessageBody=bad)
        deadline = time.monotonic() + 15
        limit = queues.max_receives["TimerQueue"]
        while function.bodies.count(bad) < limit and time.monotonic() < deadline:
            pump.poll_once(timers_source())
        assert function.bodies.count(good) == 1 and function.bodies.count(bad) == limit
        time.sleep(1.1)  # back once more: past the redrive's count, it is dropped unseen
        pump.poll_once(timers_source())
        pump.poll_once(timers_source(), wait_seconds=0)
        assert function.bodies.count(bad) == limit
    finally:
        queues.client.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": "60"})
