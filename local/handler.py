"""The local runtime's HTTP request handler: one request, from its guards to its answer.

Each HTTP request becomes the API Gateway HTTP API v2 event Lambda would receive (with the JWT
claims the authorizer would add) and is handed to the function's handler in a container
(``local.containers``). The handler answers the errors API Gateway itself would answer, before
any function runs, in the contract's JSON shape: an unknown route or method (404
``not_found``), a bad token (401 ``unauthorized``), and what HTTP itself refuses (400, 408,
413, 414, 431: ``local.bodies``). Before all of it come the guards (``local.guards``); beside
the routes, the web client's files (``local.static``), the dev routes (``local.devroutes``),
and the WebSocket and its management API (``local.websocket``).
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import json
import re
import sys
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from domino.api.messages import negotiate
from domino.engine.errors import fill

from local import devroutes, guards, static, tokens, websocket
from local.bodies import WRITE_TIMEOUT_SECONDS, TimedReader, read_body
from local.containers import InvocationFailed
from local.invoke import http_event
from local.template import Route
from local.websocket import WebSocketHub, error_body, gateway_error

if TYPE_CHECKING:
    from local.runtime import LocalRuntime

#: what http.server refuses by itself (send_error), as the contract's error codes and messages
HTTP_ERRORS: dict[int, tuple[int, str, str]] = {
    400: (400, "invalid_request", "The request is malformed."),
    414: (414, "invalid_request", "The request line is too long."),
    431: (431, "invalid_request", "The request headers are too large."),
    505: (505, "invalid_request", "The HTTP version is not supported."),
}
#: the management API's refusals of a body, as API Gateway names them
GATEWAY_ERRORS = {413: "PayloadTooLargeException"}
FOLDED = re.compile(r"\r?\n[ \t]+")  # an obsolete folded header line (RFC 9112, 5.2)
TOKEN_IN_QUERY = re.compile(r"([?&]token=)[^&\s]+")  # a WebSocket's dev token, kept out of logs


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

    def no_route(self, method: str, path: str) -> None:
        """404 ``not_found``: what an unknown route or method answers."""
        self.fail(404, "not_found", "No route for {method} {path}.", method=method, path=path[:200])

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

    def handle_request(self) -> None:
        started = time.perf_counter()
        split = urlsplit(self.path)
        method = self.command  # case-sensitive (RFC 9110, 9.1): "get" is no GET
        names = self.server.names
        if guards.misdirected(names, self.headers, split, self.request_version, self.refuse):
            return
        if split.path.startswith(devroutes.PREFIX) and guards.dev_refused(
            names, self.headers, method, self.refuse
        ):
            return
        hub = self.server.websockets
        if hub is not None and split.path == websocket.PATH and method == "GET":
            self.open_websocket(hub)
            return
        if hub is not None and split.path.startswith(websocket.MANAGEMENT_PREFIX):
            self.manage_connection(hub, method, split.path)
            return
        body = read_body(self.rfile, self.headers, self.refuse)
        if body is None:
            return
        if method in ("GET", "HEAD") and static.is_static(split.path):
            self.web_file(split.path)
            return
        dev_route = devroutes.ROUTES.get(split.path)
        if dev_route is not None:
            dev_route(self, method, body)
            return
        found = self.server.template.find_route(method, split.path)
        if found is None:
            self.no_route(method, split.path)
            return
        route, params = found
        if self.run_route(route, params, method, body) and not self.server.quiet:
            elapsed = (time.perf_counter() - started) * 1000
            sys.stderr.write(f"  -> {route.function} in {elapsed:.1f} ms\n")

    def run_route(self, route: Route, params: dict[str, str], method: str, body: bytes) -> bool:
        """The route's function on the request's event (with the token's claims where the
        route is protected: 401 without them), its result answered; False if it never ran."""
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
                return False
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
            return False
        self.write_result(result)
        return True

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
            self.no_route(self.command, path)
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
        data = read_body(self.rfile, self.headers, self.refuse, websocket.MAX_MESSAGE_BYTES)
        if data is None:
            return
        connection_id = unquote(path.removeprefix(websocket.MANAGEMENT_PREFIX))
        status, headers, body = hub.manage(method, connection_id, data)
        self.send(status, body, headers)
