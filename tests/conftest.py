"""Shared fixtures: DynamoDB Local for integration tests, the local runtime for e2e tests.

Fake credentials and region are set before anything creates a boto3 client.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_DISABLED": "true",
    }
)
os.environ.pop("AWS_PROFILE", None)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def dev_clock(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The handlers' clock (dev mode): ``dev_clock.advance(seconds)`` moves it on."""
    from local.environment import DevClock

    return DevClock(tmp_path_factory.mktemp("clock") / "offset")


@pytest.fixture(scope="session")
def sns() -> Iterator[Any]:
    """moto's SNS server with the three push platforms (local.sns), as `make run` has it."""
    from local.sns import LocalSns

    server = LocalSns()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def ddb_endpoint(dev_clock: Any, sns: Any) -> Iterator[str]:
    """DynamoDB Local in memory on a free port, with the template's tables; env points at it,
    the handlers' clock at ``dev_clock`` and their push at ``sns``."""
    from local.harness import local_database

    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "DOMINO_DEV_CLOCK": str(dev_clock.path),
        **sns.environment(),
    }
    with local_database(env=env) as endpoint:
        yield endpoint


class Runtime:
    """A `python -m local` process (what `make run` starts), driven over HTTP."""

    def __init__(self, port: int, ddb_port: int, data_dir: Path | None) -> None:
        self.port, self.ddb_port, self.data_dir = port, ddb_port, data_dir
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90) -> float:
        args = [
            sys.executable,
            "-m",
            "local",
            "--port",
            str(self.port),
            "--ddb-port",
            str(self.ddb_port),
            "--quiet",
        ]
        args += ["--data-dir", str(self.data_dir)] if self.data_dir else ["--in-memory"]
        started = time.monotonic()
        self.process = subprocess.Popen(args, cwd=REPO, stderr=subprocess.PIPE)
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"runtime exited: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                if self.request("GET", "/health")[0] == 200:
                    return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("runtime did not become ready")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        data = (
            body
            if isinstance(body, bytes)
            else (None if body is None else json.dumps(body).encode())
        )
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                raw = resp.read()
                return resp.status, dict(resp.headers), json.loads(raw) if raw else None
        except urllib.error.HTTPError as err:
            raw = err.read()
            return err.code, dict(err.headers), json.loads(raw) if raw else None

    def get_retrying(
        self, path: str, token: str | None = None, within: float = 10
    ) -> tuple[int, dict[str, str], Any]:
        """GET, retrying a 503 as clients do after Retry-After (here sooner, to keep tests
        quick): /moves answers 503 while the stream consumer has not yet archived a hand that
        just left the game item."""
        deadline = time.monotonic() + within
        while True:
            status, headers, body = self.request("GET", path, token=token)
            if status != 503 or time.monotonic() > deadline:
                return status, headers, body
            time.sleep(min(float(headers.get("Retry-After", 1)), 0.2))

    def token(self, player: str, name: str | None = None) -> str:
        status, _, body = self.request("POST", "/dev/token", {"player": player, "name": name})
        assert status == 200, body
        return str(body["token"])


@pytest.fixture(scope="session")
def runtime() -> Iterator[Runtime]:
    from local.ddb import free_port

    rt = Runtime(free_port(), free_port(), None)
    rt.start()
    try:
        yield rt
    finally:
        rt.stop()


@pytest.fixture(scope="session")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The client openapi-python-client generates from docs/openapi.yaml (tests/clients.py)."""
    from tests.clients import generate_python_client

    return generate_python_client(tmp_path_factory.mktemp("python-client"))


@pytest.fixture
def oauth() -> Iterator[Any]:
    """A stand-in for the stack's hosted sign-in (tests/oauth.py), on a free port."""
    from tests.oauth import serving

    with serving() as fake:
        yield fake
