"""Build the API Gateway HTTP API (payload v2.0) event Lambda would receive, load handlers from
the template's CodeUri and invoke them in-process with a Lambda-like context."""

from __future__ import annotations

import base64
import importlib.util
import json
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]

_load_lock = threading.Lock()
_handlers: dict[tuple[Path, str], Handler] = {}


def http_event(
    method: str,
    path: str,
    *,
    route_key: str | None = None,
    path_parameters: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    body: str | bytes | dict[str, Any] | None = None,
    claims: dict[str, str] | None = None,
    source_ip: str = "127.0.0.1",
) -> dict[str, Any]:
    """An HTTP API v2 event; ``path`` may carry a query string."""
    split = urlsplit(path)
    query: dict[str, str] = {}
    for key, value in parse_qsl(split.query, keep_blank_values=True):
        query[key] = f"{query[key]},{value}" if key in query else value  # v2 joins repeats
    lowered = {key.lower(): value for key, value in (headers or {}).items()}
    is_base64 = False
    text: str | None
    if isinstance(body, dict):
        text = json.dumps(body)
        lowered.setdefault("content-type", "application/json")
    elif isinstance(body, bytes):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text, is_base64 = base64.b64encode(body).decode(), True
    else:
        text = body
    now = datetime.now(UTC)
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route_key or "$default",
        "rawPath": split.path,
        "rawQueryString": split.query,
        "headers": lowered,
        "requestContext": {
            "accountId": "000000000000",
            "apiId": "local",
            "domainName": lowered.get("host", "127.0.0.1"),
            "domainPrefix": "local",
            "http": {
                "method": method.upper(),
                "path": split.path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": lowered.get("user-agent", ""),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": route_key or "$default",
            "stage": "$default",
            "time": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
            "timeEpoch": int(now.timestamp() * 1000),
        },
        "isBase64Encoded": is_base64,
    }
    if query:
        event["queryStringParameters"] = query
    if path_parameters:
        event["pathParameters"] = path_parameters
    if text is not None:
        event["body"] = text
    if claims is not None:
        event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    if "cookie" in lowered:
        event["cookies"] = [c.strip() for c in lowered["cookie"].split(";")]
    return event


@dataclass
class LambdaContext:
    """What Powertools and the handlers read from Lambda's context object."""

    function_name: str
    memory_limit_in_mb: int = 512
    timeout_seconds: float = 10.0
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    function_version: str = "$LATEST"
    log_group_name: str = "/aws/lambda/local"
    log_stream_name: str = "local"
    started: float = field(default_factory=time.monotonic)

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:000000000000:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        left = self.timeout_seconds - (time.monotonic() - self.started)
        return max(0, int(left * 1000))


def load_handler(code_uri: Path, handler: str) -> Handler:
    """Import ``CodeUri/<module>.py`` under a unique module name (every function has an app.py)."""
    module_name, _, attr = handler.rpartition(".")
    key = (code_uri.resolve(), handler)
    with _load_lock:
        if key not in _handlers:
            file = code_uri / f"{module_name.replace('.', '/')}.py"
            unique = f"domino_fn_{code_uri.name}_{module_name.replace('.', '_')}"
            spec = importlib.util.spec_from_file_location(unique, file)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot load handler module {file}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[unique] = module
            spec.loader.exec_module(module)
            _handlers[key] = getattr(module, attr)
        return _handlers[key]
