"""The local runtime's HTTP server on a free port, one per module (test_websocket.py makes one a
test: its tests close connections the next would find)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .test_server import Server


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    try:
        yield running
    finally:
        running.close()
