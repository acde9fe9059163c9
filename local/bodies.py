"""A request's bytes, bounded in time and size, for the local runtime's request handler.

A connection waits ``IDLE_TIMEOUT_SECONDS`` (5 s) for a request's first byte and then
``REQUEST_TIMEOUT_SECONDS`` (10 s) for the rest of its head and body (``TimedReader``), so
silent or slow clients hold no thread. A body is read only within its limit (16 KiB unless the
route takes more) and its framing (``Content-Length``, or ``Transfer-Encoding: chunked``), else
refused (413, 400) before or instead of reading the rest. A connection closes after a lingering
read (``linger``), so that a refusal reaches a client still sending.
"""

from __future__ import annotations

import io
import re
import socket
import time
from email.message import Message
from typing import Any, Protocol

from domino.limits import MAX_BODY_BYTES

# docs/api.md#errors: a body over 16 KiB is 413 payload_too_large (the handlers refuse the same when
# deployed): the runtime refuses it before reading it. The bound comes from domino.limits, a leaf
# module; the runtime imports nothing else of the handlers' code.
MAX_BODY = MAX_BODY_BYTES
MAX_LINE = 65536  # a chunk-size or trailer line, as http.server bounds the request line
LINGER_SECONDS, LINGER_BYTES = 2.0, 1 << 20  # what is read and dropped before a close
CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,8}")
CONTENT_LENGTH = re.compile(r"[0-9]{1,12}")
#: how long a connection waits for a request's first byte (a kept-alive one's idle time), then
#: for the rest of its head and body, and how long a write to a client that does not read waits
IDLE_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS, WRITE_TIMEOUT_SECONDS = 5.0, 10.0, 10.0


class Refuse(Protocol):
    """Answer an error and close the connection (``RequestHandler.refuse``)."""

    def __call__(self, status: int, code: str, message: str, **params: Any) -> None: ...


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


def read_body(
    rfile: io.BufferedIOBase, headers: Message, refuse: Refuse, limit: int = MAX_BODY
) -> bytes | None:
    """The request body, or None after answering 413 (over ``limit``, 16 KiB unless the
    route takes more) or 400 (malformed)."""
    if headers.get("Transfer-Encoding", "").strip().lower() == "chunked":
        return read_chunked(rfile, refuse, limit)
    declared = (headers.get("Content-Length") or "0").strip()
    if not CONTENT_LENGTH.fullmatch(declared):
        refuse(400, "invalid_request", "Content-Length is not a number.")
        return None
    length = int(declared)
    if length > limit:  # never read what we refuse
        refuse(413, "payload_too_large", "Bodies are limited to {max} bytes.", max=limit)
        return None
    body = rfile.read(length) if length else b""
    if len(body) < length:
        refuse(400, "invalid_request", "The body is shorter than its Content-Length.")
        return None
    return body


def read_chunked(rfile: io.BufferedIOBase, refuse: Refuse, limit: int = MAX_BODY) -> bytes | None:
    """A ``Transfer-Encoding: chunked`` body (RFC 9112, 7.1): hex sizes, each chunk ending
    in CRLF, a last chunk of size 0 and optional trailer lines up to an empty line."""
    chunks: list[bytes] = []
    size = 0
    while True:
        line = rfile.readline(MAX_LINE + 1)
        digits = line.split(b";", 1)[0].strip()
        if len(line) > MAX_LINE or not line.endswith(b"\n") or not CHUNK_SIZE.fullmatch(digits):
            refuse(400, "invalid_request", "The chunked body is malformed.")
            return None
        length = int(digits, 16)
        if length == 0:
            break
        size += length
        if size > limit:
            refuse(413, "payload_too_large", "Bodies are limited to {max} bytes.", max=limit)
            return None
        chunk = rfile.read(length)
        if len(chunk) < length or rfile.readline(MAX_LINE + 1).strip() != b"":
            refuse(400, "invalid_request", "The chunked body is malformed.")
            return None
        chunks.append(chunk)
    for _ in range(100):  # trailer fields, ignored, up to the empty line
        line = rfile.readline(MAX_LINE + 1)
        if not line.endswith(b"\n"):
            break
        if line in (b"\r\n", b"\n"):
            return b"".join(chunks)
    refuse(400, "invalid_request", "The chunked body is malformed.")
    return None


def linger(request: socket.socket) -> None:
    """Before a close, a lingering read, as web servers do: a refused request (413, 414, 431)
    may leave bytes unread, and closing over them sends a reset that can destroy the error
    answer before the client reads it."""
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
