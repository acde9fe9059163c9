"""What a route reads of its request besides the body: the caller and a header."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from domino.api.identity import caller_from_event
from domino.service.values import Caller

__all__ = ["Caller", "caller", "header"]


def caller(app: APIGatewayHttpResolver) -> Caller:
    return caller_from_event(app.current_event.raw_event)


def header(app: APIGatewayHttpResolver, name: str) -> str | None:
    headers = app.current_event.headers or {}
    return headers.get(name.lower()) or headers.get(name)
