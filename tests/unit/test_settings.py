"""Settings: read once from the environment; outside dev mode the tables must be named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from domino.api.settings import ConfigurationError, read_settings

DEPLOYED = {"TABLE_NAME": "stack-GameTable-1", "IDEMPOTENCY_TABLE": "stack-Idem-1"}


def test_the_deployed_environment() -> None:
    config = read_settings({**DEPLOYED, "DEV_MODE": "false", "POWERTOOLS_TRACE_DISABLED": "true"})
    assert (config.table_name, config.idempotency_table) == ("stack-GameTable-1", "stack-Idem-1")
    assert not config.dev_mode and not config.tracing_enabled and config.metrics_enabled
    assert not config.track_capacity


@pytest.mark.parametrize("missing", ["TABLE_NAME", "IDEMPOTENCY_TABLE"])
@pytest.mark.parametrize("dev_mode", [None, "false", "FALSE", "no"])
def test_a_missing_table_fails_outside_dev_mode(missing: str, dev_mode: str | None) -> None:
    env = {k: v for k, v in DEPLOYED.items() if k != missing}
    if dev_mode is not None:
        env["DEV_MODE"] = dev_mode
    with pytest.raises(ConfigurationError, match=missing):
        read_settings(env)
    with pytest.raises(ConfigurationError, match=missing):
        read_settings({**env, missing: "  "})


def test_dev_mode_has_the_local_runtimes_tables() -> None:
    config = read_settings({"DEV_MODE": " True "})
    assert config.dev_mode
    assert (config.table_name, config.idempotency_table) == ("GameTable", "IdempotencyTable")


def test_switches() -> None:
    config = read_settings(
        {**DEPLOYED, "POWERTOOLS_METRICS_DISABLED": "true", "DOMINO_TRACK_CAPACITY": "true"}
    )
    assert not config.metrics_enabled and config.tracing_enabled and config.track_capacity


def test_a_function_without_its_table_does_not_start() -> None:
    """Importing a handler is Lambda's init phase: it fails there, not on the first write."""
    repo = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("TABLE_NAME", "DEV_MODE")}
    env["PYTHONPATH"] = str(repo / "shared")
    run = subprocess.run(
        [sys.executable, "-c", "import app"],
        cwd=repo / "functions" / "play",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "ConfigurationError: TABLE_NAME is not set" in run.stderr


def test_the_bots_thinking_time_is_read_and_bounded() -> None:
    assert read_settings(DEPLOYED).bot_budget_ms == 50.0
    assert read_settings({**DEPLOYED, "BOT_BUDGET_MS": " 120 "}).bot_budget_ms == 120.0
    for wrong in ("0", "-5", "5001", "fast", "nan"):
        with pytest.raises(ConfigurationError, match="BOT_BUDGET_MS"):
            read_settings({**DEPLOYED, "BOT_BUDGET_MS": wrong})
