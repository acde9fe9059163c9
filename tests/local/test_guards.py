"""The local runtime and the pages a developer opens (docs/SECURITY.md, section 9): only the
runtime's own Host names are answered, ``/dev/*`` takes JSON from the runtime's own pages only,
and connections that send nothing, or stop halfway, are closed after a few seconds while an
upgraded WebSocket stays open.

In-process servers on free ports with stand-ins for the handlers (test_websocket.py's), with
the HTTP timeouts shortened so that these tests take seconds."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from local import tokens
from local.environment import DevClock
from local.runtime import LocalRuntime
from local.template import Template
from local.websocket import PATH

from .test_websocket import SECRET, WsFunction

EVIL = "https://evil.example"


class Runtime:
    def __init__(self, clock_file: Path, **options: Any) -> None:
        self.clock = DevClock(clock_file)
        self.function = WsFunction()
        self.httpd = LocalRuntime(
            ("127.0.0.1", 0),
            Template(),
            SECRET,
            self.function,  # type: ignore[arg-type]
            quiet=True,
            clock=self.clock,
            **options,
        )
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def exchange(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: bytes = b"",
        host: str | None = "",
    ) -> tuple[int, dict[str, Any]]:
        """One request on its own connection: ``host`` '' is the runtime's own, None none."""
        lines = [f"{method} {path} HTTP/1.1", "Connection: close"]
        if host is not None:
            lines.append(f"Host: {host or f'127.0.0.1:{self.port}'}")
        lines += [f"{key}: {value}" for key, value in (headers or {}).items()]
        lines.append(f"Content-Length: {len(body)}")
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
            answer = read_all(sock)
        head, _, raw = answer.partition(b"\r\n\r\n")
        return int(head.split()[1]), json.loads(raw) if raw else {}

    def close(self) -> None:
        self.httpd.shutdown()
        if self.httpd.websockets is not None:
            self.httpd.websockets.close_all()
        self.httpd.server_close()


def read_all(sock: socket.socket) -> bytes:
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    running = Runtime(tmp_path / "clock")
    try:
        yield running
    finally:
        running.close()


def assert_refused(answer: tuple[int, dict[str, Any]], status: int) -> None:
    got, body = answer
    assert got == status, body
    assert set(body["error"]) == {"code", "message", "params"}, body
    assert body["error"]["code"] == "invalid_request" and body["error"]["message"], body


# --------------------------------------------------------------- /dev/*: JSON, own pages


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/plain", "Origin": EVIL},  # what a cross-site fetch or form sends
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {"Content-Type": "application/jsonp"},
        {},
        {"Content-Type": "application/json", "Origin": EVIL},  # after a preflight
        {"Content-Type": "application/json", "Origin": "null"},  # a sandboxed page
        {"Content-Type": "application/json", "Origin": "http://127.0.0.1.evil.example"},
        {"Content-Type": "application/json", "Origin": "http://localhost:1"},
        {"Content-Type": "application/json", "Origin": "https://127.0.0.1:{port}"},
    ],
)
def test_a_cross_site_post_to_a_dev_route_is_refused_and_changes_nothing(
    runtime: Runtime, headers: dict[str, str]
) -> None:
    headers = {key: value.format(port=runtime.port) for key, value in headers.items()}
    status = 403 if "Origin" in headers else 415
    advance = json.dumps({"advance": 3600}).encode()
    assert_refused(runtime.exchange("POST", "/dev/clock", headers, advance), status)
    assert runtime.clock.offset() == 0
    if headers:  # (with neither a type nor a body, a sweep is a script's: see below)
        assert_refused(runtime.exchange("POST", "/dev/sweep", headers), status)
    player = json.dumps({"player": "mallory"}).encode()
    assert_refused(runtime.exchange("POST", "/dev/token", headers, player), status)
    if "Origin" in headers:  # a foreign page reads nothing either
        assert_refused(runtime.exchange("GET", "/dev/clock", headers), 403)
        assert_refused(runtime.exchange("OPTIONS", "/dev/token", headers), 403)


def test_a_request_with_neither_body_nor_type_is_a_scripts_and_answered(runtime: Runtime) -> None:
    """``POST /dev/sweep`` from a script (``requests.post(url)``) sends no body and no type: it
    carries nothing a page could forge, and a browser's would carry an Origin (refused)."""
    status, body = runtime.exchange("POST", "/dev/sweep", {})
    assert status == 200 and isinstance(body, dict), body  # what each schedule returned
    assert_refused(runtime.exchange("POST", "/dev/sweep", {"Content-Type": "text/plain"}), 415)
    assert_refused(runtime.exchange("POST", "/dev/sweep", {"Origin": EVIL}), 403)


@pytest.mark.parametrize(
    "origin", [None, "http://127.0.0.1:{port}", "http://localhost:{port}", "http://[::1]:{port}"]
)
def test_the_runtimes_own_pages_and_tools_use_the_dev_routes(
    runtime: Runtime, origin: str | None
) -> None:
    headers = {"Content-Type": "application/json; charset=utf-8"}
    if origin is not None:
        headers["Origin"] = origin.format(port=runtime.port)
    status, body = runtime.exchange("POST", "/dev/clock", headers, b'{"advance": 60}')
    assert (status, body["offset"]) == (200, 60), body
    status, body = runtime.exchange("POST", "/dev/token", headers, b'{"player": "alice"}')
    assert status == 200 and tokens.verify(SECRET, f"Bearer {body['token']}")["sub"] == "alice"
    own = {"Origin": headers["Origin"]} if origin is not None else {}
    assert runtime.exchange("GET", "/dev/clock", own)[0] == 200  # a GET needs no type
    assert runtime.exchange("GET", "/dev/clock")[0] == 200  # curl, a test: no type, no origin


# ------------------------------------------------------------------- Host: its own names


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",  # a DNS-rebinding page: its own name, our address and port
        "127.0.0.1.nip.io:{port}",
        "localhost.evil.example:{port}",
        "127.0.0.1:1",
        "localhost:{port}0",
        "192.168.1.7:{port}",
        "::1",
        "[::1",
        "localhost:",
        "localhost:+{port}",
        "",
        "localhost:{port}, evil.example",
    ],
)
def test_a_foreign_host_is_refused_before_anything_runs(runtime: Runtime, host: str) -> None:
    host = host.format(port=runtime.port)
    advance = json.dumps({"advance": 60}).encode()
    json_type = {"Content-Type": "application/json"}
    for method, path, body in (
        ("GET", "/health", b""),
        ("GET", "/me", b""),
        ("GET", "/dev/clock", b""),
        ("POST", "/dev/token", b'{"player": "mallory"}'),
        ("POST", "/dev/clock", advance),
    ):
        assert_refused(runtime.exchange(method, path, json_type, body, host=host or " "), 421)
    assert runtime.clock.offset() == 0
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    path = f"{PATH}?token={tokens.issue(SECRET, 'alice')}"
    assert_refused(runtime.exchange("GET", path, upgrade, host=host or " "), 421)
    assert runtime.function.events == []  # no $connect ran, no handler did


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "LocalHost", "127.0.0.1"]
)
def test_the_runtimes_own_host_names_are_answered(runtime: Runtime, host: str) -> None:
    status, body = runtime.exchange("GET", "/dev/clock", host=host.format(port=runtime.port))
    assert (status, body["offset"]) == (200, 0), body


def test_one_host_is_required(runtime: Runtime) -> None:
    assert_refused(runtime.exchange("GET", "/health", host=None), 400)
    two = {"Host": f"127.0.0.1:{runtime.port}"}
    assert_refused(runtime.exchange("GET", "/health", two), 400)
    absolute = f"http://evil.example:{runtime.port}/health"
    assert_refused(runtime.exchange("GET", absolute), 421)


# ---------------------------------------------------------- silent and slow connections


def answer_of(sock: socket.socket) -> tuple[int, dict[str, Any]]:
    """Read one answer (the server closes the connection after it)."""
    head, _, raw = read_all(sock).partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(raw)


def test_silent_or_slow_connections_are_closed_while_requests_still_work(
    tmp_path: Path,
) -> None:
    running = Runtime(tmp_path / "clock", idle_timeout=0.5, request_timeout=1.0)
    address = ("127.0.0.1", running.port)
    sockets: list[socket.socket] = []
    try:
        before = threading.active_count()
        silent = [socket.create_connection(address, timeout=5) for _ in range(60)]
        halfway = socket.create_connection(address, timeout=5)
        halfway.sendall(
            b"POST /dev/clock HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b"\r\nContent-Length: 15\r\n\r\n{"
        )
        dripping = socket.create_connection(address, timeout=5)
        kept = socket.create_connection(address, timeout=5)
        sockets += [*silent, halfway, dripping, kept]
        deadline = time.monotonic() + 3
        while threading.active_count() < before + 60 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert threading.active_count() >= before + 60  # each held a thread

        status, body = running.exchange("GET", "/dev/clock")  # meanwhile, answered
        assert (status, body["offset"]) == (200, 0)
        kept.sendall(b"GET /dev/clock HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while not answer.endswith(b"}"):  # the head, then the body: one JSON object
            answer += kept.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200") and b"Connection: close" not in answer

        def drip() -> None:  # never idle for long, never done: the request's deadline ends it
            with contextlib.suppress(OSError):
                for byte in b"GET /dev/clock HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1111111":
                    dripping.send(bytes([byte]))
                    time.sleep(0.1)

        threading.Thread(target=drip, daemon=True).start()
        started = time.monotonic()
        for sock in silent:
            assert sock.recv(1) == b""  # closed by the server: no answer to no request
        assert kept.recv(1) == b""  # kept alive, then idle: closed
        assert time.monotonic() - started < 2.0
        assert_refused(answer_of(halfway), 408)  # it had begun: told why
        assert_refused(answer_of(dripping), 408)
        assert time.monotonic() - started < 3.0
        assert running.clock.offset() == 0
        for sock in sockets:
            sock.close()
        deadline = time.monotonic() + 5
        while threading.active_count() > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert threading.active_count() <= before  # every thread given back
        assert running.exchange("GET", "/dev/clock")[0] == 200
    finally:
        for sock in sockets:
            sock.close()
        running.close()


def test_an_upgraded_websocket_outlives_the_http_timeouts(tmp_path: Path) -> None:
    running = Runtime(tmp_path / "clock", idle_timeout=0.3, request_timeout=0.5)
    try:
        url = f"ws://127.0.0.1:{running.port}{PATH}?token={tokens.issue(SECRET, 'alice')}"
        with connect(url, open_timeout=5, ping_interval=None) as ws:
            for _ in range(2):
                time.sleep(1.0)  # past both timeouts: the hub's idle limit (600 s) holds
                ws.send('{"action": "ping"}')
                assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
                assert ws.ping().wait(5)
        assert running.function.of_route("$disconnect") or running.function.wait_disconnects(1)
    finally:
        running.close()
