"""Scheduled functions, run on their schedule as EventBridge would: the template's
``Type: Schedule`` events with a ``rate(...)`` expression.

Each source gets the scheduled event EventBridge sends (``detail-type: Scheduled Event``) every
``rate``; ``POST /dev/sweep``-style dev routes can also run one at once (``run_now``).
"""

from __future__ import annotations

import re
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from local.template import Template

RATE = re.compile(r"rate\(([0-9]+) (minute|minutes|hour|hours|day|days)\)")
UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}


@dataclass(frozen=True)
class ScheduleSource:
    """One ``Type: Schedule`` event of a function."""

    function: str  # logical id
    code_uri: Path
    handler: str
    seconds: int  # the rate
    name: str  # the event's name in the template


def rate_seconds(expression: str) -> int:
    """``rate(1 minute)`` → 60; cron expressions are not run locally (ValueError)."""
    found = RATE.fullmatch(expression.strip())
    if not found:
        raise ValueError(f"only rate(...) schedules run locally, not {expression!r}")
    count, unit = int(found[1]), found[2].rstrip("s")
    if count < 1 or (count == 1) != (found[2] == unit):
        raise ValueError(f"{expression!r}: rate(1 minute), rate(5 minutes), ...")
    return count * UNIT_SECONDS[unit]


def schedule_sources(template: Template) -> list[ScheduleSource]:
    """Every enabled rate schedule of the template's functions."""
    sources = []
    for function, code_uri, handler, props in template.function_events("Schedule"):
        if props.get("Enabled") is False:
            continue
        seconds = rate_seconds(str(props.get("Schedule", "")))
        name = str(props.get("Name") or props.get("Description") or function)
        sources.append(ScheduleSource(function, code_uri, handler, seconds, name))
    return sources


def scheduled_event(source: ScheduleSource, region: str = "us-east-1") -> dict[str, Any]:
    """The event EventBridge sends a scheduled function."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "000000000000",
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": region,
        "resources": [f"arn:aws:events:{region}:000000000000:rule/{source.function}"],
        "detail": {},
    }


Invoke = Callable[[ScheduleSource, dict[str, Any]], Any]


def run_now(source: ScheduleSource, invoke: Invoke) -> Any:
    """One run of ``source``, as its schedule would make it."""
    return invoke(source, scheduled_event(source))


def start_schedules(
    sources: list[ScheduleSource], invoke: Invoke, stop: threading.Event
) -> list[threading.Thread]:
    """A thread per source, invoking it every ``seconds`` until ``stop`` is set (the first run
    one period after the start, as a new rule's first run is)."""

    def loop(source: ScheduleSource) -> None:
        while not stop.wait(source.seconds):
            try:
                run_now(source, invoke)
            except Exception as err:  # a failed run is logged; the next one comes anyway
                sys.stderr.write(f"{source.function} (schedule) failed: {err}\n")

    threads = []
    for source in sources:
        thread = threading.Thread(target=loop, args=(source,), name=source.function, daemon=True)
        thread.start()
        threads.append(thread)
    if sources:
        names = ", ".join(f"{s.function} every {s.seconds} s" for s in sources)
        print(f"schedules: {names}", file=sys.stderr, flush=True)
    return threads
