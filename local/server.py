"""The local runtime behind ``make run``: the template's HttpApi routes on 127.0.0.1.

Each HTTP request becomes the API Gateway HTTP API v2 event Lambda would receive (with the JWT
claims the authorizer would add) and is handed to the function's handler in-process. The
runtime answers the errors API Gateway itself would answer, before any handler runs, in the
contract's JSON shape ``{"error": {"code": ..., "message": ...}}``: an unknown route or method
(404 ``not_found``), a bad token (401 ``unauthorized``), a body over 16 KiB (413
``payload_too_large``), and what HTTP itself refuses: a malformed request or body (400), an
over-long request line (414) or header (431), all with the code ``invalid_request``.

The web client (``web/``) is served beside the API: ``GET /`` is its page and ``GET /web/...``
its files (``local.static``); no route of the template starts there.

The template's WebSocket API is served on the same port (``local.websocket``): clients connect
to ``ws://127.0.0.1:PORT/ws?token=<dev token>`` and the handlers post to them through the
management API under ``/ws/@connections/`` (``WS_ENDPOINT``), which only loopback clients may
call and which answers in API Gateway's error shape, not the contract's.

A page in the developer's browser is no client of the runtime unless it is the runtime's own
(docs/SECURITY.md, "The local runtime and the pages a developer opens"): a request naming
another ``Host`` than the runtime listens as (127.0.0.1, localhost or [::1], with its port or
none) is 421 (a DNS-rebinding page names its own domain), and ``/dev/*`` refuses an ``Origin``
of another site (403) and, but for GET and HEAD, a body that is not ``application/json`` (415;
a request with neither a body nor a type, such as a script's ``POST /dev/sweep``, is let through),
so no cross-site "simple" request reaches it; all ``invalid_request``. A connection waits
``idle_timeout`` (5 s) for a request's first byte and then ``request_timeout`` (10 s) for the
rest of its head and body (408 once it has begun), so silent or slow clients hold no thread; a
WebSocket, once upgraded, is the hub's and has only its limits.

Ctrl-C or SIGTERM stops it within ``STOP_SECONDS`` whatever is in flight (``Shutdown``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from local import ddb, tokens, websocket
from local.containers import INVOKE_TIMEOUT_SECONDS, Containers
from local.environment import DevClock, local_environment
from local.paths import local_dir, run_dir
from local.queues import LocalQueues, QueuePump, QueueSource, queue_sources, rearm_turn_timers
from local.runtime import LocalRuntime
from local.schedules import schedule_sources, start_schedules
from local.sns import LocalSns
from local.streams import Checkpoints, StreamPump, StreamSource, stream_sources
from local.tables import ensure_tables
from local.template import Template

#: a stop after Ctrl-C or SIGTERM: the orderly part's seconds, and the most it takes in all
ORDERLY_STOP_SECONDS, STOP_SECONDS = 2.5, 4.3


def start_database(port: int, data_dir: Path | None) -> ddb.DynamoServer | None:
    """DynamoDB Local (data kept on disk unless in memory); moto's server without Java."""
    endpoint = f"http://127.0.0.1:{port}"
    for pid in ddb.end_stale(port, data_dir):
        print(f"ended DynamoDB Local {pid}, left running by an earlier run", file=sys.stderr)
    if ddb.port_in_use(port):
        if ddb.answers(endpoint):
            print(f"DynamoDB already answers on {endpoint}: using it.", file=sys.stderr)
            return None
        raise ddb.DynamoUnavailable(f"port {port} is in use by something else (set DDB_PORT)")
    try:
        server = ddb.start_dynamodb_local(port, data_dir)
    except ddb.DynamoUnavailable as err:
        print(
            f"WARNING: {err}\nWARNING: falling back to moto's server: data is kept in memory "
            "only, and it is not DynamoDB (no real conditional-write atomicity).",
            file=sys.stderr,
        )
        return ddb.start_moto(port)
    return server


def stream_pump(
    template: Template,
    sources: list[StreamSource],
    endpoint: str,
    containers: Containers,
    data_dir: Path | None = None,
) -> StreamPump | None:
    """The pump that feeds the tables' streams to their functions (Lambda's event source
    mappings), each mapping resuming where it stopped when the data is kept (``data_dir``),
    its starting positions fixed now: call it before the runtime serves a request."""
    if not sources:
        return None

    def invoke(source: StreamSource, event: dict[str, Any]) -> Any:
        return containers.invoke(source.code_uri, source.handler, source.function, event)

    checkpoints = Checkpoints(data_dir / "streams") if data_dir is not None else None
    pump = StreamPump(
        endpoint, template, template.table_names(), invoke, sources=sources, checkpoints=checkpoints
    )
    pump.start()
    containers.after_invoke = pump.wake  # what a function wrote is delivered at once
    return pump


def start_streams(pump: StreamPump, stop: threading.Event) -> threading.Thread:
    """Poll the streams on a thread of their own until ``stop``."""
    thread = threading.Thread(target=pump.run, args=(stop,), name="streams", daemon=True)
    thread.start()
    mappings = ", ".join(f"{s.function} <- {s.table}" for s in pump.sources)
    print(f"streams: {mappings}", file=sys.stderr, flush=True)
    return thread


def start_queues(
    queues: LocalQueues,
    sources: list[QueueSource],
    containers: Containers,
    stop: threading.Event,
    endpoint: str,
    template: Template,
) -> None:
    """Feed the queues' messages to their functions (Lambda's SQS event source mappings), after
    setting again, in the background, the turn timers a restart lost (moto keeps no queue)."""

    def invoke(source: QueueSource, event: dict[str, Any]) -> Any:
        return containers.invoke(source.code_uri, source.handler, source.function, event)

    def rearm() -> None:
        table = template.table_names().get("GameTable")
        if table is None:
            return
        try:
            armed = rearm_turn_timers(endpoint, table, queues)
        except Exception as err:  # the minutely sweep still comes: never the runtime's end
            print(f"queues: turn timers not set again: {err}", file=sys.stderr, flush=True)
            return
        if armed:
            print(f"queues: {armed} timer(s) set again", file=sys.stderr, flush=True)

    if any(source.queue == "TimerQueue" for source in sources):
        threading.Thread(target=rearm, name="rearm-timers", daemon=True).start()
    QueuePump(queues, sources, invoke).run(stop)


def log_pushes(sns: LocalSns, stop: threading.Event) -> None:
    """Say in the log what would have reached a phone (GET /dev/pushes lists it all)."""
    seen = 0
    while not stop.wait(0.5):
        pushes = sns.pushes()
        for push in pushes[seen:]:
            text = push["default"] or ""
            print(f"push -> {push['player']} ({push['platform']}): {text}", file=sys.stderr)
        seen = len(pushes)


class Shutdown:
    """Ctrl-C or SIGTERM: the orderly stop (sockets closed, the last stream batch, requests
    in flight) has ``ORDERLY_STOP_SECONDS``, then what still runs is ended; whatever hangs, a
    watchdog ends the process ``STOP_SECONDS`` after the signal, DynamoDB Local and the
    containers first. A second Ctrl-C ends it at once; one during the start stops it there."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.serving = False
        self.begun: float | None = None
        self.deadline = 0.0
        self.database: ddb.DynamoServer | None = None
        self.containers: Containers | None = None

    def on_signal(self, _signum: int, _frame: Any) -> None:
        if self.begun is not None:
            self.force("stopped at once")
        self.stop.set()
        if not self.serving:
            raise KeyboardInterrupt  # out of the start, into its cleanup

    def begin(self) -> None:
        self.begun = time.monotonic()
        self.deadline = self.begun + STOP_SECONDS
        threading.Thread(target=self._watch, name="stop-watchdog", daemon=True).start()

    def left(self, most: float) -> float:
        """Seconds a step may take: at most ``most``, within the orderly part."""
        begun = time.monotonic() if self.begun is None else self.begun
        return max(0.0, min(most, begun + ORDERLY_STOP_SECONDS - time.monotonic()))

    def done(self) -> None:
        """The orderly stop is over: the interpreter's exit gets a moment, not more."""
        self.deadline = min(self.deadline, time.monotonic() + 0.5)

    def _watch(self) -> None:
        while (wait := self.deadline - time.monotonic()) > 0:
            time.sleep(min(wait, 0.05))
        self.force("stopped by force: something still ran")

    def force(self, why: str) -> None:
        if self.database is not None:
            with contextlib.suppress(OSError):
                self.database.process.kill()
        if self.containers is not None:
            self.containers.kill()
        with contextlib.suppress(OSError, ValueError):
            print(why, file=sys.stderr, flush=True)
        os._exit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--ddb-port", type=int, default=int(os.environ.get("DDB_PORT", "8000")))
    parser.add_argument("--in-memory", action="store_true", help="do not keep games on disk")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where DynamoDB Local keeps its data (default .local/data)",
    )
    parser.add_argument("--quiet", action="store_true", help="no access log")
    parser.add_argument(
        "--ws-idle-timeout",
        type=float,
        default=websocket.IDLE_TIMEOUT_SECONDS,
        help="seconds without a message after which a WebSocket closes (API Gateway: 600)",
    )
    parser.add_argument(
        "--ws-max-age",
        type=float,
        default=websocket.MAX_CONNECTION_SECONDS,
        help="seconds after which any WebSocket closes (API Gateway: 7200)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("LOCAL_WORKERS", "4")),
        help="handler processes, like Lambda containers: requests run in parallel up to this",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    template = Template()
    data_dir = None if args.in_memory else (args.data_dir or local_dir() / "data")
    endpoint = f"http://127.0.0.1:{args.ddb_port}"
    stop = threading.Event()
    shutdown = Shutdown(stop)
    signal.signal(signal.SIGINT, shutdown.on_signal)
    signal.signal(signal.SIGTERM, shutdown.on_signal)
    database: ddb.DynamoServer | None = None
    httpd: LocalRuntime | None = None
    sns: LocalSns | None = None
    containers: Containers | None = None
    streams: threading.Thread | None = None
    clock: DevClock | None = None
    try:
        database = shutdown.database = start_database(args.ddb_port, data_dir)
        ensure_tables(endpoint, template)
        clock = DevClock(run_dir() / f"clock-{args.port}")  # a fresh clock each run
        sns = LocalSns()  # mobile push through boto3's SNS code path, to moto's server
        queues = LocalQueues(sns.endpoint, template)  # the same server serves SQS
        # the handlers post to sockets through the management API on this runtime's port
        ws_endpoint = f"http://127.0.0.1:{args.port}{websocket.PATH}"
        env = {
            **local_environment(
                template,
                endpoint,
                clock.path,
                ws_endpoint=ws_endpoint if template.websocket_api else None,
                refs=queues.urls,
            ),
            **sns.environment(),
            **queues.environment(),
        }
        os.environ.update(env)
        sources = stream_sources(template)
        schedules = schedule_sources(template)
        timed = queue_sources(template)
        ws_routes = template.websocket_api.routes.values() if template.websocket_api else []
        handlers = sorted(
            {(str(r.code_uri), r.handler) for r in template.routes}
            | {(str(r.code_uri), r.handler) for r in ws_routes}
            | {(str(s.code_uri), s.handler) for s in sources}
            | {(str(s.code_uri), s.handler) for s in schedules}
            | {(str(s.code_uri), s.handler) for s in timed}
        )
        containers = shutdown.containers = Containers(args.workers, env, handlers)
        containers.warm()
        httpd = LocalRuntime(
            (args.host, args.port),
            template,
            tokens.load_secret(),
            containers,
            args.quiet,
            clock,
            schedules,
            sns,
            args.ws_idle_timeout,
            args.ws_max_age,
        )
        kept = data_dir if database is None or database.kind == "dynamodb-local" else None
        # where the streams begin is fixed before a request can write
        pump = stream_pump(template, sources, endpoint, containers, kept)
        shutdown.serving = True
        if stop.is_set():  # a signal came as it started
            return 0
        # polled every 0.1 s: a stop waits no longer for the loop to end
        thread = threading.Thread(target=httpd.serve_forever, args=(0.1,), daemon=True)
        thread.start()
        streams = start_streams(pump, stop) if pump is not None else None
        start_schedules(schedules, httpd.run_schedule, stop)
        start_queues(queues, timed, containers, stop, endpoint, template)
        threading.Thread(target=log_pushes, args=(sns, stop), daemon=True).start()
        kind = database.kind if database else "existing DynamoDB"
        live = (
            f", live updates on ws://{args.host}:{args.port}{websocket.PATH}" if ws_routes else ""
        )
        print(
            f"domino local runtime on http://{args.host}:{args.port} "
            f"({len(template.routes)} routes, {kind} on {endpoint}{live}) "
            f"ready in {time.perf_counter() - started:.1f}s; Ctrl-C stops it.\n"
            f"Play in your browser: http://{args.host}:{args.port}/  "
            "(or from a terminal: .venv/bin/domino login --name YOU, then domino --help)",
            file=sys.stderr,
            flush=True,
        )
        # a timed wait: a signal another thread took is run here only when this thread wakes
        while not stop.wait(0.1):
            pass
        print("stopping ...", file=sys.stderr, flush=True)
    except ddb.DynamoUnavailable as err:
        print(f"ERROR: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stopping ...", file=sys.stderr, flush=True)
    finally:
        shutdown.begin()  # from here a second signal ends the process at once
        stop.set()
        if httpd is not None:
            httpd.shutdown()
            if httpd.websockets is not None:  # their $disconnect runs before the containers go
                httpd.websockets.close_all(wait=shutdown.left(1.5))
            httpd.server_close()
        if streams is not None:  # its last batch may finish before the containers go
            streams.join(timeout=shutdown.left(1.0))
        if containers is not None:  # requests in flight get what is left, then end
            containers.close(timeout=shutdown.left(INVOKE_TIMEOUT_SECONDS))
        if clock is not None:  # no handler reads it any more
            clock.remove()
        # the push service's threads stop while DynamoDB Local does (0.25 s and 0.4 s)
        push_stop = threading.Thread(target=sns.stop, daemon=True) if sns is not None else None
        if push_stop is not None:
            push_stop.start()
        if database is not None:
            database.stop(timeout=max(shutdown.left(ddb.STOP_SECONDS), 1.0))
        if push_stop is not None:
            push_stop.join(timeout=shutdown.left(1.0) or 0.5)
        shutdown.done()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
