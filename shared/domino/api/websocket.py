"""The WebSocket API's edge: ``$connect``, ``$disconnect`` and ``ping`` events from API Gateway
(or the local runtime), the caller from the authorizer's context, and the answers."""

from __future__ import annotations

import json
from typing import Any

from domino.api.errors import Unauthorized
from domino.limits import MAX_LOCALE, MAX_NAME, MAX_PLAYER_ID
from domino.service.live import PONG, LiveUpdates
from domino.service.values import Caller


def caller_of(request_context: dict[str, Any]) -> Caller:
    """The caller the authorizer verified at ``$connect`` (its context rides on every event of
    the connection)."""
    context = request_context.get("authorizer") or {}
    player = context.get("sub") or context.get("principalId")
    if not isinstance(player, str) or not 0 < len(player) <= MAX_PLAYER_ID:
        raise Unauthorized()
    name = context.get("name") or player
    locale = context.get("locale")
    return Caller(
        player,
        str(name)[:MAX_NAME],
        locale[:MAX_LOCALE] if isinstance(locale, str) and locale else None,
    )


def handle(event: dict[str, Any], live: LiveUpdates) -> dict[str, Any]:
    """One WebSocket event: the integration response API Gateway expects."""
    context = event.get("requestContext") or {}
    route = context.get("routeKey")
    connection = str(context.get("connectionId") or "")
    try:
        who = caller_of(context)
    except Unauthorized:
        return {"statusCode": 401, "body": json.dumps({"message": "Unauthorized"})}
    if route == "$connect":
        live.connect(who, connection)
        return {"statusCode": 200}
    if route == "$disconnect":
        live.disconnect(who, connection)
        return {"statusCode": 200}
    if route == "ping":
        return {"statusCode": 200, "body": PONG}
    error = {"type": "error", "message": 'Unknown action: send {"action": "ping"}.'}
    return {"statusCode": 200, "body": json.dumps(error)}
