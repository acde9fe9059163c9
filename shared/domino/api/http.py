"""Glue between a route and the service: caller, headers, idempotency, responses, the handler.

Every mutating route goes through ``mutate``: an ``Idempotency-Key`` makes a retry with the
same key and body return the first successful response (Powertools Idempotency on its own
DynamoDB table, 24 h, keys scoped to the caller; "the same body" is the same method, path and
JSON, anything else with that key is 422 idempotency_key_reused).
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyInconsistentStateError,
    IdempotencyPersistenceLayerError,
    IdempotencyValidationError,
)

from domino.api.app import json_response
from domino.api.errors import ApiError, unavailable
from domino.api.identity import Caller, caller_from_event
from domino.api.settings import settings
from domino.service.games import GameService, Outcome
from domino.store.games import GameStore, throttled

logger = Logger(service="domino")
metrics = Metrics(namespace="Domino", service="domino")
METRICS_ON = os.environ.get("POWERTOOLS_METRICS_DISABLED", "false").lower() != "true"
TRACING_ON = os.environ.get("POWERTOOLS_TRACE_DISABLED", "false").lower() != "true"

IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
IDEMPOTENCY_SECONDS = 24 * 3600

_pending: contextvars.ContextVar[Callable[[], Outcome]] = contextvars.ContextVar("pending")


@lru_cache(maxsize=1)
def service() -> GameService:
    """Built once per container (module scope would cost cold starts of routes that skip it)."""
    config = settings()
    return GameService(GameStore(config.table_name), dev_mode=config.dev_mode)


@lru_cache(maxsize=1)
def _idempotency() -> tuple[
    IdempotencyConfig, DynamoDBPersistenceLayer, Callable[..., dict[str, Any]]
]:
    config = IdempotencyConfig(
        event_key_jmespath="key",
        payload_validation_jmespath="payload",
        expires_after_seconds=IDEMPOTENCY_SECONDS,
        raise_on_no_idempotency_key=True,
    )
    persistence = DynamoDBPersistenceLayer(table_name=settings().idempotency_table)

    @idempotent_function(
        data_keyword_argument="request", persistence_store=persistence, config=config
    )
    def run_once(request: dict[str, Any]) -> dict[str, Any]:
        outcome = _pending.get()()
        return {"status": outcome.status, "body": outcome.body, "headers": outcome.headers}

    return config, persistence, run_once


def caller(app: APIGatewayHttpResolver) -> Caller:
    return caller_from_event(app.current_event.raw_event)


def header(app: APIGatewayHttpResolver, name: str) -> str | None:
    headers = app.current_event.headers or {}
    return headers.get(name.lower()) or headers.get(name)


def respond(outcome: Outcome) -> Response[Any]:
    return json_response(outcome.status, outcome.body, outcome.headers)


def mutate(
    app: APIGatewayHttpResolver, command: Callable[[Caller], Outcome], metric: str
) -> Response[Any]:
    """Run a mutating command once per ``Idempotency-Key`` (when the client sends one)."""
    who = caller(app)
    key = header(app, "Idempotency-Key")
    ran: list[Outcome] = []

    def run() -> Outcome:
        outcome = command(who)
        count(metric)  # only when the command ran: a replay is not a second move
        ran.append(outcome)
        return outcome

    if key is None:
        outcome = run()
    else:
        if not IDEMPOTENCY_KEY.match(key):
            raise ApiError(
                "invalid_request", "Idempotency-Key must be 1-128 letters, digits or _ . : -"
            )
        event = app.current_event
        body = event.body or ""
        try:
            canonical = json.dumps(json.loads(body), sort_keys=True) if body.strip() else ""
        except ValueError:
            canonical = body
        request = {  # the key is the caller's; reusing it on another route is another body
            "key": f"{who.player}|{key}",
            "payload": hashlib.sha256(
                f"{event.http_method} {event.path} {canonical}".encode()
            ).hexdigest(),
        }
        config, _, run_once = _idempotency()
        config.register_lambda_context(app.lambda_context)
        token = _pending.set(run)
        try:
            stored = run_once(request=request)
        except IdempotencyValidationError:
            raise ApiError(
                "idempotency_key_reused", "This Idempotency-Key was used with another request."
            ) from None
        except (IdempotencyAlreadyInProgressError, IdempotencyInconsistentStateError):
            # inconsistent: the key's record changed under Powertools' retries; it settles
            raise ApiError(
                "conflict",
                "A request with this Idempotency-Key is in progress.",
                headers={"Retry-After": "1"},
            ) from None
        except IdempotencyPersistenceLayerError as err:
            if ran:  # the command was applied and only recording its answer failed: answer it
                logger.warning("idempotency record not saved", exc_info=True)
                return respond(ran[0])
            if throttled(err):
                raise unavailable() from None
            raise
        finally:
            _pending.reset(token)
        outcome = Outcome(stored["status"], stored["body"], stored["headers"])
    return respond(outcome)


def count(metric: str) -> None:
    """One business metric per accepted command (games_created, moves_played, ...)."""
    if METRICS_ON:
        metrics.add_metric(name=metric, unit=MetricUnit.Count, value=1)


def game_command(app: APIGatewayHttpResolver, action: str, metric: str) -> None:
    """Register ``POST /games/{id}/<action>`` (join, leave, play, draw, pass) on ``app``."""

    @app.post(f"/games/<game_id>/{action}")
    def command(game_id: str) -> Response[Any]:
        body, if_match = app.current_event.body, header(app, "If-Match")
        return mutate(
            app, lambda who: service().command(action, who, game_id, body, if_match), metric
        )


def lambda_handler(
    app: APIGatewayHttpResolver, *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """The Lambda entry point of an API function: ``entry_point`` around the routing."""

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        return app.resolve(event, context)

    return entry_point(handler, records_metrics=records_metrics)


def entry_point(
    handler: Callable[[dict[str, Any], Any], Any], *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], Any]:
    """Every function's handler wrapped the same way: logging context, tracing, metrics.

    The X-Ray SDK behind Powertools Tracer adds about 190 ms to every cold start, so it is
    loaded only where detailed tracing is switched on (template parameter DetailedTracing);
    Lambda's active tracing records every invocation either way.
    """
    if records_metrics and METRICS_ON:
        handler = metrics.log_metrics(handler)
    if TRACING_ON:
        from aws_lambda_powertools import Tracer

        tracer = Tracer(service="domino")
        handler = tracer.capture_lambda_handler(handler, capture_response=False)
    return logger.inject_lambda_context(handler, clear_state=True)
