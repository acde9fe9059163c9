"""The WebSocket API's edge: ``$connect``, ``$disconnect`` and ``ping`` events from API Gateway
(or the local runtime), the caller from the authorizer's context (with the token's ``iat`` and
``exp``: a deleted account's token is refused at $connect, an expired one's socket is closed at
its next ping), and the answers: $connect 401 for a deleted account, 429 while the player's
MAX_SOCKETS sockets are all still opening."""

from __future__ import annotations

import json
from typing import Any

from domino.api.errors import Unauthorized
from domino.engine.errors import InvalidInput
from domino.limits import MAX_NAME, MAX_PLAYER_ID, display_name, locale_tag
from domino.service.errors import AccountDeleted
from domino.service.live import LiveUpdates
from domino.service.values import Caller


def caller_of(request_context: dict[str, Any]) -> Caller:
    """The caller the authorizer verified at ``$connect`` (its context rides on every event of
    the connection), with when the token was issued (``iat``)."""
    context = request_context.get("authorizer") or {}
    player = context.get("sub") or context.get("principalId")
    if not isinstance(player, str) or not 0 < len(player) <= MAX_PLAYER_ID:
        raise Unauthorized()
    # the token's name and locale, read as over HTTP (domino.api.identity)
    name = context.get("name")
    shown = display_name(str(name), leave_out=True) if name else None
    locale = context.get("locale")
    return Caller(
        player,
        (shown or player)[:MAX_NAME],
        locale if isinstance(locale, str) and locale_tag(locale) else None,
        issued_at=seconds(context.get("iat")),
    )


def seconds(value: Any) -> int | None:
    """A time claim the authorizer passed on (a number, or its digits as a string)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def handle(event: dict[str, Any], live: LiveUpdates) -> dict[str, Any]:
    """One WebSocket event: the integration response API Gateway expects."""
    context = event.get("requestContext") or {}
    route = context.get("routeKey")
    connection = str(context.get("connectionId") or "")
    try:
        who = caller_of(context)
    except Unauthorized:
        return {"statusCode": 401, "body": json.dumps({"message": "Unauthorized"})}
    expires = seconds((context.get("authorizer") or {}).get("exp"))
    if route == "$connect":
        try:
            admitted = live.connect(who, connection, expires)
        except AccountDeleted:
            return {"statusCode": 401, "body": json.dumps({"message": "Unauthorized"})}
        if not admitted:  # the player's other sockets are all still opening
            return {"statusCode": 429, "body": json.dumps({"message": "Too many sockets"})}
        return {"statusCode": 200}
    if route == "$disconnect":
        live.disconnect(who, connection)
        return {"statusCode": 200}
    if route == "ping":
        pong = live.ping(who, connection, expires)  # None: the token expired, the socket closes
        return {"statusCode": 200, "body": pong} if pong else {"statusCode": 200}
    if route == "$default":
        try:
            body = json.loads(event.get("body") or "null")
        except (ValueError, RecursionError):
            body = None
        action = body.get("action") if isinstance(body, dict) else None
        if live.watching is not None and action in ("watch", "unwatch") and isinstance(body, dict):
            act = live.watching.watch if action == "watch" else live.watching.unwatch
            return {"statusCode": 200, "body": json.dumps(act(who, connection, body.get("game")))}
        if isinstance(body, dict) and body.get("action") == "resume":
            try:
                live.resume(who, connection, body.get("games"))
            except InvalidInput as bad:
                error = {"type": "error", "message": str(bad)}
                return {"statusCode": 200, "body": json.dumps(error)}
            return {"statusCode": 200}
    error = {
        "type": "error",
        "message": 'Unknown action: send {"action": "ping"}, {"action": "resume", "games"}, '
        '{"action": "watch", "game"} or {"action": "unwatch", "game"}.',
    }
    return {"statusCode": 200, "body": json.dumps(error)}
