"""A fault-injecting layer in front of DynamoDB (DynamoDB Local), for the fault suites.

It hooks botocore's ``before-send`` event of the clients the handlers use, so every fault goes
through the SDK as a real one would: its retries, its backoff, its exceptions. Faults:

- ``throttle``: DynamoDB's ThrottlingException (HTTP 400), nothing applied;
- ``server_error``: an HTTP 500 InternalServerError, nothing applied;
- ``timeout``: the request times out before it reaches the database (nothing applied);
- ``reset``: the connection is reset before the request is read (nothing applied);
- ``lost_reply``: the request is applied, then its reply is lost (a read timeout): the SDK
  sends it again, as it does after a real lost reply;
- ``die_after``: the request is applied, then the function dies (``Died``, which no handler
  catches, as a Lambda killed by its timeout or its memory never answers).
"""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectionClosedError, ConnectTimeoutError, ReadTimeoutError
from botocore.httpsession import URLLib3Session
from botocore.retries.standard import ExponentialBackoff

KINDS = ("throttle", "server_error", "timeout", "reset", "lost_reply", "die_after")
#: faults after which nothing was applied
NOT_APPLIED = frozenset({"throttle", "server_error", "timeout", "reset"})


class Died(BaseException):
    """The function stopped here: no exception handler runs, no answer is sent."""


@dataclass
class Rule:
    """Which requests a fault hits: an operation (``PutItem``), a table, a test on the request's
    JSON; ``times`` requests in all, or each with probability ``rate``."""

    kind: str
    operation: str | None = None
    table: str | None = None
    when: Callable[[dict[str, Any]], bool] | None = None
    times: int | None = 1
    rate: float | None = None

    def matches(self, operation: str, request: dict[str, Any]) -> bool:
        if self.operation is not None and operation != self.operation:
            return False
        if self.table is not None and request.get("TableName") != self.table:
            return False
        return self.when is None or self.when(request)


class _Body:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def stream(self, **_kwargs: Any) -> Iterator[bytes]:
        yield self.data


def _error(request: Any, status: int, code: str, message: str) -> AWSResponse:
    body = json.dumps({"__type": f"com.amazonaws.dynamodb.v20120810#{code}", "message": message})
    headers = {"Content-Type": "application/x-amz-json-1.0", "x-amzn-RequestId": "fault"}
    return AWSResponse(request.url, status, headers, _Body(body.encode()))


class Faults:
    """Faults injected into the requests of ``clients`` (boto3 DynamoDB clients)."""

    def __init__(self, *clients: Any, seed: int = 7) -> None:
        self.rules: list[Rule] = []
        self.injected: Counter[str] = Counter()
        self.log: list[tuple[str, str, str | None]] = []  # (kind, operation, table)
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.http = URLLib3Session()
        self.clients = clients
        for client in clients:
            client.meta.events.register("before-send.dynamodb", self._before_send)

    def close(self) -> None:
        for client in self.clients:
            client.meta.events.unregister("before-send.dynamodb", self._before_send)

    def add(self, kind: str, **match: Any) -> Rule:
        assert kind in KINDS, kind
        rule = Rule(kind, **match)
        with self.lock:
            self.rules.append(rule)
        return rule

    def clear(self) -> None:
        with self.lock:
            self.rules.clear()

    def _pick(self, operation: str, request: dict[str, Any]) -> Rule | None:
        with self.lock:
            for rule in self.rules:
                if not rule.matches(operation, request):
                    continue
                if rule.rate is not None:
                    if self.random.random() >= rule.rate:
                        continue
                elif rule.times is not None:
                    if rule.times <= 0:
                        continue
                    rule.times -= 1
                self.injected[rule.kind] += 1
                self.log.append((rule.kind, operation, request.get("TableName")))
                return rule
        return None

    def _before_send(self, request: Any, event_name: str = "", **_kwargs: Any) -> Any:
        operation = event_name.rsplit(".", 1)[-1]
        try:
            body = json.loads(request.body or b"{}")
        except ValueError:
            body = {}
        if "TransactItems" in body:  # a transaction names its tables in its items
            first = next(iter(body["TransactItems"][0].values()))
            body = {**body, "TableName": first.get("TableName")}
        rule = self._pick(operation, body)
        if rule is None:
            return None
        if rule.kind == "throttle":
            return _error(request, 400, "ThrottlingException", "Rate of requests exceeds")
        if rule.kind == "server_error":
            return _error(request, 500, "InternalServerError", "Internal server error")
        if rule.kind == "timeout":
            raise ConnectTimeoutError(endpoint_url=request.url)
        if rule.kind == "reset":
            raise ConnectionClosedError(endpoint_url=request.url)
        self.http.send(request)  # applied; what it answered never reaches the caller
        if rule.kind == "lost_reply":
            raise ReadTimeoutError(endpoint_url=request.url)
        raise Died(f"died after {operation}")


@contextmanager
def injected(*clients: Any, seed: int = 7) -> Iterator[Faults]:
    faults = Faults(*clients, seed=seed)
    try:
        yield faults
    finally:
        faults.close()


@contextmanager
def no_backoff() -> Iterator[None]:
    """The SDK's retries without their sleeps (exponential, up to seconds for a throttle):
    every retry still happens, the suites just do not wait for it."""
    delay = ExponentialBackoff.delay_amount
    ExponentialBackoff.delay_amount = lambda _self, _context: 0  # type: ignore[method-assign]
    try:
        yield
    finally:
        ExponentialBackoff.delay_amount = delay  # type: ignore[method-assign]
