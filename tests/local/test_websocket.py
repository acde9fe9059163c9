"""The runtime's WebSocket API (local.websocket): the template's routes, route selection, the
events the functions get, the handshake's refusals, the management API as boto3 sees it, and
API Gateway's idle and 2-hour limits.

The server runs in-process with a stand-in for WsFunction (no DynamoDB, no worker processes);
tests/e2e/test_live.py drives the real functions on `python -m local`.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from local import tokens
from local.containers import InvocationFailed
from local.environment import local_environment
from local.runtime import LocalRuntime
from local.template import Template, WebSocketApi, WebSocketRoute, selection_path
from local.websocket import (
    MANAGEMENT_PREFIX,
    PATH,
    WebSocketHub,
    authorizer_context,
    iso,
    select_route,
)

SECRET = b"w" * 32
REPO = Path(__file__).resolve().parents[2]
EVENTS = REPO / "events"


class WsFunction:
    """Stands in for functions/ws: records every event; $connect answers ``connect`` (200
    unless a test changes it), ping answers pong, $default echoes the body."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.connect: dict[str, Any] | Exception = {"statusCode": 200}
        self.disconnected = threading.Event()
        self.lock = threading.Lock()

    def invoke(self, code_uri: Path, handler: str, function: str, event: dict[str, Any]) -> Any:
        assert (function, code_uri, handler) == (
            "WsFunction",
            REPO / "functions" / "ws",
            "app.handler",
        )
        with self.lock:
            self.events.append(event)
        route = event["requestContext"]["routeKey"]
        if route == "$connect":
            if isinstance(self.connect, Exception):
                raise self.connect
            return self.connect
        if route == "$disconnect":
            self.disconnected.set()
            return {"statusCode": 200}
        if route == "ping":
            return {"statusCode": 200, "body": json.dumps({"type": "pong"})}
        if event.get("body") == "boom":
            raise InvocationFailed("Traceback: boom")
        return {"statusCode": 200, "body": json.dumps({"echo": event.get("body")})}

    def of_route(self, route: str) -> list[dict[str, Any]]:
        with self.lock:
            return [e for e in self.events if e["requestContext"]["routeKey"] == route]

    def wait_disconnects(self, count: int, within: float = 5) -> list[dict[str, Any]]:
        deadline = time.monotonic() + within
        while len(found := self.of_route("$disconnect")) < count:
            assert time.monotonic() < deadline, f"{len(found)} $disconnect, not {count}"
            time.sleep(0.02)
        return found


class Server:
    def __init__(self, idle: float = 600, max_age: float = 7200, quiet: bool = True) -> None:
        self.function = WsFunction()
        self.httpd = LocalRuntime(
            ("127.0.0.1", 0),
            Template(),
            SECRET,
            self.function,  # type: ignore[arg-type]
            quiet=quiet,
            ws_idle_timeout=idle,
            ws_max_age=max_age,
        )
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.management = boto3.client(
            "apigatewaymanagementapi",
            endpoint_url=f"http://127.0.0.1:{self.port}{PATH}",
            config=Config(retries={"max_attempts": 1}),
        )

    @property
    def hub(self) -> WebSocketHub:
        assert self.httpd.websockets is not None
        return self.httpd.websockets

    def url(self, player: str | None = "alice", **claims: Any) -> str:
        if player is None:
            return f"ws://127.0.0.1:{self.port}{PATH}"
        token = tokens.issue(SECRET, player, claims.get("name"))
        return f"ws://127.0.0.1:{self.port}{PATH}?token={token}"

    def open(self, player: str = "alice", name: str | None = "Alice") -> ClientConnection:
        return connect(self.url(player, name=name), open_timeout=5, ping_interval=None)

    def connection_id(self) -> str:
        """The id of the last connection that reached $connect."""
        return str(self.function.of_route("$connect")[-1]["requestContext"]["connectionId"])

    def close(self) -> None:
        self.httpd.shutdown()
        self.hub.close_all()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    running = Server()
    try:
        yield running
    finally:
        running.close()


# --------------------------------------------------------------------- the template's API


def test_the_templates_websocket_api() -> None:
    api = Template().websocket_api
    assert api is not None
    assert (api.name, api.stage, api.selection_path) == ("WebSocketApi", "live", ("action",))
    assert api.identity_source == ("querystring", "token")
    assert set(api.routes) == {"$connect", "$disconnect", "ping", "$default"}
    for route in api.routes.values():
        assert (route.function, route.code_uri, route.handler) == (
            "WsFunction",
            REPO / "functions" / "ws",
            "app.handler",
        )
    assert {k for k, r in api.routes.items() if r.two_way} == {"ping", "$default"}
    assert {k for k, r in api.routes.items() if r.auth} == {"$connect"}


def test_a_template_without_a_websocket_api(tmp_path: Path) -> None:
    path = tmp_path / "template.yaml"
    path.write_text(
        "Resources:\n  Api:\n    Type: AWS::ApiGatewayV2::Api\n    Properties:\n"
        "      ProtocolType: HTTP\n"
    )
    assert Template(path).websocket_api is None


def test_routes_resolve_their_integration_to_a_function(tmp_path: Path) -> None:
    """``!Sub "integrations/${X}"`` -> the Integration; ``${Fn.Arn}`` or ``!GetAtt`` -> the
    function; a route whose integration is not a function of the template is left out."""
    (tmp_path / "template.yaml").write_text(
        """
Globals:
  Function:
    Handler: main.run
Resources:
  Live:
    Type: AWS::ApiGatewayV2::Api
    Properties: {ProtocolType: WEBSOCKET, RouteSelectionExpression: "${request.body.msg.kind}"}
  Stage:
    Type: AWS::ApiGatewayV2::Stage
    Properties: {ApiId: !Ref Live, StageName: prod}
  ByArn:
    Type: AWS::ApiGatewayV2::Integration
    Properties:
      ApiId: !Ref Live
      IntegrationUri: !Sub "arn:aws:apigateway:r:lambda:path/functions/${Fn.Arn}/invocations"
  ByGetAtt:
    Type: AWS::ApiGatewayV2::Integration
    Properties: {ApiId: !Ref Live, IntegrationUri: !GetAtt Other.Arn}
  Http:
    Type: AWS::ApiGatewayV2::Integration
    Properties: {ApiId: !Ref Live, IntegrationType: HTTP_PROXY, IntegrationUri: "https://x"}
  Hello:
    Type: AWS::ApiGatewayV2::Route
    Properties: {ApiId: !Ref Live, RouteKey: hello, Target: !Sub "integrations/${ByArn}"}
  HelloResponse:
    Type: AWS::ApiGatewayV2::RouteResponse
    Properties: {ApiId: !Ref Live, RouteId: !Ref Hello, RouteResponseKey: $default}
  Bye:
    Type: AWS::ApiGatewayV2::Route
    Properties: {ApiId: !Ref Live, RouteKey: bye, Target: !Sub "integrations/${ByGetAtt}"}
  Proxied:
    Type: AWS::ApiGatewayV2::Route
    Properties: {ApiId: !Ref Live, RouteKey: $default, Target: !Sub "integrations/${Http}"}
  Fn:
    Type: AWS::Serverless::Function
    Properties: {CodeUri: fn/}
  Other:
    Type: AWS::Serverless::Function
    Properties: {CodeUri: other/, Handler: app.handler}
"""
    )
    api = Template(tmp_path / "template.yaml").websocket_api
    assert api is not None
    assert (api.stage, api.selection_path, api.identity_source) == ("prod", ("msg", "kind"), None)
    assert api.routes == {
        "hello": WebSocketRoute("hello", "Fn", tmp_path / "fn", "main.run", True, False),
        "bye": WebSocketRoute("bye", "Other", tmp_path / "other", "app.handler", False, False),
    }


def test_selection_expressions() -> None:
    assert selection_path("$request.body.action") == ("action",)
    assert selection_path("${request.body.action}") == ("action",)
    assert selection_path("$request.body.a.b") == ("a", "b")
    for unsupported in ("$request.header.x", "action", ""):
        with pytest.raises(ValueError):
            selection_path(unsupported)


def route(key: str) -> WebSocketRoute:
    return WebSocketRoute(key, "F", Path("f"), "app.handler", False, False)


def test_route_selection() -> None:
    keys = ("$connect", "$disconnect", "$default", "ping")
    api = WebSocketApi("A", ("action",), "live", {k: route(k) for k in keys}, None)
    expected = {
        '{"action": "ping"}': "ping",
        '{"action": "ping", "more": [1]}': "ping",
        '{"action": "PING"}': "$default",  # route keys are case-sensitive
        '{"action": "$connect"}': "$default",  # never chosen by a message
        '{"action": "$disconnect"}': "$default",
        '{"action": 1}': "$default",
        '{"action": ["ping"]}': "$default",
        '{"other": "ping"}': "$default",
        '["ping"]': "$default",
        "ping": "$default",  # not JSON
        "{": "$default",
        "": "$default",
        None: "$default",  # a binary message
    }
    for body, key in expected.items():
        chosen = select_route(api, body)
        assert chosen is not None and chosen.route_key == key, body
    nested = WebSocketApi("A", ("msg", "kind"), "live", {"ping": route("ping")}, None)
    assert select_route(nested, '{"msg": {"kind": "ping"}}') == nested.routes["ping"]
    assert select_route(nested, '{"kind": "ping"}') is None  # no $default: nothing to run


def test_the_authorizer_context_from_the_claims() -> None:
    assert authorizer_context({"sub": "alice", "name": "Alice", "locale": "en-GB"}) == {
        "principalId": "alice",
        "sub": "alice",
        "name": "Alice",
        "locale": "en-GB",
    }
    assert authorizer_context({"sub": "bob", "preferred_username": "Bobby"})["name"] == "Bobby"
    assert authorizer_context({"sub": "cleo"}) == {
        "principalId": "cleo",
        "sub": "cleo",
        "name": "cleo",
    }


def test_the_handlers_environment_names_the_management_api() -> None:
    env = local_environment(Template(), "http://127.0.0.1:1", ws_endpoint="http://127.0.0.1:2/ws")
    assert env["WS_ENDPOINT"] == "http://127.0.0.1:2/ws"
    assert "WS_ENDPOINT" not in local_environment(Template(), "http://127.0.0.1:1")


# ----------------------------------------------------------------------------- handshakes


def refusal(url: str) -> tuple[int, dict[str, str], dict[str, Any]]:
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=5)
    response = refused.value.response
    return response.status_code, dict(response.headers.raw_items()), json.loads(response.body)


def test_a_missing_or_bad_token_is_401_before_any_function_runs(server: Server) -> None:
    base = server.url(None)
    expired = tokens.issue(SECRET, "alice", now=time.time() - 30 * 24 * 3600)
    other_key = tokens.issue(b"x" * 32, "alice")
    for url in (
        base,
        f"{base}?token=",
        f"{base}?token=abc",
        f"{base}?token={expired}",
        f"{base}?token={other_key}",
        f"{base}?tok={tokens.issue(SECRET, 'alice')}",
    ):
        status, headers, body = refusal(url)
        assert status == 401, url
        assert headers["Content-Type"] == "application/json"
        assert body["error"]["code"] == "unauthorized"
    assert server.function.events == []


def test_a_connect_answer_that_is_not_2xx_refuses_the_handshake(server: Server) -> None:
    server.function.connect = {"statusCode": 403, "body": "no"}
    status, _, body = refusal(server.url())
    assert (status, body["error"]["code"]) == (403, "invalid_request")
    server.function.connect = {"statusCode": 401, "body": json.dumps({"message": "Unauthorized"})}
    status, _, body = refusal(server.url())
    assert (status, body["error"]["code"]) == (401, "unauthorized")
    server.function.connect = {"statusCode": 499}
    status, _, body = refusal(server.url())
    assert (status, body["error"]["code"]) == (499, "invalid_request")
    server.function.connect = {"statusCode": "yes"}
    status, _, body = refusal(server.url())
    assert (status, body["error"]["code"]) == (502, "internal")
    server.function.connect = InvocationFailed("Traceback: it broke")
    status, _, body = refusal(server.url())
    assert (status, body["error"]["code"]) == (500, "internal")
    assert server.function.of_route("$disconnect") == []  # never connected
    assert len(server.hub) == 0


def test_a_plain_get_is_refused_in_the_contracts_shape(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 426 "), head
    assert b"\r\nUpgrade: websocket" in head
    assert json.loads(body)["error"]["code"] == "invalid_request"


def test_other_methods_on_the_path_are_unknown_routes(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(
            b"POST /ws HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
            b"Connection: close\r\n\r\n"
        )
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 404 ")


# ------------------------------------------------------------------ events and messages


def test_the_events_have_api_gateways_shape(server: Server) -> None:
    token = tokens.issue(SECRET, "alice", "Alice")
    with connect(f"{server.url(None)}?token={token}&x=1", user_agent_header="tester/1") as ws:
        ws.send(json.dumps({"action": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
    server.function.wait_disconnects(1)
    connect_event, ping, disconnect = server.function.events
    for event, sample in (
        (connect_event, "ws.json"),
        (ping, "ws.ping.json"),
        (disconnect, "ws.disconnect.json"),
    ):
        expected = json.loads((EVENTS / sample).read_text())
        assert set(event) == set(expected), sample
        assert set(expected["requestContext"]) <= set(event["requestContext"]), sample
        context = event["requestContext"]
        assert context["routeKey"] == expected["requestContext"]["routeKey"]
        assert context["eventType"] == expected["requestContext"]["eventType"]
        assert context["stage"] == "live"
        assert context["messageDirection"] == "IN"
        authorizer = dict(context["authorizer"])
        times = {claim: int(authorizer.pop(claim)) for claim in ("iat", "exp")}  # as wsauth's
        assert authorizer == {"principalId": "alice", "sub": "alice", "name": "Alice"}
        assert times["exp"] == times["iat"] + tokens.LIFETIME_SECONDS
        assert context["identity"] == {"sourceIp": "127.0.0.1", "userAgent": "tester/1"}
        assert context["domainName"] == f"127.0.0.1:{server.port}"
        assert event["isBase64Encoded"] is False
    assert connect_event["queryStringParameters"] == {"token": token, "x": "1"}
    assert ping["body"] == '{"action": "ping"}'
    ids = {e["requestContext"]["connectionId"] for e in server.function.events}
    connected_at = {e["requestContext"]["connectedAt"] for e in server.function.events}
    assert len(ids) == 1 and len(connected_at) == 1
    assert disconnect["requestContext"]["disconnectStatusCode"] == 1000


def test_messages_go_to_their_route_and_two_way_routes_answer(server: Server) -> None:
    with server.open() as ws:
        ws.send('{"action": "ping"}')
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
        ws.send('{"action": "chat", "text": "hi"}')
        assert json.loads(ws.recv(timeout=5)) == {"echo": '{"action": "chat", "text": "hi"}'}
        ws.send(b"\x00\xff")  # binary: no selection value, base64 to $default
        assert json.loads(ws.recv(timeout=5)) == {"echo": "AP8="}
        ws.send("boom")  # the function fails: API Gateway's message
        failed = json.loads(ws.recv(timeout=5))
        assert failed["message"] == "Internal server error"
        assert failed["connectionId"] == server.connection_id()
    binary = server.function.of_route("$default")[1]
    assert binary["isBase64Encoded"] is True


def test_a_fragmented_message_is_one_message(server: Server) -> None:
    with server.open() as ws:
        ws.send(iter(['{"action": ', '"ping"}']))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}


def test_a_message_over_128_kib_closes_the_connection(server: Server) -> None:
    with server.open() as ws:
        ws.send(json.dumps({"action": "ping", "pad": "x" * (128 * 1024)}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    server.function.wait_disconnects(1)


# ------------------------------------------------------------------- the management API


def test_post_sends_a_text_frame_and_get_describes_the_connection(server: Server) -> None:
    with server.open() as ws:
        connection_id = server.connection_id()
        assert "=" in connection_id or connection_id  # boto3 quotes it in the path
        server.management.post_to_connection(ConnectionId=connection_id, Data=b'{"n": 1}')
        server.management.post_to_connection(ConnectionId=connection_id, Data="ñ".encode())
        assert ws.recv(timeout=5) == '{"n": 1}'
        assert ws.recv(timeout=5) == "ñ"
        about = server.management.get_connection(ConnectionId=connection_id)
    assert isinstance(about["ConnectedAt"], datetime)
    assert about["LastActiveAt"] >= about["ConnectedAt"]
    assert about["Identity"]["SourceIp"] == "127.0.0.1"


def test_a_closed_or_unknown_connection_is_gone(server: Server) -> None:
    """410 with ``x-amzn-ErrorType: GoneException``: botocore raises the ClientError that
    domino.notify.websocket.ApiGatewayConnections turns into "gone"."""
    with server.open():
        connection_id = server.connection_id()
    server.function.wait_disconnects(1)
    client = server.management
    for target in (connection_id, "unknown="):
        for call, args in (
            (client.post_to_connection, {"ConnectionId": target, "Data": b"{}"}),
            (client.get_connection, {"ConnectionId": target}),
            (client.delete_connection, {"ConnectionId": target}),
        ):
            with pytest.raises(ClientError) as gone:
                call(**args)
            error = gone.value.response
            assert error["Error"]["Code"] == "GoneException"
            assert error["ResponseMetadata"]["HTTPStatusCode"] == 410
            assert error["Error"]["Message"]


def test_the_notifiers_code_path_sees_a_gone_connection() -> None:
    """The handlers' own client class, against the runtime's management API."""
    from domino.notify.websocket import ApiGatewayConnections

    running = Server()
    try:
        sockets = ApiGatewayConnections(f"http://127.0.0.1:{running.port}{PATH}")
        with running.open() as ws:
            assert sockets.post(running.connection_id(), b'{"type": "game_changed"}') is True
            assert json.loads(ws.recv(timeout=5)) == {"type": "game_changed"}
        running.function.wait_disconnects(1)
        assert sockets.post(running.connection_id(), b"{}") is False
    finally:
        running.close()


def test_delete_closes_the_connection_and_runs_disconnect(server: Server) -> None:
    with server.open() as ws:
        server.management.delete_connection(ConnectionId=server.connection_id())
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    (event,) = server.function.wait_disconnects(1)
    assert event["requestContext"]["disconnectStatusCode"] == 1001


def test_the_management_api_takes_no_token_but_only_loopback_callers(server: Server) -> None:
    """boto3 signs with SigV4 (not checked); a caller from another address is refused."""
    with server.open() as ws:
        path = f"{MANAGEMENT_PREFIX}{server.connection_id()}"
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n"
                "Connection: close\r\n\r\nhi".encode()
            )
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        assert ws.recv(timeout=5) == "hi"
    address = outside_address()
    if address is None:
        pytest.skip("no address other than loopback to call from")
    outside = LocalRuntime(("0.0.0.0", 0), Template(), SECRET, WsFunction(), quiet=True)  # type: ignore[arg-type]
    threading.Thread(target=outside.serve_forever, daemon=True).start()
    try:
        with socket.create_connection((address, outside.server_address[1]), timeout=5) as sock:
            sock.sendall(
                f"POST {MANAGEMENT_PREFIX}x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2"
                "\r\n\r\nhi".encode()
            )
            answer = sock.recv(65536)
    finally:
        outside.shutdown()
        outside.server_close()
    assert answer.startswith(b"HTTP/1.1 403 ")
    assert b"x-amzn-ErrorType: ForbiddenException" in answer


def outside_address() -> str | None:
    """An address of this machine that is not loopback, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks a route
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_iso_times() -> None:
    assert iso(1796040000123) == "2026-11-30T12:00:00.123Z"


# ------------------------------------------------------------------------- the limits


def test_an_idle_connection_is_closed_going_away() -> None:
    running = Server(idle=0.6)
    try:
        with running.open() as ws:
            for _ in range(4):  # messages keep it open past the idle limit
                time.sleep(0.3)
                ws.send('{"action": "ping"}')
                assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
            started = time.monotonic()
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            waited = time.monotonic() - started
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1001, "Going away")
        assert 0.3 < waited < 2.5
        (event,) = running.function.wait_disconnects(1)
        assert event["requestContext"]["disconnectStatusCode"] == 1001
    finally:
        running.close()


def test_posts_count_as_activity() -> None:
    running = Server(idle=0.6)
    try:
        with running.open() as ws:
            for n in range(4):
                time.sleep(0.3)
                running.management.post_to_connection(
                    ConnectionId=running.connection_id(), Data=str(n).encode()
                )
                assert ws.recv(timeout=5) == str(n)
        assert (
            running.function.wait_disconnects(1)[0]["requestContext"]["disconnectStatusCode"]
            == 1000
        )  # closed by the client, not by the idle limit
    finally:
        running.close()


def test_any_connection_is_closed_at_its_maximum_age() -> None:
    running = Server(max_age=1.0)
    try:
        with running.open() as ws:
            started = time.monotonic()
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.send('{"action": "ping"}')
                    ws.recv(timeout=5)
                    time.sleep(0.1)
            lasted = time.monotonic() - started
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert 0.8 < lasted < 3
        running.function.wait_disconnects(1)
        assert len(running.hub) == 0
    finally:
        running.close()


def test_stopping_the_runtime_closes_every_connection(server: Server) -> None:
    first, second = server.open("alice"), server.open("bob", "Bob")
    with first, second:
        assert len(server.hub) == 2
        server.hub.close_all()
        for ws in (first, second):
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
    events = server.function.wait_disconnects(2)
    assert {e["requestContext"]["authorizer"]["sub"] for e in events} == {"alice", "bob"}
    assert len(server.hub) == 0


def test_http_routes_still_answer_on_the_same_port(server: Server) -> None:
    with server.open(), socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert sock.recv(65536).startswith(b"HTTP/1.1 404 ")


def test_the_log_shows_connections_but_not_their_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    running = Server(quiet=False)
    try:
        url = running.url("alice")
        token = url.partition("token=")[2]
        with connect(url, open_timeout=5):
            connection_id = running.connection_id()
        running.function.wait_disconnects(1)
    finally:
        running.close()
    log = capsys.readouterr().err
    assert '"GET /ws?token=... HTTP/1.1" 101' in log
    assert f"ws {connection_id} connected (alice)" in log
    assert f"ws {connection_id} disconnected (1000)" in log
    assert token not in log
