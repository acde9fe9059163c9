"""Every error the API answers, with its contract status and code (API.md "Errors").

Domain code raises ``ApiError`` (or an engine error, whose ``code`` maps here); the resolver
factory turns either into ``{"error": {"code", "message"}}`` in one place.
"""

from __future__ import annotations

from typing import Any

STATUS_BY_CODE: dict[str, int] = {
    "invalid_request": 400,
    "dev_only": 400,
    "unauthorized": 401,
    "not_a_player": 403,
    "game_not_found": 404,
    "not_found": 404,
    "game_full": 409,
    "already_joined": 409,
    "seat_taken": 409,
    "conflict": 409,
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
    "idempotency_key_reused": 422,
    "throttled": 429,
    "internal": 500,
    "unavailable": 503,
}


class ApiError(Exception):
    """An answer other than success: ``code`` decides the status (STATUS_BY_CODE)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        fields: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = STATUS_BY_CODE[code]
        self.extra = extra or {}
        self.headers = headers or {}
        self.fields = fields

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.fields is not None:
            error["fields"] = self.fields
        return {"error": error, **self.extra}


def unavailable() -> ApiError:
    """DynamoDB throttled after the SDK's retries: 503 and when to come back."""
    return ApiError(
        "unavailable", "The service is busy; retry shortly.", headers={"Retry-After": "1"}
    )
