"""The HTTP API over the standard library's ``urllib``: JSON in and out, the contract's errors
as exceptions, and retries that never apply a change twice.

Every mutating request carries an ``Idempotency-Key`` (a fresh uuid4 per command, kept across
its retries), so a retry after a lost answer replays the first response instead of moving
again. A 503 ``unavailable`` is retried after its ``Retry-After`` a couple of times.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlencode

#: retries of a 503 after the first attempt, and the longest Retry-After we are willing to wait
RETRIES = 2
MAX_RETRY_AFTER_SECONDS = 10.0
TIMEOUT_SECONDS = 30.0
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
#: what a status means when the body is not the contract's (API Gateway answers 401 and 429
#: itself, as {"message": ...}: docs/api.md#deployed-differences)
CODE_OF_STATUS = {401: "unauthorized", 404: "not_found", 429: "throttled", 503: "unavailable"}


def game_path(game_id: str) -> str:
    """``/games/{id}``, the id escaped: whatever is typed stays one path segment."""
    return f"/games/{quote(game_id, safe='')}"


class ApiError(Exception):
    """An error answer of the API: ``{"error": {"code", "message", "params"}}``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        params: Any = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code, self.message, self.params = status, code, message, params
        #: seconds a 503 asks us to wait (its Retry-After header)
        self.retry_after = retry_after


class NetworkError(Exception):
    """The API could not be reached, or answered something that is not HTTP JSON."""


def accept_language() -> str:
    """``es`` or ``en`` (the API's two languages) from the POSIX locale variables."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return "es" if value.lower().startswith("es") else "en"
    return "en"


class Api:
    """One player's view of the API at ``base``."""

    def __init__(
        self,
        base: str,
        token: str | None,
        *,
        language: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.language = language or accept_language()
        self.sleep = sleep

    def get(self, path: str, **query: Any) -> Any:
        params = {k: v for k, v in query.items() if v is not None}
        return self.request("GET", path + (f"?{urlencode(params)}" if params else ""))

    def post(self, path: str, body: Any = None, *, if_match: int | None = None) -> Any:
        return self.request("POST", path, {} if body is None else body, if_match=if_match)

    def request(
        self, method: str, path: str, body: Any = None, *, if_match: int | None = None
    ) -> Any:
        headers = {"Accept": "application/json", "Accept-Language": self.language}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method in MUTATING:
            headers["Idempotency-Key"] = str(uuid.uuid4())
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            headers["Content-Type"] = "application/json"
        for attempt in range(RETRIES + 1):
            try:
                return self._send(method, path, data, headers)
            except ApiError as error:
                if error.code != "unavailable" or attempt == RETRIES:
                    raise
                wait = 1.0 if error.retry_after is None else error.retry_after
                self.sleep(min(wait, MAX_RETRY_AFTER_SECONDS))
        raise AssertionError("unreachable")  # pragma: no cover

    def _send(self, method: str, path: str, data: bytes | None, headers: dict[str, str]) -> Any:
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raise error_of(error.code, error.read(), error.headers.get("Retry-After")) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise NetworkError(f"cannot reach {self.base}: {reason}") from None
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            raise NetworkError(f"{self.base}{path} did not answer JSON") from None


def error_of(status: int, raw: bytes, retry_after: str | None) -> ApiError:
    """The contract's error from an error answer, with a 503's Retry-After."""
    try:
        body = json.loads(raw) if raw else {}
    except ValueError:
        body = {}
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and "code" in error:
        code, message, params = error["code"], error.get("message", ""), error.get("params")
    else:
        fallback = body.get("message") if isinstance(body, dict) else None
        code = CODE_OF_STATUS.get(status, f"http_{status}")
        message, params = str(fallback or f"HTTP {status}"), None
    wait = retry_seconds(retry_after) if status == 503 else None
    return ApiError(status, code, message, params, wait)


def retry_seconds(value: str | None) -> float:
    try:
        return max(float(value or 1), 0.0)
    except ValueError:
        return 1.0  # an HTTP date: not worth parsing for a wait this short
