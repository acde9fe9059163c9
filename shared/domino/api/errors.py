"""Every error the API answers: the contract's status per code (docs/api.md#errors), the edge's
own domain errors, and the one function that turns any ``DominoError`` into a response body.

The engine, the store and the service raise ``DominoError`` subclasses, each with its code;
``make_app`` installs one exception handler that answers them through ``error_parts``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domino.api.messages import translator
from domino.engine.errors import fill
from domino.service.errors import (
    Conflict,
    DominoError,
    IdempotencyKeyReused,
    InvalidInput,
    RequestInProgress,
    Throttled,
    Unavailable,
    VersionMismatch,
)

__all__ = [
    "STATUS_BY_CODE",
    "DominoError",
    "IdempotencyKeyReused",
    "Internal",
    "InvalidRequest",
    "PayloadTooLarge",
    "RequestInProgress",
    "RouteNotFound",
    "Unauthorized",
    "Unavailable",
    "error_parts",
    "etag",
    "view_headers",
]

STATUS_BY_CODE: dict[str, int] = {
    "invalid_request": 400,
    "dev_only": 400,
    "unauthorized": 401,
    "not_a_player": 403,
    "blocked": 403,
    "not_invited": 403,
    "game_not_found": 404,
    "not_found": 404,
    "game_full": 409,
    "already_joined": 409,
    "seat_taken": 409,
    "conflict": 409,
    "already_searching": 409,
    "already_matched": 409,
    "already_nudged": 409,
    "vacation_exhausted": 422,
    "match_not_over": 409,
    "version_mismatch": 412,
    "payload_too_large": 413,
    "not_your_turn": 422,
    "game_not_in_progress": 422,
    "tile_not_in_hand": 422,
    "tile_does_not_match": 422,
    "end_required": 422,
    "must_lead_opening_tile": 422,
    "must_play": 422,
    "cannot_draw": 422,
    "cannot_pass": 422,
    "cannot_cede": 422,
    "must_satisfy_double": 422,
    "turn_timed_out": 422,
    "idempotency_key_reused": 422,
    "throttled": 429,
    "internal": 500,
    "unavailable": 503,
}


#: one sentence of a message: an English template and its params
Part = tuple[str, dict[str, Any]]


class InvalidRequest(InvalidInput):
    """A request the edge refuses before any use case runs; ``fields`` names what failed
    (also sent as ``params.fields``), ``parts`` holds one sentence per failing field."""

    def __init__(
        self, message: str, fields: list[str] | None = None, parts: list[Part] | None = None
    ) -> None:
        super().__init__(message)
        self.fields = fields
        self.parts = parts or [(message, {})]
        if fields is not None:
            self.params["fields"] = fields

    @classmethod
    def of(cls, parts: list[Part], fields: list[str]) -> InvalidRequest:
        return cls(" ".join(fill(t, p) for t, p in parts), fields, parts)

    def say(self, translate: Callable[[str], str]) -> str:
        return " ".join(fill(translate(template), params) for template, params in self.parts)


class Unauthorized(DominoError):
    code = "unauthorized"

    def __init__(self, message: str = "A valid bearer token is required.") -> None:
        super().__init__(message)


class RouteNotFound(DominoError):
    code = "not_found"

    def __init__(self, method: str, path: str) -> None:
        super().__init__("No route for {method} {path}.", method=method, path=path[:200])


class PayloadTooLarge(DominoError):
    code = "payload_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__("Bodies are limited to {max} bytes.", max=limit)


class Internal(DominoError):
    """Anything unexpected: nothing internal is said."""

    code = "internal"

    def __init__(self) -> None:
        super().__init__("Internal server error.")


def error_parts(
    err: DominoError, language: str = "en"
) -> tuple[int, dict[str, Any], dict[str, str]]:
    """Status, body and headers of the answer to ``err``: ``{"error": {"code", "message",
    "params", "fields"?}}`` with the message in ``language``, plus the game as the caller may
    see it for a stale or lost change."""
    error: dict[str, Any] = {
        "code": err.code,
        "message": err.say(translator(language)),
        "params": err.params,
    }
    fields = getattr(err, "fields", None)
    if fields is not None:
        error["fields"] = fields
    body: dict[str, Any] = {"error": error}
    headers: dict[str, str] = {"Content-Language": language}
    if isinstance(err, VersionMismatch):
        body["game"] = err.current.view
        headers.update(view_headers(err.current.version, err.current.viewer))
    elif isinstance(err, Conflict) and err.current is not None:
        body["game"] = err.current.view
    body.update(getattr(err, "beside", None) or {})  # what a 409 holds beside its error
    retry_after = getattr(err, "retry_after", None)
    if isinstance(err, Unavailable | Conflict | Throttled) and retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return STATUS_BY_CODE[err.code], body, headers


#: a game view or a page of its moves: phones' HTTP caches keep it for the caller alone, keyed by
#: their token, and ask again with If-None-Match before using it (a 304 costs no body). The
#: public view carries the same: it answers one authenticated caller, and the same URL answers a
#: seated caller with their hand (docs/decisions.md, "Caching a view").
PRIVATE = "private, no-cache"


def etag(version: int, viewer: int | None) -> str:
    """A game view's entity tag: its version and whose view it is, the caller's seat or ``p``
    for the public view (``"4-1"``, ``"4-p"``), so that no If-None-Match or cache takes one
    player's view for another's."""
    return f'"{version}-{"p" if viewer is None else viewer}"'


def view_headers(version: int, viewer: int | None) -> dict[str, str]:
    """The caching headers of an answer that shows a game as one viewer sees it."""
    return {"ETag": etag(version, viewer), "Vary": "Authorization", "Cache-Control": PRIVATE}
