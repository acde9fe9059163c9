"""The local runtime's schedules: the template's rate(...) events, and the event each run gets."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from local.schedules import rate_seconds, run_now, schedule_sources, start_schedules
from local.template import Template


@pytest.mark.parametrize(
    ("expression", "seconds"),
    [
        ("rate(1 minute)", 60),
        ("rate(5 minutes)", 300),
        ("rate(2 hours)", 7200),
        ("rate(1 day)", 86400),
    ],
)
def test_rates(expression: str, seconds: int) -> None:
    assert rate_seconds(expression) == seconds


@pytest.mark.parametrize(
    "expression", ["rate(1 minutes)", "rate(2 minute)", "rate(0 minutes)", "cron(0 * * * ? *)", ""]
)
def test_what_is_not_a_rate_is_refused(expression: str) -> None:
    with pytest.raises(ValueError):
        rate_seconds(expression)


def test_the_template_runs_the_sweeper_every_minute() -> None:
    (source,) = schedule_sources(Template())
    assert (source.function, source.seconds, source.handler) == ("SweepFunction", 60, "app.handler")
    assert source.code_uri.name == "sweep"


def test_each_run_gets_the_scheduled_event() -> None:
    (source,) = schedule_sources(Template())
    seen: list[dict[str, Any]] = []
    run_now(source, lambda _source, event: seen.append(event))
    assert seen[0]["detail-type"] == "Scheduled Event" and seen[0]["source"] == "aws.events"


def test_a_schedule_runs_until_stopped() -> None:
    (source,) = schedule_sources(Template())
    fast = type(source)(source.function, source.code_uri, source.handler, 0, source.name)
    runs = threading.Semaphore(0)
    stop = threading.Event()
    (thread,) = start_schedules([fast], lambda *_: runs.release(), stop)
    assert runs.acquire(timeout=5) and runs.acquire(timeout=5)  # it keeps running
    stop.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
