"""The runtime's own answers, before any handler runs: every refusal in the contract's JSON
shape ``{"error": {"code": ..., "message": ...}}``, never an HTML page or a dropped connection.

The server runs in-process with a stand-in for the handler containers, so these tests need
neither DynamoDB nor worker processes; tests/e2e/test_runtime.py drives the real `make run`.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from local import tokens
from local.bodies import MAX_BODY
from local.runtime import LocalRuntime
from local.template import Template

from .test_tokens import b64, claims, sign

SECRET = b"k" * 32


class Handlers:
    """Stands in for the containers: answers 200 with the claims the handler would get."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def invoke(self, code_uri: Path, handler: str, function: str, event: dict[str, Any]) -> Any:
        self.events.append(event)
        authorizer = event["requestContext"].get("authorizer") or {}
        return {
            "statusCode": 200,
            "headers": {"Content-Type": "application/json"},
            "body": json.dumps({"function": function, "claims": authorizer.get("jwt", {})}),
        }


class Server:
    def __init__(self) -> None:
        self.handlers = Handlers()
        self.httpd = LocalRuntime(
            ("127.0.0.1", 0),
            Template(),
            SECRET,
            self.handlers,  # type: ignore[arg-type]
            quiet=True,
        )
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def raw(self, data: bytes, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
        """Send ``data`` as is and read the answer until the server closes the connection."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            # the server may answer and close before it read all of a refused request
            with contextlib.suppress(OSError):
                sock.sendall(data)
                sock.shutdown(socket.SHUT_WR)  # all sent: a body cut short ends here
            answer = b""
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    chunk = sock.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        assert lines[0].startswith("HTTP/1."), answer[:200]
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        return int(lines[0].split()[1]), headers, body

    def request(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        headers = {"Content-Type": "application/json", **(headers or {})}
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in headers.items() if v is not None]
        if (body or method == "POST") and "Content-Length" not in (headers or {}):
            lines.append(f"Content-Length: {len(body)}")
        status, got, raw = self.raw("\r\n".join(lines).encode() + b"\r\n\r\n" + body)
        return status, got, json.loads(raw) if raw else None

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def assert_error(answer: tuple[int, dict[str, str], Any], status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status, body
    assert headers["Content-Type"] == "application/json"
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "params"}
    assert body["error"]["code"] == code and isinstance(body["error"]["params"], dict)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


# ------------------------------------------------------------------------ the token check


def test_a_valid_token_reaches_the_handler_as_gateway_claims(server: Server) -> None:
    token = tokens.issue(SECRET, "alice", "Alice")
    status, _, body = server.request("GET", "/me", headers={"Authorization": f"Bearer {token}"})
    assert status == 200
    assert body["claims"]["claims"]["sub"] == "alice"
    assert body["claims"]["claims"]["iat"].isdigit()  # strings, as API Gateway hands them


def bad_tokens() -> dict[str, str | None]:
    now = int(time.time())
    token = tokens.issue(SECRET, "alice")
    head, _, signature = token.rpartition(".")
    header, _, _ = head.partition(".")
    return {
        "missing": None,
        "expired": sign(claims(exp=now - 3600, iat=now - 7200)),
        "exp null": sign(claims(exp=None)),
        "exp string": sign(claims(exp=str(now + 3600))),
        "exp a list": sign(claims(exp=[now + 3600])),
        "nbf future": sign(claims(nbf=now + 3600)),
        "iat future": sign(claims(iat=now + 3600)),
        "alg none": f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(claims())}.",
        "alg HS512, same key": sign(claims(), algorithm="HS512"),
        "tampered payload": f"{header}.{b64(claims(sub='mallory'))}.{signature}",
        "tampered signature": f"{head}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}",
        "sub not a string": sign(claims(sub=42)),
        "sub of 256 characters": sign(claims(sub="a" * 256)),
        "another issuer": sign(claims(iss="elsewhere")),
        "another audience": sign(claims(aud="elsewhere")),
        "not a JWT": "garbage",
        "payload not JSON": f"{header}.bm90IGpzb24.{signature}",
    }


@pytest.mark.parametrize("case", list(bad_tokens()))
def test_every_refused_token_is_401_unauthorized_before_any_handler(
    server: Server, case: str
) -> None:
    token = bad_tokens()[case]
    before = len(server.handlers.events)
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    answer = server.request("GET", "/me", headers=headers)
    assert_error(answer, 401, "unauthorized")
    assert "Bearer" in answer[1]["WWW-Authenticate"]
    assert len(server.handlers.events) == before


# ------------------------------------------------------------------------ POST /dev/token


def test_dev_token_issues_a_token_the_runtime_accepts(server: Server) -> None:
    status, _, body = server.request("POST", "/dev/token", b'{"player": "bob", "name": "Bob"}')
    assert (status, body["player"], body["expires_in"]) == (200, "bob", tokens.LIFETIME_SECONDS)
    assert tokens.verify(SECRET, f"Bearer {body['token']}")["name"] == "Bob"


@pytest.mark.parametrize(
    "request_body",
    [
        {"player": "alice\n"},  # `$` would have matched before the newline
        {"player": "alice", "name": "Alice\n"},
        {"player": "alice", "name": "\u202eecilA"},
        {"player": "alice", "name": "\u2066Alice\u2069"},
        {"player": "alice", "name": "A\x00"},
        {"player": ["alice"]},
        [],
    ],
)
def test_dev_token_refuses_what_it_would_not_sign(server: Server, request_body: Any) -> None:
    answer = server.request("POST", "/dev/token", json.dumps(request_body).encode())
    assert_error(answer, 400, "invalid_request")


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 1000 + b"]" * 1000,
        b'{"a":' * 1000 + b"1" + b"}" * 1000,
        b'{"player":' + b"[" * 1000 + b"]" * 1000 + b"}",
        b"[" * 5000,  # and unbalanced
        b"{not json",
        b"\xff\xfe",
    ],
)
def test_a_body_nested_too_deep_or_not_json_is_400(server: Server, body: bytes) -> None:
    assert_error(server.request("POST", "/dev/token", body), 400, "invalid_request")


# ------------------------------------------------------------------------ HTTP-level refusals


@pytest.mark.parametrize("method", ["BREW", "PROPFIND", "get", "DELETE"])
def test_an_unknown_method_is_404_not_found(server: Server, method: str) -> None:
    assert_error(server.request(method, "/health"), 404, "not_found")


def test_an_unknown_route_is_404_not_found(server: Server) -> None:
    assert_error(server.request("GET", "/nope"), 404, "not_found")


def test_an_over_long_request_line_is_414(server: Server) -> None:
    status, headers, raw = server.raw(b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n")
    assert status == 414
    assert headers["Content-Type"] == "application/json"
    assert json.loads(raw)["error"]["code"] == "invalid_request"


def test_an_over_long_header_is_431(server: Server) -> None:
    status, headers, raw = server.raw(
        b"GET /health HTTP/1.1\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n"
    )
    assert status == 431
    assert headers["Content-Type"] == "application/json"
    assert json.loads(raw)["error"]["code"] == "invalid_request"


def test_too_many_headers_is_431(server: Server) -> None:
    lines = b"".join(b"X-H%d: v\r\n" % i for i in range(150))
    status, _, raw = server.raw(b"GET /health HTTP/1.1\r\n" + lines + b"\r\n")
    assert status == 431
    assert json.loads(raw)["error"]["code"] == "invalid_request"


@pytest.mark.parametrize(
    "line",
    [b"GARBAGE", b"GET /health HTTP/9.9", b"GET /health HTTP/1.1 extra", b"GET /health FTP/1.0"],
)
def test_a_malformed_request_line_is_json(server: Server, line: bytes) -> None:
    status, headers, raw = server.raw(line + b"\r\n\r\n")
    assert status in (400, 505)
    assert headers["Content-Type"] == "application/json"
    assert json.loads(raw)["error"]["code"] == "invalid_request"


def chunked(body: bytes) -> bytes:
    head = b"POST /dev/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
    head += b"Content-Type: application/json\r\n"
    return head + b"Connection: close\r\n\r\n" + body


def test_a_chunked_body_is_read(server: Server) -> None:
    body = b'{"player": "carol"}'
    status, _, raw = server.raw(
        chunked(
            b"5\r\n"
            + body[:5]
            + b"\r\n"
            + b"%x;ext=1\r\n" % (len(body) - 5)
            + body[5:]
            + b"\r\n0\r\nX-Trailer: 1\r\n\r\n"
        )
    )
    assert status == 200, raw
    assert json.loads(raw)["player"] == "carol"


@pytest.mark.parametrize(
    "body",
    [
        b"zz\r\nhello\r\n0\r\n\r\n",  # not hex
        b"0x5\r\nhello\r\n0\r\n\r\n",  # a prefix int() would take
        b"-5\r\nhello\r\n0\r\n\r\n",
        b"5\r\nhelloXX0\r\n\r\n",  # no CRLF after the chunk
        b"50\r\nshort",  # cut short
        b"5\r\nhello\r\n",  # no last chunk
        b"",
    ],
)
def test_a_bad_chunked_body_is_400(server: Server, body: bytes) -> None:
    status, headers, raw = server.raw(chunked(body))
    assert status == 400, raw
    assert headers["Content-Type"] == "application/json"
    assert json.loads(raw)["error"]["code"] == "invalid_request"


def test_a_chunked_body_over_16_kib_is_413(server: Server) -> None:
    status, _, raw = server.raw(chunked(b"%x\r\n" % (MAX_BODY + 1) + b"a" * (MAX_BODY + 1)))
    assert status == 413
    assert json.loads(raw)["error"]["code"] == "payload_too_large"


@pytest.mark.parametrize("length", ["abc", "-1", "+5", "1e3", "5, 5"])
def test_a_bad_content_length_is_400(server: Server, length: str) -> None:
    answer = server.request("POST", "/dev/token", headers={"Content-Length": length})
    assert_error(answer, 400, "invalid_request")


def test_the_body_limit_is_the_contracts_16_kib() -> None:
    assert MAX_BODY == 16 * 1024
