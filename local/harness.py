"""Call template.yaml's functions in-process, as API Gateway and Lambda would, without HTTP.

The integration tests and the benchmarks share this harness::

    harness = Harness()                       # template.yaml of this checkout
    reply = harness.call("POST", "/games/x/play", {"tile": "3-5"}, claims={"sub": "bob"})
    reply.status, reply.body, reply.elapsed   # 200, the parsed JSON, seconds in the handler
    harness.drain()                           # the stream functions catch up

``call`` finds the template route, builds the API Gateway HTTP API (v2) event, invokes the
route function's ``handler(event, context)`` and returns a ``Reply``; ``drain`` feeds what the
tables' streams hold to the stream functions, as event source mappings would.

It relies only on what a deployed function relies on: template.yaml, the handler modules it
names (``functions/<name>/app.py``) and the environment (``local_environment``: TABLE_NAME,
IDEMPOTENCY_TABLE, DEV_MODE, fake AWS credentials, Powertools switches). It never imports the
``domino`` package, so it can drive another checkout's code: give it that checkout's template
and put its ``shared/`` first on ``sys.path`` (``bench/*.py --tree``).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from local import ddb
from local.environment import local_environment
from local.invoke import Handler, LambdaContext, http_event, load_handler
from local.streams import StreamPump, StreamSource
from local.tables import ensure_tables
from local.template import Route, Template


@dataclass
class Reply:
    """A handler's HTTP answer, its body parsed as JSON."""

    status: int
    headers: dict[str, str]
    body: Any
    raw: str
    elapsed: float = 0.0  # seconds spent in the handler

    @property
    def code(self) -> str | None:
        """The error code of an error reply."""
        error = self.body.get("error") if isinstance(self.body, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        return code if isinstance(code, str) else None

    def header(self, name: str) -> str | None:
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None

    def ok(self, status: int = 200) -> Any:
        assert self.status == status, (self.status, self.body)
        return self.body


def reply_of(result: Any, elapsed: float = 0.0) -> Reply:
    """A v2 handler result as API Gateway maps it (a bare value is a 200 JSON answer)."""
    if not isinstance(result, dict) or "statusCode" not in result:
        raw = json.dumps(result)
        return Reply(200, {"Content-Type": "application/json"}, result, raw, elapsed)
    raw = result.get("body") or ""
    if result.get("isBase64Encoded"):
        raw = base64.b64decode(raw).decode("utf-8", "replace")
    headers = {key: str(value) for key, value in (result.get("headers") or {}).items()}
    return Reply(int(result["statusCode"]), headers, json.loads(raw) if raw else None, raw, elapsed)


class _PerThread:
    """A router attribute with one value per thread, and per instance when it has a
    ``default`` factory (``context``); the class's own otherwise (``current_event``)."""

    def __init__(self, name: str, default: Any = None) -> None:
        self.name, self.default, self.values = name, default, threading.local()

    def _key(self, instance: object) -> tuple[dict[int, Any], int]:
        slots: dict[int, Any] = self.values.__dict__.setdefault(self.name, {})
        return slots, id(instance) if self.default is not None else 0

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        slots, key = self._key(instance)
        if key not in slots:
            slots[key] = self.default() if self.default is not None else None
        return slots[key]

    def __set__(self, instance: object, value: Any) -> None:
        slots, key = self._key(instance)
        slots[key] = value


def one_event_per_thread() -> None:
    """Powertools' router keeps the event it handles in class attributes (``current_event``,
    ``lambda_context``) and its route's in the app's ``context``: right in Lambda, which gives a
    container one event at a time, wrong when this harness's threads stand in for concurrent
    containers (a handler that reads a header after a DynamoDB call would read another
    request's). Each thread gets its own; idempotent."""
    from aws_lambda_powertools.event_handler.api_gateway import BaseRouter

    if isinstance(BaseRouter.__dict__.get("current_event"), _PerThread):
        return
    fields = {
        "current_event": _PerThread("current_event"),
        "lambda_context": _PerThread("lambda_context"),
        "context": _PerThread("context", dict),
    }
    base = type(BaseRouter)

    class PerThreadRouter(base):  # type: ignore[misc, valid-type]
        def __setattr__(cls, name: str, value: Any) -> None:
            if name in fields:  # ``BaseRouter.current_event = ...`` in ``resolve``
                fields[name].__set__(None, value)
            else:
                super().__setattr__(name, value)

    for name, field in fields.items():
        type.__setattr__(BaseRouter, name, field)
    BaseRouter.__class__ = PerThreadRouter  # type: ignore[method-assign]


class Harness:
    """The template's routes and stream functions, invoked in this process.

    ``quiet`` keeps what handlers print off stdout (Powertools Metrics prints its blobs even
    when disabled), which the benchmarks want and the tests do not mind.
    """

    def __init__(
        self,
        template: Template | None = None,
        *,
        endpoint: str | None = None,
        quiet: bool = False,
    ) -> None:
        one_event_per_thread()
        self.template = template or Template()
        self.endpoint = endpoint
        self.quiet = quiet
        self._pump: StreamPump | None = None
        #: every stream batch delivered: (function, records, seconds in the handler)
        self.stream_batches: list[tuple[str, int, float]] = []

    # ---------------------------------------------------------------- HTTP API routes

    def route(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        """The template route of ``method path`` (a query string is ignored) and its path
        parameters; AssertionError when there is none."""
        found = self.template.find_route(method, path.split("?")[0])
        assert found is not None, f"no route for {method} {path}"
        return found

    def handler(self, route: Route) -> Handler:
        return load_handler(route.code_uri, route.handler)

    def event(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        claims: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The v2 event API Gateway would hand the route's function; ``claims`` are the JWT
        authorizer's (None: no authorizer context), a body not str/bytes/dict goes as JSON."""
        route, params = self.route(method, path)
        if body is not None and not isinstance(body, str | bytes | dict):
            body = json.dumps(body)
        return http_event(
            method,
            path,
            route_key=route.route_key,
            path_parameters=params or None,
            headers=headers,
            body=body,
            claims=claims,
        )

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        claims: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        """Invoke the route's function with the event ``event`` builds; ``Reply.elapsed`` is
        the time spent in the handler alone."""
        route, _ = self.route(method, path)
        event = self.event(method, path, body, claims=claims, headers=headers)
        return self._run(self.handler(route), event, route.function)

    def invoke(self, function: str, event: dict[str, Any]) -> Reply:
        """Run ``functions/<function>/app.py``'s handler on a hand-made event."""
        handler = load_handler(self.template.root / "functions" / function, "app.handler")
        return self._run(handler, event, function)

    def _run(self, handler: Handler, event: dict[str, Any], function: str) -> Reply:
        context = LambdaContext(function_name=function)
        with self._output():
            started = time.perf_counter()
            result = handler(event, context)
            elapsed = time.perf_counter() - started
        return reply_of(result, elapsed)

    def _output(self) -> contextlib.AbstractContextManager[Any]:
        return contextlib.redirect_stdout(io.StringIO()) if self.quiet else contextlib.nullcontext()

    # ---------------------------------------------------------------- streams

    def drain(self) -> int:
        """Deliver the streams' new records to their functions, as Lambda would have by now;
        returns how many records passed the filters."""
        if self._pump is None:
            endpoint = self.endpoint or os.environ["AWS_ENDPOINT_URL_DYNAMODB"]
            self._pump = StreamPump(
                endpoint,
                self.template,
                self.template.table_names(),
                self._consume,
                concurrent_lanes=False,  # the functions run in this process, one at a time
            )
        return self._pump.drain()

    def _consume(self, source: StreamSource, event: dict[str, Any]) -> Any:
        handler = load_handler(source.code_uri, source.handler)
        with self._output():
            started = time.perf_counter()
            try:
                return handler(event, LambdaContext(function_name=source.function))
            finally:
                elapsed = time.perf_counter() - started
                self.stream_batches.append((source.function, len(event["Records"]), elapsed))


@contextlib.contextmanager
def local_database(
    template: Template | None = None, env: dict[str, str] | None = None
) -> Iterator[str]:
    """DynamoDB Local in memory on a free port with the template's tables, and the handlers'
    environment (``local_environment`` and then ``env``) set in ``os.environ``; yields the
    endpoint and stops the database on exit."""
    template = template or Template()
    server = ddb.start_dynamodb_local(ddb.free_port())
    try:
        ensure_tables(server.endpoint, template)
        os.environ.update({**local_environment(template, server.endpoint), **(env or {})})
        yield server.endpoint
    finally:
        server.stop()
