"""Worker processes that play the part of Lambda containers.

Lambda runs one request at a time per container and scales out with more containers. Handlers
rely on that: Powertools keeps the current event in a class attribute, shared by every resolver
of a process, so two requests on two threads of one process could read each other's event (and
answer as the wrong player). The runtime therefore hands each request to a pool of processes,
each serving one request at a time, like containers, while the HTTP server stays threaded.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Collection
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from local.invoke import LambdaContext, load_handler

INVOKE_TIMEOUT_SECONDS = 60


class InvocationFailed(RuntimeError):
    """The handler raised (the traceback is in the message) or its container died."""


#: how often a container checks that the runtime that started it is still there
PARENT_CHECK_SECONDS = 1.0
#: the DynamoDB operations that may leave a stream record: only an invocation that sent one
#: wakes the stream pump (``Containers.after_invoke``), and only for the tables it wrote
DYNAMODB_WRITES = frozenset(
    {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}
)
#: a write whose table could not be read from its parameters: every mapping looks
ANY_TABLE = "*"
_written: set[str] = set()  # tables this container's invocation wrote to (``_count_writes``)


def _start_container(env: dict[str, str], runtime: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runtime's to handle
    os.environ.update(env)
    _count_writes()
    threading.Thread(
        target=_exit_with, args=(runtime,), name="exit-with-runtime", daemon=True
    ).start()


def _count_writes() -> None:
    """Note the tables the container's DynamoDB writes go to, at botocore's one door for every
    request (the handlers make their own clients). A read-only request (most of a client's:
    views, lists, polls) then costs no look at the streams: each look is a GetRecords per
    mapping, which made a GET cost the runtime 3.7 ms of CPU and DynamoDB Local 4.5, instead of
    1.4 and 3.8; and a write to a table no mapping reads (an inbox, a device) costs none either
    (docs/decisions.md)."""
    from botocore.client import BaseClient

    send = BaseClient._make_api_call

    def counted(client: Any, operation: str, params: dict[str, Any]) -> Any:
        if operation in DYNAMODB_WRITES:  # a write refused by its condition counts: harmless
            _written.update(written_tables(operation, params))
        return send(client, operation, params)

    BaseClient._make_api_call = counted


def written_tables(operation: str, params: dict[str, Any]) -> set[str]:
    """The tables a DynamoDB write names (``ANY_TABLE`` where its parameters do not say)."""
    if operation == "TransactWriteItems":
        names = {
            str(action.get("TableName", ANY_TABLE))
            for entry in params.get("TransactItems", [])
            for kind, action in entry.items()
            if kind != "ConditionCheck"
        }
    elif operation == "BatchWriteItem":
        names = {str(name) for name in params.get("RequestItems", {})}
    else:
        names = {str(params.get("TableName", ANY_TABLE))}
    return names or {ANY_TABLE}


def _exit_with(runtime: int) -> None:
    """End this container once the runtime that started it is gone, however it went (a
    SIGKILL too, which runs no shutdown). PR_SET_PDEATHSIG cannot serve: it fires when the
    *thread* that spawned the child ends, and the pool spawns containers from request threads."""
    while os.getppid() == runtime:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _warm(handlers: list[tuple[str, str]]) -> int:
    for code_uri, handler in handlers:
        load_handler(Path(code_uri), handler)
    return os.getpid()


def _invoke(code_uri: str, handler: str, function: str, event: dict[str, Any]) -> dict[str, Any]:
    _written.clear()
    try:
        result = load_handler(Path(code_uri), handler)(event, LambdaContext(function_name=function))
    except Exception:
        return {"__failed__": traceback.format_exc(), "__wrote__": sorted(_written)}
    return {"__result__": result, "__wrote__": sorted(_written)}


class Containers:
    """``workers`` processes with the handlers' environment; ``invoke`` runs one request."""

    def __init__(self, workers: int, env: dict[str, str], handlers: list[tuple[str, str]]):
        self.workers = workers
        self.env = env
        self.handlers = handlers
        self._lock = threading.Lock()
        self._closed = False
        self._pool = self._new_pool()
        self._running: set[Future[Any]] = set()  # invocations not yet answered
        #: called after every invocation that wrote to DynamoDB, with the tables it wrote (the
        #: stream pump looks at once at their streams)
        self.after_invoke: Callable[[Collection[str]], None] | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_container,
            initargs=(self.env, os.getpid()),
        )

    def warm(self) -> None:
        """Start one container and import every handler in it (import errors show at start).
        The others start when requests overlap, and import a handler the first time they run
        it, as Lambda's new containers do: a runtime that serves a few requests (most of a test
        suite's) does not pay for four containers' imports of every handler."""
        self._pool.submit(_warm, self.handlers).result(timeout=120)

    def invoke(self, code_uri: Path, handler: str, function: str, event: dict[str, Any]) -> Any:
        pool = self._pool
        if self._closed:
            raise InvocationFailed("the runtime is stopping")
        try:
            future = pool.submit(_invoke, str(code_uri), handler, function, event)
            with self._lock:
                self._running.add(future)
            future.add_done_callback(self._answered)
            outcome = future.result(timeout=INVOKE_TIMEOUT_SECONDS)
            wrote = outcome.get("__wrote__", [ANY_TABLE])
            if self.after_invoke is not None and wrote:
                self.after_invoke(wrote)
        except BrokenProcessPool as err:
            with self._lock:  # a container died: start fresh ones for the next requests
                if self._pool is pool and not self._closed:
                    self._pool = self._new_pool()
            raise InvocationFailed("the container running the handler died") from err
        except (CancelledError, RuntimeError) as err:  # dropped, or sent after close
            if not self._closed:
                raise
            raise InvocationFailed("the runtime is stopping") from err
        if "__failed__" in outcome:
            raise InvocationFailed(outcome["__failed__"])
        return outcome["__result__"]

    def _answered(self, future: Future[Any]) -> None:
        with self._lock:
            self._running.discard(future)

    def close(self, timeout: float | None = None) -> None:
        """Stop the containers: queued requests are dropped; the running ones are waited for
        (``timeout`` None) or given ``timeout`` seconds, after which they fail. Then the
        containers are ended (terminated, then killed), as Lambda ends its own: an idle one's
        interpreter teardown (0.2 s of CPU each) would serve nothing."""
        with self._lock:
            self._closed = True
            pool = self._pool
            running = set(self._running)
        if timeout is None:
            pool.shutdown(wait=True, cancel_futures=True)
            return
        processes = list(self._processes(pool))
        pool.shutdown(wait=False, cancel_futures=True)
        wait(running, timeout=timeout)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(0.5)
            if process.is_alive():
                process.kill()

    def kill(self) -> None:
        """End every container at once (SIGKILL), whatever it runs."""
        for process in self._processes(self._pool):
            with contextlib.suppress(OSError, ValueError):
                process.kill()

    @staticmethod
    def _processes(pool: ProcessPoolExecutor) -> list[Any]:
        # the executor's own map of its worker processes (Python 3.14 adds terminate_workers)
        return list((getattr(pool, "_processes", None) or {}).values())
