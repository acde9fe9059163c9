"""Shared fixtures: DynamoDB Local for integration tests, the local runtime for e2e tests.

Fake credentials and region are set before anything creates a boto3 client.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from local.process import Runtime

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files marked ``long(seconds)`` first, the longest first, the rest in their order: with
    ``--dist loadfile`` a long file (much of it waiting on timers and restarts) then runs while
    the short ones fill the other worker, instead of starting last and holding the run's end."""

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return float(mark.args[0]) if mark is not None else 0.0

    items.sort(key=lambda item: -seconds(item))  # stable: a file's tests keep their order


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


@pytest.fixture(scope="session")
def runtime() -> Iterator[Runtime]:
    """The local runtime (local/process.py), in memory, for the session."""
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
