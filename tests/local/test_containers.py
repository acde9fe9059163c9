"""The containers' stop (local/containers.py ``Containers.close``): what runs is answered or
failed within the time given, and then every container is ended, as Lambda ends its own."""

from __future__ import annotations

import signal
import threading
import time
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


def one_running(
    code: Path, workers: int, sleep: float
) -> tuple[Containers, list[Any], threading.Thread, list[Any]]:
    """Containers with one request in a container (sleeping ``sleep`` s): the containers,
    their processes, the thread waiting for the answer and where the answer goes."""
    containers = Containers(workers, {}, [(str(code), "app.handler")])
    containers.warm()
    processes = started(containers)
    thread, outcome = invoke_in_thread(containers, code, sleep)
    time.sleep(0.2)  # the request is in a container
    return containers, processes, thread, outcome


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


def started(containers: Containers) -> list[Any]:
    """The pool's processes, once one runs."""
    for _ in range(200):
        processes = containers._processes(containers._pool)
        if processes and all(p.pid for p in processes):
            return processes
        time.sleep(0.05)
    raise AssertionError("no container started")


def ended(process: Any) -> int | None:
    """The exit code of a process ``close`` ended (None: it still runs after 2 s). The
    pool's own thread may be the one that reaps it: until it has, a join here sees no
    child to wait for and the exit code is still None."""
    for _ in range(40):
        if process.exitcode is not None:
            break
        time.sleep(0.05)
    return process.exitcode  # type: ignore[no-any-return]


def test_a_request_running_at_the_stop_is_answered_then_every_container_is_ended(
    sleeper: Path,
) -> None:
    containers, processes, thread, outcome = one_running(sleeper, workers=2, sleep=0.5)

    containers.close(timeout=5)
    thread.join(timeout=10)

    assert outcome == [{"slept": 0.5}]
    # ended by the stop (SIGTERM), not left to exit on their own through a teardown
    assert [ended(p) for p in processes] == [-signal.SIGTERM] * len(processes)


def test_a_request_that_outlasts_the_stop_fails_and_its_container_is_ended(
    sleeper: Path,
) -> None:
    containers, processes, thread, outcome = one_running(sleeper, workers=1, sleep=30)

    containers.close(timeout=0.3)
    thread.join(timeout=10)

    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], InvocationFailed)
    assert all(ended(p) is not None for p in processes)
