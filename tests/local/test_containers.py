"""The containers' stop (local/containers.py ``Containers.close``): what runs is answered or
failed within the time given, and then every container is ended, as Lambda ends its own."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from local.containers import Containers, InvocationFailed

HANDLER = """
import time

def handler(event, context):
    time.sleep(event["sleep"])
    return {"slept": event["sleep"]}
"""


@pytest.fixture
def sleeper(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(HANDLER)
    return tmp_path


def invoke_in_thread(
    containers: Containers, code: Path, sleep: float
) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(containers.invoke(code, "app.handler", "Sleeper", {"sleep": sleep}))
        except InvocationFailed as err:
            outcome.append(err)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def started(containers: Containers, count: int) -> list[Any]:
    """The pool's processes, once ``count`` of them run."""
    for _ in range(200):
        processes = containers._processes(containers._pool)
        if len(processes) >= count and all(p.pid for p in processes):
            return processes
        threading.Event().wait(0.05)
    raise AssertionError(f"{count} containers did not start")


def test_a_request_running_at_the_stop_is_answered_then_every_container_is_ended(
    sleeper: Path,
) -> None:
    containers = Containers(2, {}, [(str(sleeper), "app.handler")])
    containers.warm()
    processes = started(containers, 1)
    thread, outcome = invoke_in_thread(containers, sleeper, 0.5)
    threading.Event().wait(0.2)  # the request is in a container

    containers.close(timeout=5)
    thread.join(timeout=10)

    assert outcome == [{"slept": 0.5}]
    # ended by the stop (SIGTERM), not left to exit on their own through a teardown
    assert [p.exitcode for p in processes] == [-signal.SIGTERM] * len(processes)


def test_a_request_that_outlasts_the_stop_fails_and_its_container_is_ended(
    sleeper: Path,
) -> None:
    containers = Containers(1, {}, [(str(sleeper), "app.handler")])
    containers.warm()
    processes = started(containers, 1)
    thread, outcome = invoke_in_thread(containers, sleeper, 30)
    threading.Event().wait(0.2)

    containers.close(timeout=0.3)
    thread.join(timeout=10)

    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], InvocationFailed)
    assert all(not p.is_alive() for p in processes)
