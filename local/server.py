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
import io
import ipaddress
import json
import os
import re
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from domino.api.messages import negotiate
from domino.engine.errors import fill
from domino.limits import MAX_BODY_BYTES

from local import ddb, static, tokens, websocket
from local.containers import INVOKE_TIMEOUT_SECONDS, Containers, InvocationFailed
from local.environment import DevClock, local_environment
from local.invoke import http_event
from local.paths import local_dir
from local.queues import LocalQueues, QueuePump, QueueSource, queue_sources, rearm_turn_timers
from local.schedules import ScheduleSource, run_now, schedule_sources, start_schedules
from local.sns import LocalSns
from local.streams import Checkpoints, StreamPump, StreamSource, stream_sources
from local.tables import ensure_tables
from local.template import Template
from local.websocket import WebSocketHub, error_body, gateway_error

# docs/api.md#errors: a body over 16 KiB is 413 payload_too_large (the handlers refuse the same when
# deployed): the runtime refuses it before reading it. The bound comes from domino.limits, a leaf
# module; the runtime imports nothing else of the handlers' code.
MAX_BODY = MAX_BODY_BYTES
DEV_TOKEN_PATH = "/dev/token"
DEV_CLOCK_PATH = "/dev/clock"
DEV_SWEEP_PATH = "/dev/sweep"
DEV_PUSHES_PATH = "/dev/pushes"
MAX_CLOCK_ADVANCE = 10 * 365 * 24 * 3600
MAX_LINE = 65536  # a chunk-size or trailer line, as http.server bounds the request line
LINGER_SECONDS, LINGER_BYTES = 2.0, 1 << 20  # what is read and dropped before a close
CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,8}")
CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
#: what http.server refuses by itself (send_error), as the contract's error codes and messages
HTTP_ERRORS: dict[int, tuple[int, str, str]] = {
    400: (400, "invalid_request", "The request is malformed."),
    414: (414, "invalid_request", "The request line is too long."),
    431: (431, "invalid_request", "The request headers are too large."),
    505: (505, "invalid_request", "The HTTP version is not supported."),
}
#: the management API's refusals of a body, as API Gateway names them
GATEWAY_ERRORS = {413: "PayloadTooLargeException"}
#: how long a connection waits for a request's first byte (a kept-alive one's idle time), then
#: for the rest of its head and body, and how long a write to a client that does not read waits
IDLE_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS, WRITE_TIMEOUT_SECONDS = 5.0, 10.0, 10.0
#: the names the runtime answers as (with its port or none), besides the address it listens on
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
DEV_PREFIX = "/dev/"
SAFE_METHODS = frozenset({"GET", "HEAD"})
#: a stop after Ctrl-C or SIGTERM: the orderly part's seconds, and the most it takes in all
ORDERLY_STOP_SECONDS, STOP_SECONDS = 2.5, 4.3
FOLDED = re.compile(r"\r?\n[ \t]+")  # an obsolete folded header line (RFC 9112, 5.2)
TOKEN_IN_QUERY = re.compile(r"([?&]token=)[^&\s]+")  # a WebSocket's dev token, kept out of logs


def split_authority(value: str) -> tuple[str, int | None]:
    """``host[:port]`` (a Host header, an Origin's authority) as its lower-cased name (an IPv6
    address in brackets) and port; ValueError when it is neither."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]") + 1
        if end == 0:
            raise ValueError(value)
        name, rest = value[:end], value[end:]
        if rest and not rest.startswith(":"):
            raise ValueError(value)
        port = rest[1:] if rest else None
    else:
        name, colon, port_text = value.partition(":")
        port = port_text if colon else None
    if not name or (port is not None and not (port.isascii() and port.isdigit() and port)):
        raise ValueError(value)
    return name, None if port is None else int(port)


def is_ip_literal(name: str) -> bool:
    """An IPv4 address, or an IPv6 one in brackets, as a Host names it."""
    bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if ":" in bare and bare == name:
        return False
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        return False
    return True


class TimedReader(io.RawIOBase):
    """A connection's bytes for http.server, each read bounded by a deadline: first the wait
    for a request's first byte, then for the rest of its head and body (``expect``); none once
    the connection is a WebSocket's (``deadline`` None), whose hub reads the socket itself."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline: float | None = None
        self.rest = 0.0
        self.begun = self.timed_out = False

    def expect(self, idle: float, request: float) -> None:
        self.deadline, self.rest = time.monotonic() + idle, request
        self.begun = self.timed_out = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        if self.deadline is None:
            try:
                return self.sock.recv_into(buffer)
            except BlockingIOError:
                return None
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            self.timed_out = True
            raise TimeoutError("timed out")
        self.sock.settimeout(remaining)
        try:
            count = self.sock.recv_into(buffer)
        except TimeoutError:
            self.timed_out = True
            raise
        finally:
            self.sock.settimeout(WRITE_TIMEOUT_SECONDS)
        if count and not self.begun:
            self.begun = True
            self.deadline = time.monotonic() + self.rest
        return count


class LocalRuntime(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default listen backlog is 5: a burst of clients (a race test, a load
    # test) would see connections reset before the threads accept them
    request_queue_size = 128

    def shutdown_request(self, request: Any) -> None:
        """Close after a lingering read, as web servers do: a refused request (413, 414, 431)
        may leave bytes unread, and closing over them sends a reset that can destroy the
        error answer before the client reads it."""
        try:
            request.shutdown(socket.SHUT_WR)
            request.settimeout(LINGER_SECONDS)
            deadline = time.monotonic() + LINGER_SECONDS
            drained = 0
            while drained < LINGER_BYTES and time.monotonic() < deadline:
                data = request.recv(65536)
                if not data:
                    break
                drained += len(data)
        except OSError:
            pass
        self.close_request(request)

    def __init__(
        self,
        address: tuple[str, int],
        template: Template,
        secret: bytes,
        containers: Containers,
        quiet: bool = False,
        clock: DevClock | None = None,
        schedules: list[ScheduleSource] | None = None,
        sns: LocalSns | None = None,
        ws_idle_timeout: float = websocket.IDLE_TIMEOUT_SECONDS,
        ws_max_age: float = websocket.MAX_CONNECTION_SECONDS,
        idle_timeout: float = IDLE_TIMEOUT_SECONDS,
        request_timeout: float = REQUEST_TIMEOUT_SECONDS,
    ) -> None:
        super().__init__(address, RequestHandler)
        self.idle_timeout, self.request_timeout = idle_timeout, request_timeout
        self.port = int(self.server_address[1])
        listen = address[0].lower()
        #: a wildcard address is reached by any of the machine's addresses: any IP literal
        #: is answered then (a rebinding page names a domain), never another name
        self.any_ip = listen in WILDCARDS
        named = f"[{listen}]" if ":" in listen and not listen.startswith("[") else listen
        self.host_names = LOOPBACK_NAMES | (set() if self.any_ip else {named})
        self.template = template
        self.secret = secret
        self.containers = containers
        self.quiet = quiet
        self.clock = clock
        self.schedules = schedules or []
        self.sns = sns
        api = template.websocket_api
        self.websockets = (
            None
            if api is None
            else WebSocketHub(
                api,
                secret,
                containers,
                idle_timeout=ws_idle_timeout,
                max_age=ws_max_age,
                log=None if quiet else lambda line: print(line, file=sys.stderr, flush=True),
            )
        )

    def run_schedule(self, source: ScheduleSource, event: dict[str, Any]) -> Any:
        return self.containers.invoke(source.code_uri, source.handler, source.function, event)

    def answers_as(self, name: str, port: int | None) -> bool:
        """True for a name the runtime listens as, with its port or (a Host) none."""
        if port is not None and port != self.port:
            return False
        return name in self.host_names or (self.any_ip and is_ip_literal(name))

    def host_allowed(self, value: str) -> bool:
        try:
            return self.answers_as(*split_authority(value))
        except ValueError:
            return False

    def origin_allowed(self, origin: str) -> bool:
        """An ``Origin`` of a page this runtime served: ``http://`` one of its names and port."""
        scheme, _, authority = origin.strip().partition("://")
        if scheme.lower() != "http" or not authority or "/" in authority:
            return False
        try:
            name, port = split_authority(authority)
        except ValueError:
            return False
        return self.answers_as(name, 80 if port is None else port)


class RequestHandler(BaseHTTPRequestHandler):
    server: LocalRuntime
    protocol_version = "HTTP/1.1"
    # the status line and headers go out in one write, the body in another: with Nagle's
    # algorithm on, the body waits for the client's delayed ACK (40 ms a request on Linux) on
    # a kept-alive connection
    disable_nagle_algorithm = True
    #: answer refusals in API Gateway's error shape (the management API), not the contract's
    gateway_errors = False
    reader: TimedReader
    answered = False

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(WRITE_TIMEOUT_SECONDS)
        self.reader = TimedReader(self.connection)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        """One request within the connection's deadlines (``TimedReader``): a connection that
        sends nothing is closed; one that stops halfway is answered 408 and closed."""
        self.reader.expect(self.server.idle_timeout, self.server.request_timeout)
        self.answered = False
        super().handle_one_request()
        if not self.reader.timed_out:
            return
        self.close_connection = True
        if self.reader.begun and not self.answered:
            self.command, self.request_version = "", "HTTP/1.1"
            self.requestline = "(a request not received in time)"
            with contextlib.suppress(OSError):
                self.fail(408, "invalid_request", "The request did not arrive in time.")

    def log_error(self, format: str, *args: Any) -> None:
        if not format.startswith("Request timed out"):  # a closed idle connection is no error
            super().log_error(format, *args)

    def do_GET(self) -> None:
        self.handle_request()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_GET

    def __getattr__(self, name: str) -> Any:
        """Any other method (``BREW``) is routed too, and so answered 404 ``not_found`` as an
        unknown route is, rather than http.server's HTML 501."""
        if name.startswith("do_"):
            return self.handle_request
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """What http.server refuses by itself (a malformed request line, an over-long line or
        header, too many headers) in the contract's JSON shape instead of an HTML page."""
        status, error, text = HTTP_ERRORS.get(code, (code, "invalid_request", message or ""))
        if code == 501:  # an unsupported method: what an unknown route answers
            status, error, text = 404, "not_found", "No route for {method} {path}."
        if self.request_version == "HTTP/0.9":  # the request line was not understood: answer
            self.request_version = "HTTP/1.0"  # with a status line and headers all the same
        self.close_connection = True
        path = urlsplit(getattr(self, "path", "") or "").path[:200]
        params: dict[str, Any] = {"method": self.command or "", "path": path} if code == 501 else {}
        self.fail(status, error, text, **params)

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def send(
        self,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
        cookies: list[str] | None = None,
    ) -> None:
        self.answered = True
        self.send_response(status)
        headers = dict(headers or {})
        lowered = {key.lower() for key in headers}
        if "content-type" not in lowered and body:
            headers["Content-Type"] = "application/json"
        for key, value in headers.items():
            if key.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(key, value)
        for cookie in cookies or []:
            self.send_header("Set-Cookie", cookie)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def fail(
        self,
        status: int,
        code: str,
        message: str,
        headers: dict[str, str] | None = None,
        **params: Any,
    ) -> None:
        """The contract's error body, in the language the request prefers (api/messages.py)."""
        headers_in = getattr(self, "headers", None)
        language = negotiate(headers_in.get("Accept-Language") if headers_in else None)
        body = error_body(code, message, params, language)
        self.send(status, body, {**(headers or {}), "Content-Language": language})

    def read_body(self, limit: int = MAX_BODY) -> bytes | None:
        """The request body, or None after answering 413 (over ``limit``, 16 KiB unless the
        route takes more) or 400 (malformed)."""
        if self.headers.get("Transfer-Encoding", "").strip().lower() == "chunked":
            return self.read_chunked(limit)
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not CONTENT_LENGTH.fullmatch(declared):
            self.refuse(400, "invalid_request", "Content-Length is not a number.")
            return None
        length = int(declared)
        if length > limit:  # never read what we refuse
            self.refuse(413, "payload_too_large", "Bodies are limited to {max} bytes.", max=limit)
            return None
        body = self.rfile.read(length) if length else b""
        if len(body) < length:
            self.refuse(400, "invalid_request", "The body is shorter than its Content-Length.")
            return None
        return body

    def read_chunked(self, limit: int = MAX_BODY) -> bytes | None:
        """A ``Transfer-Encoding: chunked`` body (RFC 9112, 7.1): hex sizes, each chunk ending
        in CRLF, a last chunk of size 0 and optional trailer lines up to an empty line."""
        chunks: list[bytes] = []
        size = 0
        while True:
            line = self.rfile.readline(MAX_LINE + 1)
            digits = line.split(b";", 1)[0].strip()
            if len(line) > MAX_LINE or not line.endswith(b"\n") or not CHUNK_SIZE.fullmatch(digits):
                self.refuse(400, "invalid_request", "The chunked body is malformed.")
                return None
            length = int(digits, 16)
            if length == 0:
                break
            size += length
            if size > limit:
                self.refuse(
                    413, "payload_too_large", "Bodies are limited to {max} bytes.", max=limit
                )
                return None
            chunk = self.rfile.read(length)
            if len(chunk) < length or self.rfile.readline(MAX_LINE + 1).strip() != b"":
                self.refuse(400, "invalid_request", "The chunked body is malformed.")
                return None
            chunks.append(chunk)
        for _ in range(100):  # trailer fields, ignored, up to the empty line
            line = self.rfile.readline(MAX_LINE + 1)
            if not line.endswith(b"\n"):
                break
            if line in (b"\r\n", b"\n"):
                return b"".join(chunks)
        self.refuse(400, "invalid_request", "The chunked body is malformed.")
        return None

    def refuse(self, status: int, code: str, message: str, **params: Any) -> None:
        """Answer an error and close the connection: what is left of the request is unread."""
        self.close_connection = True
        if self.gateway_errors:
            self.send(*self.gateway_answer(status, fill(message, params)))
            return
        self.fail(status, code, message, **params)

    @staticmethod
    def gateway_answer(status: int, message: str) -> tuple[int, bytes, dict[str, str]]:
        code, headers, body = gateway_error(
            status, GATEWAY_ERRORS.get(status, "BadRequestException"), message
        )
        return code, body, headers

    def misdirected(self, split: Any) -> bool:
        """Refuse a request for another host than this runtime (421) or naming none or two
        (400): a page of another domain rebound to 127.0.0.1 names its own. An HTTP/1.0
        request may name none (RFC 9112, 3.2)."""
        hosts = self.headers.get_all("Host") or []
        if split.netloc:  # an absolute target's authority is the request's host
            hosts = [split.netloc] if split.scheme.lower() == "http" else ["-"]
        if not hosts and self.request_version == "HTTP/1.0":
            return False
        if len(hosts) != 1:
            self.refuse(400, "invalid_request", "The request must name one Host.")
            return True
        if not self.server.host_allowed(hosts[0]):
            self.refuse(421, "invalid_request", "This runtime does not answer for that Host.")
            return True
        return False

    def dev_refused(self, method: str) -> bool:
        """``/dev/*`` answers no page of another origin (403) and takes no body but JSON (415):
        a cross-site form or ``fetch`` without a preflight can send neither."""
        origins = self.headers.get_all("Origin") or []
        if origins and (len(origins) > 1 or not self.server.origin_allowed(origins[0])):
            self.refuse(403, "invalid_request", "Dev routes answer only this runtime's pages.")
            return True
        types = self.headers.get_all("Content-Type") or []
        media = types[0].split(";", 1)[0].strip().lower() if len(types) == 1 else ""
        # a request that sends nothing at all (`POST /dev/sweep` from a script): no body, no
        # type; a browser's cross-site one would carry an Origin, refused above
        bodiless = not types and self.headers.get("Content-Length", "0").strip() == "0"
        bodiless = bodiless and "Transfer-Encoding" not in self.headers
        if method not in SAFE_METHODS and media != "application/json" and not bodiless:
            self.refuse(
                415, "invalid_request", "Dev routes take only Content-Type application/json."
            )
            return True
        return False

    def handle_request(self) -> None:
        started = time.perf_counter()
        split = urlsplit(self.path)
        method = self.command  # case-sensitive (RFC 9110, 9.1): "get" is no GET
        if self.misdirected(split):
            return
        if split.path.startswith(DEV_PREFIX) and self.dev_refused(method):
            return
        hub = self.server.websockets
        if hub is not None and split.path == websocket.PATH and method == "GET":
            self.open_websocket(hub)
            return
        if hub is not None and split.path.startswith(websocket.MANAGEMENT_PREFIX):
            self.manage_connection(hub, method, split.path)
            return
        body = self.read_body()
        if body is None:
            return
        if method in ("GET", "HEAD") and static.is_static(split.path):
            self.web_file(split.path)
            return
        if split.path == DEV_TOKEN_PATH:
            self.dev_token(method, body)
            return
        if split.path == DEV_PUSHES_PATH:
            self.dev_pushes(method)
            return
        if split.path in (DEV_CLOCK_PATH, DEV_SWEEP_PATH):
            (self.dev_clock if split.path == DEV_CLOCK_PATH else self.dev_sweep)(method, body)
            return
        found = self.server.template.find_route(method, split.path)
        if found is None:
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=method,
                path=split.path[:200],
            )
            return
        route, params = found
        claims = None
        if route.auth:
            try:
                claims = tokens.as_gateway_claims(
                    tokens.verify(self.server.secret, self.headers.get("Authorization"))
                )
            except tokens.TokenError as err:
                self.fail(
                    401,
                    "unauthorized",
                    "A valid bearer token is required.",
                    {"WWW-Authenticate": 'Bearer realm="domino"'},
                    reason=str(err),
                )
                return
        headers: dict[str, str] = {}
        for key, value in self.headers.items():
            key = key.lower()
            headers[key] = f"{headers[key]},{value}" if key in headers else value
        event = http_event(
            method,
            self.path,
            route_key=route.route_key,
            path_parameters=params or None,
            headers=headers,
            body=body if body else None,
            claims=claims,
            source_ip=self.client_address[0],
        )
        try:
            result = self.server.containers.invoke(
                route.code_uri, route.handler, route.function, event
            )
        except InvocationFailed as err:  # what API Gateway answers when the integration fails
            sys.stderr.write(f"{route.function} failed:\n{err}\n")
            self.fail(500, "internal", "Internal server error.")
            return
        self.write_result(result)
        if not self.server.quiet:
            elapsed = (time.perf_counter() - started) * 1000
            sys.stderr.write(f"  -> {route.function} in {elapsed:.1f} ms\n")

    def write_result(self, result: Any) -> None:
        """Map a v2 handler result to HTTP, as API Gateway does (a bare value means 200 JSON)."""
        if not isinstance(result, dict) or "statusCode" not in result:
            self.send(200, json.dumps(result).encode())
            return
        headers = {k: str(v) for k, v in (result.get("headers") or {}).items()}
        for key, values in (result.get("multiValueHeaders") or {}).items():
            headers[key] = ",".join(str(v) for v in values)
        raw = result.get("body") or ""
        if result.get("isBase64Encoded"):
            import base64

            payload = base64.b64decode(raw)
        else:
            payload = raw.encode() if isinstance(raw, str) else json.dumps(raw).encode()
        self.send(int(result["statusCode"]), payload, headers, result.get("cookies"))

    def web_file(self, path: str) -> None:
        """``GET /`` and ``GET /web/...``: the web client's files (local/static.py); any other
        path under ``/web/`` is 404 ``not_found`` as an unknown route is."""
        found = static.answer(path, self.headers.get("If-None-Match"))
        if found is None:
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=self.command,
                path=path[:200],
            )
            return
        self.send(*found)

    def open_websocket(self, hub: WebSocketHub) -> None:
        """``GET /ws``: the handshake (http.server has read it: its bytes are handed on as
        received, with whatever the client sent after them) and then the connection, on this
        thread, until it closes; the socket is not used for HTTP again."""
        self.close_connection = True
        self.reader.deadline = None  # no read timeout from here on: the hub's limits hold
        lines = [self.raw_requestline]
        for key, value in self.headers.items():
            lines.append(f"{key}: {FOLDED.sub(' ', value)}\r\n".encode("latin-1"))
        hub.serve(
            b"".join(lines) + b"\r\n" + self.buffered(),
            self.connection,
            self.client_address[0],
            self.log_handshake,
        )

    def log_handshake(self, status: int) -> None:
        self.requestline = TOKEN_IN_QUERY.sub(r"\1...", self.requestline)
        self.log_request(status)

    def buffered(self) -> bytes:
        """What ``rfile`` read from the socket past the request (a client may send its first
        frames without waiting for the handshake's answer): never blocks."""
        self.connection.setblocking(False)
        try:
            return self.rfile.read1(65536) or b""
        except OSError:
            return b""
        finally:
            self.connection.setblocking(True)

    def manage_connection(self, hub: WebSocketHub, method: str, path: str) -> None:
        """``POST|GET|DELETE /ws/@connections/{id}``: API Gateway's management API, for the
        handlers on this machine only (boto3 signs its requests; the signature is not checked).
        """
        self.gateway_errors = True
        if not ipaddress.ip_address(self.client_address[0].removeprefix("::ffff:")).is_loopback:
            self.close_connection = True  # the body is left unread
            status, headers, body = gateway_error(403, "ForbiddenException", "Forbidden")
            self.send(status, body, headers)
            return
        data = self.read_body(websocket.MAX_MESSAGE_BYTES)
        if data is None:
            return
        connection_id = unquote(path.removeprefix(websocket.MANAGEMENT_PREFIX))
        status, headers, body = hub.manage(method, connection_id, data)
        self.send(status, body, headers)

    def dev_clock(self, method: str, body: bytes) -> None:
        """``GET /dev/clock``: the handlers' clock; ``POST {"advance": seconds}`` moves it on
        (turn deadlines are reached without waiting; it never goes back)."""
        clock = self.server.clock
        if clock is None or method not in ("GET", "POST"):
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=method,
                path=DEV_CLOCK_PATH,
            )
            return
        if method == "POST":
            try:
                request = json.loads(body or b"{}")
            except (ValueError, RecursionError):
                self.fail(400, "invalid_request", "The body is not valid JSON.")
                return
            advance = request.get("advance") if isinstance(request, dict) else None
            if (
                not isinstance(advance, int | float)
                or isinstance(advance, bool)
                or not 0 <= advance <= MAX_CLOCK_ADVANCE
            ):
                self.fail(
                    400,
                    "invalid_request",
                    "advance must be a number of seconds from 0 to {max}.",
                    max=MAX_CLOCK_ADVANCE,
                )
                return
            clock.advance(float(advance))
        self.send(200, json.dumps(clock.describe()).encode())

    def dev_pushes(self, method: str) -> None:
        """``GET /dev/pushes``: every push that would have reached a phone, oldest first."""
        if method != "GET" or self.server.sns is None:
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=method,
                path=DEV_PUSHES_PATH,
            )
            return
        self.send(200, json.dumps({"pushes": self.server.sns.pushes()}).encode())

    def dev_sweep(self, method: str, _body: bytes) -> None:
        """``POST /dev/sweep``: every scheduled function runs once, now (their results)."""
        if method != "POST":
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=method,
                path=DEV_SWEEP_PATH,
            )
            return
        results = {}
        for source in self.server.schedules:
            try:
                results[source.function] = run_now(source, self.server.run_schedule)
            except InvocationFailed as err:
                sys.stderr.write(f"{source.function} failed:\n{err}\n")
                self.fail(500, "internal", "Internal server error.", function=source.function)
                return
        self.send(200, json.dumps(results).encode())

    def dev_token(self, method: str, body: bytes) -> None:
        if method != "POST":
            self.fail(
                404,
                "not_found",
                "No route for {method} {path}.",
                method=method,
                path=DEV_TOKEN_PATH,
            )
            return
        try:
            request = json.loads(body or b"{}")
        except (ValueError, RecursionError):  # RecursionError: nested deeper than json can go
            self.fail(400, "invalid_request", "The body is not valid JSON.")
            return
        if not isinstance(request, dict):
            self.fail(400, "invalid_request", "The body must be a JSON object.")
            return
        try:
            token = tokens.issue(self.server.secret, request.get("player"), request.get("name"))
        except tokens.TokenRequestError as err:
            self.fail(400, "invalid_request", err.template, **err.params)
            return
        self.send(
            200,
            json.dumps(
                {"token": token, "player": request["player"], "expires_in": tokens.LIFETIME_SECONDS}
            ).encode(),
        )


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


def start_streams(
    template: Template,
    sources: list[StreamSource],
    endpoint: str,
    containers: Containers,
    stop: threading.Event,
    data_dir: Path | None = None,
) -> threading.Thread | None:
    """Feed the tables' streams to their functions (Lambda's event source mappings), each
    resuming where it stopped when the data is kept (``data_dir``)."""
    if not sources:
        return None

    def invoke(source: StreamSource, event: dict[str, Any]) -> Any:
        return containers.invoke(source.code_uri, source.handler, source.function, event)

    checkpoints = Checkpoints(data_dir / "streams") if data_dir is not None else None
    pump = StreamPump(
        endpoint, template, template.table_names(), invoke, sources=sources, checkpoints=checkpoints
    )
    thread = threading.Thread(target=pump.run, args=(stop,), name="streams", daemon=True)
    thread.start()
    mappings = ", ".join(f"{s.function} <- {s.table}" for s in sources)
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
            print(f"queues: {armed} turn timer(s) set again", file=sys.stderr, flush=True)

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
    try:
        database = shutdown.database = start_database(args.ddb_port, data_dir)
        ensure_tables(endpoint, template)
        clock = DevClock(local_dir() / "run" / f"clock-{args.port}")  # a fresh clock each run
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
        shutdown.serving = True
        if stop.is_set():  # a signal came as it started
            return 0
        # polled every 0.1 s: a stop waits no longer for the loop to end
        thread = threading.Thread(target=httpd.serve_forever, args=(0.1,), daemon=True)
        thread.start()
        kept = data_dir if database is None or database.kind == "dynamodb-local" else None
        streams = start_streams(template, sources, endpoint, containers, stop, kept)
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
        if sns is not None:
            sns.stop()
        if database is not None:
            database.stop(timeout=max(shutdown.left(ddb.STOP_SECONDS), 1.0))
        shutdown.done()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
