"""What the handlers see locally: the template's variables, dev mode on, fake credentials."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from local.template import Template


class DevClock:
    """How far ahead of the system clock the handlers' clock is: seconds in a file that dev
    mode's handlers read (``DOMINO_DEV_CLOCK``), so that turn deadlines come without waiting.
    A new clock starts level with the system's."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("0")

    def offset(self) -> float:
        try:
            return float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0.0

    def advance(self, seconds: float) -> None:
        """Move the clock on; written whole, so a handler never reads half a number."""
        staged = self.path.with_suffix(".new")
        staged.write_text(repr(self.offset() + seconds))
        staged.replace(self.path)

    def remove(self) -> None:
        """The run is over: its clock goes with it (a port's next run starts its own), so
        test suites that start runtimes on many ports leave no file per port behind."""
        for path in (self.path, self.path.with_suffix(".new")):
            path.unlink(missing_ok=True)

    def describe(self) -> dict[str, object]:
        now = time.time() + self.offset()
        return {
            "offset": self.offset(),
            "now": datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }


def local_environment(
    template: Template,
    endpoint: str,
    clock_file: Path | None = None,
    *,
    ws_endpoint: str | None = None,
    refs: dict[str, str] | None = None,
) -> dict[str, str]:
    """The template's Globals and function variables (tables resolved to their local names),
    with dev mode on, DynamoDB at ``endpoint``, fake credentials and Powertools' tracing and
    metrics off; ``clock_file``: the dev clock's file (see ``DevClock``); ``ws_endpoint``: the
    WebSocket management API the notifier posts to (``WS_ENDPOINT``; without it, no live
    updates); ``refs``: what ``!Ref`` of other resources means locally (queue URLs)."""
    extra = {"DOMINO_DEV_CLOCK": str(clock_file)} if clock_file else {}
    if ws_endpoint:
        extra["WS_ENDPOINT"] = ws_endpoint
    return template.environment(
        {
            **extra,
            "DEV_MODE": "true",
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_DEV": "false",
        },
        refs,
    )
