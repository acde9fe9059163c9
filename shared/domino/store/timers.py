"""The timers' queue: an SQS delay queue, whose messages become visible when they are due.

SQS holds a message back at most 15 minutes (``DelaySeconds`` ≤ 900); a timer further off is
sent for 15 minutes and sent on again when it comes back (``domino.service.timers``).
"""

from __future__ import annotations

from typing import Any

from domino.store.clients import SERVICE_CONFIG, aws_client

#: the longest SQS delays a message
MAX_DELAY_SECONDS = 900


class SqsTimerQueue:
    def __init__(self, queue_url: str) -> None:
        self.queue_url = queue_url
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:  # built on first use: functions that never set a timer
            self._client = aws_client("sqs", config=SERVICE_CONFIG)
        return self._client

    def send(self, body: str, delay_seconds: int) -> None:
        """Deliver ``body`` after ``delay_seconds`` (0 to 900)."""
        delay = max(0, min(MAX_DELAY_SECONDS, int(delay_seconds)))
        self.client.send_message(QueueUrl=self.queue_url, MessageBody=body, DelaySeconds=delay)
