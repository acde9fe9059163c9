"""The template's WebSocket API on the local runtime: ``ws://127.0.0.1:PORT/ws`` and its
management API (``http://127.0.0.1:PORT/ws/@connections/{id}``), on the HTTP API's own port.

What API Gateway does for a WebSocket API, done here for the sockets ``local.runtime`` accepts
(the handshake and the frames go through websockets' sans-I/O ``ServerProtocol``):

- **$connect**: the API's authorizer (a REQUEST authorizer whose identity source is
  ``route.request.querystring.token``) is played by the runtime itself, which verifies the dev
  token (``local.tokens``) and builds the authorizer's context from its claims; a missing or bad
  token is refused with 401 before any function runs. Then the $connect route's function runs,
  and an answer whose ``statusCode`` is not 2xx refuses the handshake with that status. Refusals
  are in the contract's error shape ``{"error": {"code", "message"}}``.
- **Messages**: the route is chosen by the API's ``RouteSelectionExpression``
  (``$request.body.action``): a JSON body whose value there names a route goes to it, any other
  message to ``$default`` (if the API has none: an error message back, as API Gateway sends).
  A route with a RouteResponse sends the function's returned ``body`` back as a text frame.
- **$disconnect** runs once the connection is closed, by either side, or by the limits: API
  Gateway closes a connection idle for ``IDLE_TIMEOUT_SECONDS`` (no message either way) and
  any connection after ``MAX_CONNECTION_SECONDS``, with 1001 "Going away".
- **The management API** the notifier posts through (boto3's ``apigatewaymanagementapi`` with
  ``endpoint_url`` = ``WS_ENDPOINT``): ``POST`` sends the body as a text frame, ``DELETE``
  closes the connection, ``GET`` describes it; an unknown or closed connection is 410
  ``GoneException``, in API Gateway's error shape (``x-amzn-ErrorType`` and
  ``{"message": ...}``), which botocore turns into the ``ClientError`` the handlers expect.

Every event carries the authorizer's context, as API Gateway's do; each function runs in the
runtime's containers, like the HTTP routes' (``Containers.invoke``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import select
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlsplit

from domino.api.messages import translator
from domino.engine.errors import fill
from domino.limits import MAX_LOCALE, MAX_NAME
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from local import tokens
from local.containers import InvocationFailed
from local.template import WebSocketApi, WebSocketRoute

#: where clients connect; the management API is under it, as a deployed stage's is under
#: ``https://{api}.execute-api.{region}.amazonaws.com/{stage}``
PATH = "/ws"
MANAGEMENT_PREFIX = PATH + "/@connections/"
#: API Gateway's limits (configurable per hub): idle connections close after 10 minutes,
#: every connection after 2 hours
IDLE_TIMEOUT_SECONDS = 600.0
MAX_CONNECTION_SECONDS = 2 * 3600.0
#: API Gateway's sizes: 128 KB a message, 32 KB a frame
MAX_MESSAGE_BYTES = 128 * 1024
MAX_FRAME_BYTES = 32 * 1024
#: how long a closing connection waits for the client's close frame, and a send for the client
CLOSE_TIMEOUT_SECONDS = 2.0
SEND_TIMEOUT_SECONDS = 10.0
#: the longest a connection's thread sleeps before it looks at its deadlines again
POLL_SECONDS = 1.0
GOING_AWAY = 1001
POLICY_VIOLATION = 1008  # the token the socket was opened with has expired
NO_STATUS, ABNORMAL = 1005, 1006


class Invoker(Protocol):
    """What runs a function: the runtime's ``Containers`` (or a test's stand-in)."""

    def invoke(self, code_uri: Path, handler: str, function: str, event: dict[str, Any]) -> Any:
        """The function's result; raises ``InvocationFailed``."""


def error_body(
    code: str, message: str, params: dict[str, Any] | None = None, language: str = "en"
) -> bytes:
    """The contract's error shape (docs/api.md#errors): ``message`` an English template, said in
    ``language`` when api/messages.py translates it, filled in from ``params``."""
    params = params or {}
    said = fill(translator(language)(message), params)
    return json.dumps({"error": {"code": code, "message": said, "params": params}}).encode()


def gateway_error(status: int, kind: str, message: str) -> tuple[int, dict[str, str], bytes]:
    """An answer of API Gateway's management API: botocore reads the error code from
    ``x-amzn-ErrorType`` and the message from the body."""
    return status, {"x-amzn-ErrorType": kind}, json.dumps({"message": message}).encode()


def authorizer_context(claims: dict[str, Any]) -> dict[str, str]:
    """What the deployed authorizer (functions/wsauth) puts in ``requestContext.authorizer``
    for these claims: the principal, ``sub``, a display name and the ``locale`` if any."""
    subject = str(claims["sub"])
    name = claims.get("name") or claims.get("preferred_username") or subject
    context = {"principalId": subject, "sub": subject, "name": str(name)[:MAX_NAME]}
    for claim in ("iat", "exp"):  # as functions/wsauth passes them on
        if isinstance(claims.get(claim), int) and not isinstance(claims[claim], bool):
            context[claim] = str(claims[claim])
    locale = claims.get("locale")
    if isinstance(locale, str) and locale:
        context["locale"] = locale[:MAX_LOCALE]
    return context


def select_route(api: WebSocketApi, body: str | None) -> WebSocketRoute | None:
    """The route of a message (``RouteSelectionExpression``): the value at the API's selection
    path in a JSON body, if it names one of its routes (not $connect, $disconnect or $default),
    else ``$default``, else None (binary messages have no selection value)."""
    value: Any = None
    if body is not None:
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            value = None
        for key in api.selection_path:
            value = value.get(key) if isinstance(value, dict) else None
    if isinstance(value, str) and not value.startswith("$") and value in api.routes:
        return api.routes[value]
    return api.routes.get("$default")


def expires_in(authorizer: dict[str, str] | None) -> float | None:
    """Seconds until the connection's token is refused (its ``exp`` and the leeway tokens are
    given, as HTTP refuses it); None without one."""
    exp = (authorizer or {}).get("exp")
    if exp is None or not exp.isdigit():
        return None
    return int(exp) + tokens.LEEWAY_SECONDS - time.time()


def new_connection_id() -> str:
    """An id like API Gateway's (``L0SM9cOFvHcCIhw=``): 11 random bytes in base64."""
    return base64.b64encode(secrets.token_bytes(11)).decode().replace("+", "-").replace("/", "_")


def iso(ms: int) -> str:
    """Epoch milliseconds as the management API writes times (``2026-11-30T12:00:00.000Z``)."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def now_ms() -> int:
    return int(time.time() * 1000)


class Peer:
    """What every event of a connection repeats from its handshake."""

    def __init__(
        self,
        connection_id: str,
        headers: dict[str, str],
        source_ip: str,
        authorizer: dict[str, str] | None,
    ) -> None:
        self.connection_id = connection_id
        self.headers = headers
        self.source_ip = source_ip
        self.authorizer = authorizer
        self.connected_at = now_ms()

    @property
    def user_agent(self) -> str:
        return next((v for k, v in self.headers.items() if k.lower() == "user-agent"), "")


def ws_event(
    api: WebSocketApi,
    peer: Peer,
    route_key: str,
    event_type: str,
    *,
    body: str | None = None,
    is_base64: bool = False,
    query: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The event API Gateway hands a WebSocket route's Lambda proxy integration (events/ws*.json
    are such events): ``queryStringParameters`` at $connect only, ``body`` for messages only."""
    now = datetime.now(UTC)
    request_id = str(uuid.uuid4())
    host = next((v for k, v in peer.headers.items() if k.lower() == "host"), "127.0.0.1")
    context: dict[str, Any] = {
        "routeKey": route_key,
        "eventType": event_type,
        "extendedRequestId": request_id,
        "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
        "messageDirection": "IN",
        "stage": api.stage,
        "connectedAt": peer.connected_at,
        "requestTimeEpoch": int(now.timestamp() * 1000),
        "identity": {"sourceIp": peer.source_ip, "userAgent": peer.user_agent},
        "requestId": request_id,
        "domainName": host,
        "connectionId": peer.connection_id,
        "apiId": "local",
        **(extra or {}),
    }
    if peer.authorizer is not None:
        context["authorizer"] = dict(peer.authorizer)
    event: dict[str, Any] = {
        "headers": dict(peer.headers),
        "isBase64Encoded": is_base64,
        "requestContext": context,
    }
    if query is not None:
        event["queryStringParameters"] = query
    if body is not None:
        event["body"] = body
    return event


def _status_code(result: Any) -> int:
    """An integration's status, as API Gateway reads a Lambda proxy answer (a bare value: 200)."""
    if isinstance(result, dict) and "statusCode" in result:
        try:
            return int(result["statusCode"])
        except (TypeError, ValueError):
            return 502
    return 200


def _refusal_code(status: int) -> str:
    if status == 401:
        return "unauthorized"
    if status == 429:
        return "throttled"
    if status == 410:
        return "gone"
    if status == 503:
        return "unavailable"
    return "internal" if status >= 500 else "invalid_request"


class Connection:
    """One open WebSocket: its protocol state and socket, shared by the thread that reads it
    and the management API's threads that write to it (one lock for both)."""

    def __init__(
        self,
        peer: Peer,
        sock: socket.socket,
        protocol: ServerProtocol,
        expires_in: float | None = None,
    ) -> None:
        self.peer = peer
        self.id = peer.connection_id
        self.sock = sock
        self.protocol = protocol
        self.lock = threading.Lock()
        self.opened = time.monotonic()
        self.last_active = self.opened  # monotonic: the idle limit's clock
        self.last_active_ms = peer.connected_at  # what GET @connections reports
        self.close_deadline: float | None = None  # set once the server sent its close frame
        self.done = threading.Event()  # the connection's thread has finished ($disconnect ran)
        #: monotonic: when the token stops being valid (HTTP refuses it), the socket closes
        self.expires_at = None if expires_in is None else self.opened + expires_in

    def touch(self) -> None:
        """A message went either way: the idle limit starts over."""
        self.last_active = time.monotonic()
        self.last_active_ms = now_ms()

    def flush(self) -> None:
        """Write what the protocol has to send (the lock held); an empty chunk is its EOF."""
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.sock.sendall(chunk)
            else:
                with contextlib.suppress(OSError):
                    self.sock.shutdown(socket.SHUT_WR)

    def send(self, data: bytes) -> bool:
        """A message to the client (a text frame; binary if ``data`` is not UTF-8); False once
        the connection is closing or its socket failed."""
        with self.lock:
            if self.protocol.state is not State.OPEN or self.close_deadline is not None:
                return False
            try:
                data.decode("utf-8")
                self.protocol.send_text(data)
            except UnicodeDecodeError:
                self.protocol.send_binary(data)
            try:
                self.flush()
            except OSError:
                self.abort()
                return False
        self.touch()
        return True

    def close(self, code: int = GOING_AWAY, reason: str = "Going away") -> None:
        """Start the closing handshake; the connection's thread waits for the client's close
        frame up to ``CLOSE_TIMEOUT_SECONDS``, then ends the connection."""
        with self.lock:
            if self.protocol.state is not State.OPEN or self.close_deadline is not None:
                return
            self.close_deadline = time.monotonic() + CLOSE_TIMEOUT_SECONDS
            self.protocol.send_close(code, reason)
            try:
                self.flush()
            except OSError:
                self.abort()

    def abort(self) -> None:
        """The socket failed: wake the connection's thread, which ends the connection."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)

    def close_status(self) -> tuple[int, str]:
        """The close code and reason $disconnect is told (1006: closed without a close frame)."""
        close = self.protocol.close_rcvd or self.protocol.close_sent
        if close is None:
            return ABNORMAL, ""
        return int(close.code), close.reason


class WebSocketHub:
    """The open connections of one WebSocket API, and what API Gateway does with them."""

    def __init__(
        self,
        api: WebSocketApi,
        secret: bytes,
        invoker: Invoker,
        *,
        idle_timeout: float = IDLE_TIMEOUT_SECONDS,
        max_age: float = MAX_CONNECTION_SECONDS,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.api = api
        self.secret = secret
        self.invoker = invoker
        self.idle_timeout = idle_timeout
        self.max_age = max_age
        self.log = log or (lambda line: None)
        self._lock = threading.Lock()
        self._connections: dict[str, Connection] = {}
        #: connections whose $connect runs: the management API answers them 410, as API
        #: Gateway does, but a DELETE meanwhile dooms the handshake (set: it came)
        self._opening: dict[str, threading.Event] = {}

    # ------------------------------------------------------------------------- the sockets

    def serve(
        self,
        request: bytes,
        sock: socket.socket,
        source_ip: str,
        on_status: Callable[[int], None] | None = None,
    ) -> None:
        """Handle a WebSocket handshake (``request``: its bytes as received, and whatever the
        client sent after them) on ``sock`` and, once accepted, the connection until it closes.
        Runs on the thread of the HTTP server that accepted the socket."""
        protocol = ServerProtocol(max_size=(MAX_MESSAGE_BYTES, MAX_FRAME_BYTES))
        protocol.receive_data(request)
        events = protocol.events_received()
        if not events or not isinstance(events[0], Request):  # websockets refused it already
            self._write(sock, protocol)
            return
        handshake, early = events[0], events[1:]
        response = protocol.accept(handshake)
        if response.status_code != HTTPStatus.SWITCHING_PROTOCOLS:
            text = bytes(response.body).decode("utf-8", "replace").strip()
            self._refuse(sock, protocol, response, response.status_code, "invalid_request", text)
            self._status(on_status, response.status_code)
            return
        headers = dict(handshake.headers.raw_items())
        query = dict(parse_qsl(urlsplit(handshake.path).query, keep_blank_values=True))
        connect = self.api.routes.get("$connect")
        authorizer: dict[str, str] | None = None
        if connect is not None and connect.auth:
            try:
                authorizer = authorizer_context(self._verify(headers, query))
            except tokens.TokenError as err:
                self._refuse(sock, protocol, response, 401, "unauthorized", f"Unauthorized: {err}.")
                self._status(on_status, 401)
                return
        peer = Peer(new_connection_id(), headers, source_ip, authorizer)
        doomed = threading.Event()
        with self._lock:
            self._opening[peer.connection_id] = doomed
        try:
            if connect is not None:
                event = ws_event(self.api, peer, "$connect", "CONNECT", query=query)
                try:
                    result = self._invoke(connect, event)
                except InvocationFailed:
                    self._refuse(
                        sock, protocol, response, 500, "internal", "Internal server error."
                    )
                    self._status(on_status, 500)
                    return
                status = _status_code(result)
                if not 100 <= status <= 599:  # no HTTP status: what API Gateway makes of it
                    status = 502
                if not 200 <= status < 300:
                    message = f"The connection was refused ({status})."
                    self._refuse(sock, protocol, response, status, _refusal_code(status), message)
                    self._status(on_status, status)
                    return
            connection = Connection(peer, sock, protocol, expires_in(authorizer))
            sock.settimeout(SEND_TIMEOUT_SECONDS)
            with connection.lock:  # a post waits until the client has been sent the 101
                with self._lock:
                    del self._opening[peer.connection_id]
                    if not doomed.is_set():
                        self._connections[peer.connection_id] = connection
                if not doomed.is_set():
                    protocol.send_response(response)
                    try:
                        connection.flush()
                    except OSError:
                        connection.abort()
        finally:
            with self._lock:
                self._opening.pop(peer.connection_id, None)
        if doomed.is_set():  # closed (evicted, the account deleted) while its $connect ran
            self.log(f"ws {peer.connection_id} closed while connecting")
            message = "The connection was closed while it connected."
            self._refuse(sock, protocol, response, 410, "gone", message)
            self._status(on_status, 410)
            self._disconnect(connection)  # whatever its $connect recorded goes
            return
        self._status(on_status, 101)
        who = authorizer["sub"] if authorizer else "anonymous"
        self.log(f"ws {peer.connection_id} connected ({who})")
        try:
            self._run(connection, early)
        finally:
            self._forget(connection)
            self._disconnect(connection)
            connection.done.set()

    def _verify(self, headers: dict[str, str], query: dict[str, str]) -> dict[str, Any]:
        """The dev token where the API's authorizer looks for its identity (``?token=``)."""
        kind, name = self.api.identity_source or ("querystring", "token")
        if kind == "header":
            value = next((v for k, v in headers.items() if k.lower() == name.lower()), None)
            if name.lower() == "authorization":
                return tokens.verify(self.secret, value)
        else:
            value = query.get(name)
        if not value:
            raise tokens.TokenError(f"missing {name}")
        return tokens.verify_token(self.secret, value)

    @staticmethod
    def _status(on_status: Callable[[int], None] | None, status: int) -> None:
        if on_status is not None:
            on_status(status)

    @staticmethod
    def _write(sock: socket.socket, protocol: ServerProtocol) -> None:
        for chunk in protocol.data_to_send():
            with contextlib.suppress(OSError):
                if chunk:
                    sock.sendall(chunk)
                else:
                    sock.shutdown(socket.SHUT_WR)

    def _refuse(
        self,
        sock: socket.socket,
        protocol: ServerProtocol,
        response: Response,
        status: int,
        code: str,
        message: str,
    ) -> None:
        """Refuse the handshake with ``status``, in the contract's error shape (any header the
        protocol put on its own refusal, such as 426's ``Upgrade``, is kept)."""
        if response.status_code == HTTPStatus.SWITCHING_PROTOCOLS:
            response = protocol.reject(HTTPStatus.BAD_REQUEST, "")  # its status is set below
        body = error_body(code, message)
        response.status_code = status
        response.reason_phrase = _phrase(status)
        response.body = body
        for name in ("Content-Type", "Content-Length", "Connection"):
            if name in response.headers:
                del response.headers[name]
        if status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="domino"'
        response.headers["Content-Type"] = "application/json"
        response.headers["Content-Length"] = str(len(body))
        response.headers["Connection"] = "close"
        protocol.send_response(response)
        self._write(sock, protocol)

    def _run(self, connection: Connection, early: list[Any]) -> None:
        """Read the connection until it closes: messages to their routes, and the limits."""
        sock, protocol = connection.sock, connection.protocol
        pending: list[Frame] = [frame for frame in early if isinstance(frame, Frame)]
        fragments: list[bytes] = []
        opcode: Opcode | None = None
        while True:
            for frame in pending:
                if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                    opcode, fragments = frame.opcode, []
                if frame.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT) and opcode is not None:
                    fragments.append(bytes(frame.data))
                    if frame.fin:
                        self._message(connection, b"".join(fragments), opcode is Opcode.TEXT)
                        opcode, fragments = None, []
            pending = []
            if protocol.eof_sent or protocol.state is State.CLOSED:
                return  # closed: the server half-closed the TCP connection, as RFC 6455 says
            now = time.monotonic()
            if connection.close_deadline is not None:
                if now >= connection.close_deadline:
                    return  # the client never answered our close frame
                deadline = connection.close_deadline
            else:
                idle_at = connection.last_active + self.idle_timeout
                end_at = connection.opened + self.max_age
                if connection.expires_at is not None and now >= connection.expires_at:
                    self.log(f"ws {connection.id} token expired")
                    self._forget(connection)
                    connection.close(POLICY_VIOLATION, "Token expired")
                    continue
                if connection.expires_at is not None:
                    end_at = min(end_at, connection.expires_at)
                if now >= idle_at or now >= end_at:
                    self.log(f"ws {connection.id} {'idle' if now >= idle_at else 'too old'}")
                    self._forget(connection)
                    connection.close(GOING_AWAY, "Going away")
                    continue
                deadline = min(idle_at, end_at)
            try:
                readable, _, _ = select.select([sock], [], [], min(deadline - now, POLL_SECONDS))
                if not readable:
                    continue
                data = sock.recv(65536)
            except (OSError, ValueError):  # ValueError: the socket was closed meanwhile
                return
            with connection.lock:
                if data:
                    protocol.receive_data(data)
                else:
                    protocol.receive_eof()
                pending = [e for e in protocol.events_received() if isinstance(e, Frame)]
                try:
                    connection.flush()
                except OSError:
                    return
            if not data:
                return

    def _message(self, connection: Connection, data: bytes, text: bool) -> None:
        """One message from the client, to its route's function; a two-way route's answer back."""
        connection.touch()
        body: str | None
        if text:
            try:
                body = data.decode("utf-8")
            except UnicodeDecodeError:
                with connection.lock:
                    connection.protocol.fail(1007, "invalid UTF-8")
                    with contextlib.suppress(OSError):
                        connection.flush()
                return
        else:
            body = None
        route = select_route(self.api, body)
        request_id = str(uuid.uuid4())
        if route is None:  # no route and no $default: API Gateway answers so
            answer = {
                "message": "Forbidden",
                "connectionId": connection.id,
                "requestId": request_id,
            }
            connection.send(json.dumps(answer).encode())
            return
        payload, is_base64 = (body, False) if body is not None else (base64.b64encode(data), True)
        event = ws_event(
            self.api,
            connection.peer,
            route.route_key,
            "MESSAGE",
            body=payload if isinstance(payload, str) else payload.decode(),
            is_base64=is_base64,
            extra={"messageId": request_id},
        )
        try:
            result = self._invoke(route, event)
        except InvocationFailed:
            answer = {
                "message": "Internal server error",
                "connectionId": connection.id,
                "requestId": request_id,
            }
            connection.send(json.dumps(answer).encode())
            return
        if route.two_way and isinstance(result, dict) and result.get("body") is not None:
            reply = result["body"]
            if result.get("isBase64Encoded") and isinstance(reply, str):
                connection.send(base64.b64decode(reply))
            else:
                connection.send((reply if isinstance(reply, str) else json.dumps(reply)).encode())

    def _disconnect(self, connection: Connection) -> None:
        code, reason = connection.close_status()
        self.log(f"ws {connection.id} disconnected ({code})")
        route = self.api.routes.get("$disconnect")
        if route is None:
            return
        event = ws_event(
            self.api,
            connection.peer,
            "$disconnect",
            "DISCONNECT",
            extra={"disconnectStatusCode": code, "disconnectReason": reason},
        )
        try:
            self._invoke(route, event)
        except InvocationFailed as err:
            sys.stderr.write(f"{route.function} ($disconnect) failed:\n{err}\n")

    def _invoke(self, route: WebSocketRoute, event: dict[str, Any]) -> Any:
        try:
            return self.invoker.invoke(route.code_uri, route.handler, route.function, event)
        except InvocationFailed as err:
            sys.stderr.write(f"{route.function} ({route.route_key}) failed:\n{err}\n")
            raise

    def _forget(self, connection: Connection) -> None:
        """From now on the management API answers 410 for it."""
        with self._lock:
            if self._connections.get(connection.id) is connection:
                del self._connections[connection.id]

    def get(self, connection_id: str) -> Connection | None:
        with self._lock:
            return self._connections.get(connection_id)

    def __len__(self) -> int:
        with self._lock:
            return len(self._connections)

    def close_all(self, wait: float = CLOSE_TIMEOUT_SECONDS + 3) -> None:
        """The runtime stops: every connection is closed (1001) and its $disconnect runs."""
        with self._lock:
            connections = list(self._connections.values())
        for connection in connections:
            connection.close(GOING_AWAY, "Going away")
        deadline = time.monotonic() + wait
        for connection in connections:
            connection.done.wait(max(0.0, deadline - time.monotonic()))

    # -------------------------------------------------------------- the management API

    def manage(
        self, method: str, connection_id: str, body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        """``POST|GET|DELETE @connections/{id}``: status, headers and body, as API Gateway's
        management API answers them."""
        if method not in ("POST", "GET", "DELETE") or not connection_id:
            return gateway_error(404, "NotFoundException", "Not Found")
        connection = self.get(connection_id)
        if connection is None:
            with self._lock:
                opening = self._opening.get(connection_id)
            if method == "DELETE" and opening is not None:
                opening.set()  # its handshake is refused once its $connect answers
                return 204, {}, b""
            return gateway_error(410, "GoneException", f"Connection {connection_id} is gone.")
        if method == "POST":
            if not connection.send(body):
                return gateway_error(410, "GoneException", f"Connection {connection_id} is gone.")
            return 200, {}, b""
        if method == "DELETE":
            self._forget(connection)
            connection.close(GOING_AWAY, "Going away")
            return 204, {}, b""
        about = {
            "connectedAt": iso(connection.peer.connected_at),
            "lastActiveAt": iso(connection.last_active_ms),
            "identity": {
                "sourceIp": connection.peer.source_ip,
                "userAgent": connection.peer.user_agent,
            },
        }
        return 200, {"Content-Type": "application/json"}, json.dumps(about).encode()


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Refused"
