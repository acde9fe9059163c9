"""The one resolver factory: every function builds its router here, so every route answers
errors the same way (API.md "Errors") and nothing internal leaks from a 500."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError

from domino.api.errors import STATUS_BY_CODE, ApiError
from domino.api.identity import caller_from_event

logger = Logger(service="domino")

JSON = "application/json"
MAX_BODY_BYTES = 16 * 1024


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[Any]:
    return Response(
        status_code=status,
        content_type=JSON,
        body=json.dumps(body, separators=(",", ":")) if body is not None else "",
        headers=headers or {},
    )


def error_response(code: str, message: str, **kwargs: Any) -> Response[Any]:
    error = ApiError(code, message, **kwargs)
    return json_response(error.status, error.body(), error.headers)


def _validation_message(errors: list[dict[str, Any]]) -> str:
    parts = []
    for err in errors[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",)) or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "The request is not valid."


def body_size(event: dict[str, Any] | Any) -> int:
    """Bytes of the request body as the client sent it."""
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return len(body) * 3 // 4
    return len(body.encode("utf-8"))


def limit_body(app: APIGatewayHttpResolver, next_middleware: NextMiddleware) -> Response[Any]:
    """Bodies over 16 KiB are refused before anything parses them (API Gateway allows 10 MB)."""
    if body_size(app.current_event.raw_event) > MAX_BODY_BYTES:
        return error_response("payload_too_large", f"Bodies are limited to {MAX_BODY_BYTES} bytes.")
    return next_middleware(app)


def make_app(*, validation: bool = True) -> APIGatewayHttpResolver:
    """A Powertools HTTP API resolver with the contract's error mapping installed.

    ``validation`` turns on Powertools' parameter validation (typed query parameters). Routes
    that read only a JSON body parse it with the pydantic models after the contract's 401/404
    checks, and skip it: it costs about 60 ms of cold start.
    """
    app = APIGatewayHttpResolver(enable_validation=validation)
    app.use(middlewares=[limit_body])

    @app.exception_handler(ApiError)
    def api_error(err: ApiError) -> Response[Any]:
        return json_response(err.status, err.body(), err.headers)

    @app.exception_handler(RequestValidationError)
    def invalid(err: RequestValidationError) -> Response[Any]:
        # the resolver validates query parameters before any route code runs: the contract
        # answers a caller without credentials 401 before a bad parameter 400 (every route
        # with parameters needs a caller)
        try:
            caller_from_event(app.current_event.raw_event)
        except ApiError as unauthorized:
            return json_response(unauthorized.status, unauthorized.body())
        errors = list(err.errors())
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response("invalid_request", "The body is not valid JSON.")
        fields = [".".join(str(p) for p in e.get("loc", ()) if p != "body") for e in errors]
        error = ApiError(
            "invalid_request", _validation_message(errors), fields=[f for f in fields if f]
        )
        return json_response(400, error.body())

    @app.not_found
    def not_found(_err: NotFoundError) -> Response[Any]:
        event = app.current_event
        return error_response("not_found", f"No route for {event.http_method} {event.path}.")

    @app.exception_handler(Exception)
    def unexpected(err: Exception) -> Response[Any]:
        code = getattr(err, "code", None)
        if isinstance(code, str) and code in STATUS_BY_CODE:  # engine errors carry their code
            return error_response(code, str(getattr(err, "message", err)))
        logger.exception("unhandled error")
        return error_response("internal", "Internal server error.")

    return app
