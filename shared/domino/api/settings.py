"""Configuration: every environment variable the product reads, read here once.

template.yaml declares ``TABLE_NAME``, ``IDEMPOTENCY_TABLE``, ``DEV_MODE`` and
``POWERTOOLS_TRACE_DISABLED`` for every function, and the push platforms' application ARNs
(``PUSH_APNS_ARN``, ``PUSH_APNS_SANDBOX_ARN``, ``PUSH_FCM_ARN``; empty: not offered) for the
functions that push. Outside dev mode a missing table name is a startup error (a function must
never write to a table it guessed). The rest are switches the tests and benchmarks turn:
the WebSocket side's ``JWT_ISSUER``, ``JWT_AUDIENCE`` (``JWT_JWKS_URL`` defaults to the issuer's
``/.well-known/jwks.json``) and ``WS_ENDPOINT`` (the management API: live updates are off without
it), ``COGNITO_USER_POOL_ID`` (the stack's own user pool, set only when the stack creates one:
deleting an account deletes its user there), Powertools' ``POWERTOOLS_METRICS_DISABLED``,
``DOMINO_TRACK_CAPACITY`` (ask DynamoDB for the capacity each request consumed),
``BOT_BUDGET_MS`` (the expert bot's thinking time a move, default 50, at most 5,000),
``TIMER_QUEUE_URL`` (the SQS delay queue that fires turn reminders and deadlines on time; empty:
only the minutely sweep does, as in tests that do not run the queue), ``ANALYSIS_QUEUE_URL``
(finished matches' analysis jobs; empty: none is queued), and in dev
mode only ``DOMINO_DEV_CLOCK`` (a file of seconds by which the local runtime's clock is ahead).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from domino.engine import DEFAULT_BUDGET_MS

#: the local runtime's table names (template.yaml's logical ids), used only in dev mode
DEV_TABLE_NAME = "GameTable"
DEV_IDEMPOTENCY_TABLE = "IdempotencyTable"


#: the variables naming each push platform's SNS platform application
PUSH_VARIABLES = {
    "apns": "PUSH_APNS_ARN",
    "apns_sandbox": "PUSH_APNS_SANDBOX_ARN",
    "fcm": "PUSH_FCM_ARN",
}


#: the most thinking time ``BOT_BUDGET_MS`` may give the expert bot a move
MAX_BOT_BUDGET_MS = 5000


class ConfigurationError(RuntimeError):
    """The environment lacks what a function needs: it must not start."""


class Settings(NamedTuple):
    table_name: str
    idempotency_table: str
    dev_mode: bool
    metrics_enabled: bool
    tracing_enabled: bool
    track_capacity: bool
    #: dev mode only: a file holding seconds to add to the clock (the local runtime advances
    #: time with it: POST /dev/clock), so that tests reach turn deadlines without sleeping
    dev_clock_file: str | None
    #: platform -> SNS platform application ARN (template parameters; empty: not offered)
    push_applications: dict[str, str]
    #: the tokens the WebSocket authorizer accepts: the HTTP API's issuer and audience
    jwt_issuer: str
    jwt_audience: str
    jwks_url: str
    #: the WebSocket API's management endpoint (its stage URL); empty: no live updates
    ws_endpoint: str
    #: the stack's own Cognito user pool; empty: tokens come from another issuer (or dev mode)
    cognito_user_pool_id: str = ""
    #: ``BOT_BUDGET_MS``: the expert bot's thinking time a move, in ms of wall clock
    bot_budget_ms: float = DEFAULT_BUDGET_MS
    #: ``APP_URL_SCHEME``: the app's scheme in the URL a push opens (``domino://games/<id>``)
    app_url_scheme: str = "domino"
    #: ``TIMER_QUEUE_URL``: the timers' SQS delay queue; empty: the sweep alone keeps time
    timer_queue_url: str = ""
    #: ``ANALYSIS_QUEUE_URL``: finished matches' analysis jobs; empty: none is queued
    analysis_queue_url: str = ""


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(name)
    return default if value is None else value.strip().lower() == "true"


def _budget(value: str | None) -> float:
    """``BOT_BUDGET_MS``: 1 to 5,000 ms (a bot chain must stay well within a request)."""
    if value is None or not value.strip():
        return DEFAULT_BUDGET_MS
    try:
        budget = float(value)
    except ValueError:
        budget = -1.0
    if not 1 <= budget <= MAX_BOT_BUDGET_MS:
        raise ConfigurationError(f"BOT_BUDGET_MS must be 1 to {MAX_BOT_BUDGET_MS} ms: {value!r}")
    return budget


def read_settings(env: Mapping[str, str]) -> Settings:
    """Settings from ``env``; ``ConfigurationError`` outside dev mode without table names."""
    dev_mode = _flag(env, "DEV_MODE", False)
    tables = {}
    for name, dev_default in (
        ("TABLE_NAME", DEV_TABLE_NAME),
        ("IDEMPOTENCY_TABLE", DEV_IDEMPOTENCY_TABLE),
    ):
        value = (env.get(name) or "").strip()
        if not value:
            if not dev_mode:
                raise ConfigurationError(f"{name} is not set (template.yaml sets it)")
            value = dev_default
        tables[name] = value
    return Settings(
        table_name=tables["TABLE_NAME"],
        idempotency_table=tables["IDEMPOTENCY_TABLE"],
        dev_mode=dev_mode,
        metrics_enabled=not _flag(env, "POWERTOOLS_METRICS_DISABLED", False),
        tracing_enabled=not _flag(env, "POWERTOOLS_TRACE_DISABLED", False),
        track_capacity=_flag(env, "DOMINO_TRACK_CAPACITY", False),
        dev_clock_file=(env.get("DOMINO_DEV_CLOCK") or None) if dev_mode else None,
        jwt_issuer=(env.get("JWT_ISSUER") or "").strip(),
        jwt_audience=(env.get("JWT_AUDIENCE") or "").strip(),
        jwks_url=(env.get("JWT_JWKS_URL") or "").strip()
        or (env.get("JWT_ISSUER") or "").strip().rstrip("/") + "/.well-known/jwks.json",
        ws_endpoint=(env.get("WS_ENDPOINT") or "").strip(),
        cognito_user_pool_id=(env.get("COGNITO_USER_POOL_ID") or "").strip(),
        bot_budget_ms=_budget(env.get("BOT_BUDGET_MS")),
        app_url_scheme=(env.get("APP_URL_SCHEME") or "").strip() or "domino",
        timer_queue_url=(env.get("TIMER_QUEUE_URL") or "").strip(),
        analysis_queue_url=(env.get("ANALYSIS_QUEUE_URL") or "").strip(),
        push_applications={
            platform: (env.get(variable) or "").strip()
            for platform, variable in PUSH_VARIABLES.items()
        },
    )


@lru_cache(maxsize=1)
def settings() -> Settings:
    """This container's settings, read once."""
    return read_settings(os.environ)
