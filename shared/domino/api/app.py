"""The one resolver factory: every function builds its router here, so every route answers
errors the same way (docs/api.md#errors) and nothing internal leaks from a 500."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError

from domino.api.errors import (
    DominoError,
    Internal,
    PayloadTooLarge,
    RouteNotFound,
    Unauthorized,
    error_parts,
)
from domino.api.identity import caller_from_event
from domino.api.messages import negotiate
from domino.api.models import invalid_request
from domino.limits import MAX_BODY_BYTES
from domino.store.table import drop_riding, settle_riding

logger = Logger(service="domino")

JSON = "application/json"


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[Any]:
    return Response(
        status_code=status,
        content_type=JSON,
        body=json.dumps(body, separators=(",", ":")) if body is not None else "",
        headers=headers or {},
    )


def error_response(err: DominoError, app: APIGatewayHttpResolver) -> Response[Any]:
    """The answer to any domain error, in the language the request prefers: the one place
    codes become statuses."""
    headers = app.current_event.headers or {}
    language = negotiate(headers.get("accept-language") or headers.get("Accept-Language"))
    status, body, headers = error_parts(err, language)
    return json_response(status, body, headers)


def body_size(event: dict[str, Any]) -> int:
    """Bytes of the request body as the client sent it."""
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return len(body) * 3 // 4
    return len(body.encode("utf-8"))


def limit_body(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
    """Bodies over 16 KiB are refused before anything parses them (API Gateway allows 10 MB)."""
    if body_size(app.current_event.raw_event) > MAX_BODY_BYTES:
        return error_response(PayloadTooLarge(MAX_BODY_BYTES), app)
    return next_middleware(app)


def settle_ban(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
    """No answer leaves before the caller's ban is read: ``caller()`` leaves it to ride with
    the call's next GetItem, and a call that made none reads it here. A banned caller's error
    becomes 401 as well, as when the ban was read first."""
    drop_riding()  # nothing of an earlier request on this thread
    try:
        response = next_middleware(app)
    except Exception:
        settle_riding()
        raise
    settle_riding()
    return response


def make_app(*, validation: bool = True) -> APIGatewayHttpResolver:
    """A Powertools HTTP API resolver with the contract's error mapping installed.

    ``validation`` turns on Powertools' parameter validation (typed query parameters). Routes
    that read only a JSON body parse it with the request validators after the contract's
    401/404 checks, and skip it: it costs about 60 ms of cold start.
    """
    app = APIGatewayHttpResolver(enable_validation=validation)
    app.use(middlewares=[limit_body, settle_ban])

    def invalid(err: RequestValidationError) -> Response[Any]:
        # the resolver validates query parameters before any route code runs: the contract
        # answers a caller without credentials 401 before a bad parameter 400 (every route
        # with parameters needs a caller)
        try:
            caller_from_event(app.current_event.raw_event)
        except Unauthorized as unauthorized:
            return error_response(unauthorized, app)
        return error_response(invalid_request(err.errors()), app)

    @app.not_found
    def not_found(_err: NotFoundError) -> Response[Any]:
        event = app.current_event
        return error_response(RouteNotFound(event.http_method, event.path), app)

    def unexpected(_err: Exception) -> Response[Any]:
        logger.exception("unhandled error")
        return error_response(Internal(), app)

    def domain(err: DominoError) -> Response[Any]:
        return error_response(err, app)

    # registered by call, not as decorators: Powertools' decorator is untyped
    app.exception_handler(DominoError)(domain)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(Exception)(unexpected)
    return app
