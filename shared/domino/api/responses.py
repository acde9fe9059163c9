"""The answers of the routes: a ``Reply`` (what an idempotency record keeps), a game as its
viewer sees it with the caching headers, a page of a list, 304 to a GET whose If-None-Match
names the answer's ETag, 204, and the body of ``GET /rules``. Errors are answered in one place,
``app.error_response``."""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

from domino.api.app import json_response
from domino.api.errors import view_headers
from domino.api.request import header
from domino.engine import DEFAULT_LEVEL, LEVELS, PRESETS
from domino.service.values import GameSeen, Page


class Reply(NamedTuple):
    """A successful answer: what the idempotency record keeps and a replay returns."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


def tagged(
    body: dict[str, Any], version: int, viewer: int | None, status: int = 200, **headers: str
) -> Reply:
    """An answer about a game as ``viewer`` (a seat; None: the public view) sees it: the ETag
    names the version and the viewer, ``Vary: Authorization``, private to the caller."""
    return Reply(status, body, {**view_headers(version, viewer), **headers})


def seen(game: GameSeen, status: int = 200, **headers: str) -> Reply:
    """A game as the caller sees it (their hand in ``you`` when they have a seat)."""
    if game.replayed:  # the answer of an earlier request with this key: not a new change
        headers["Idempotency-Replayed"] = "true"
    return tagged(game.view, game.version, game.viewer, status, **headers)


def respond(reply: Reply, app: APIGatewayHttpResolver | None = None) -> Response[Any]:
    """The answer; to a GET whose If-None-Match names its ETag, 304 without a body."""
    if app is not None and not_modified(app, reply.headers.get("ETag")):
        return Response(status_code=304, body="", headers=reply.headers)
    return json_response(reply.status, reply.body, reply.headers)


def respond_page(app: APIGatewayHttpResolver, page: Page, key: str, **more: Any) -> Response[Any]:
    """A page of a list, its ETag a digest of the page; each caller's own (``Vary``)."""
    body = {key: page.items, **more, "next": page.next}
    return respond(Reply(200, body, {"ETag": digest_tag(body), "Vary": "Authorization"}), app)


def respond_digest(app: APIGatewayHttpResolver, body: dict[str, Any]) -> Response[Any]:
    """An answer whose ETag is a digest of its body (a leaderboard, a player's profile)."""
    return respond(Reply(200, body, {"ETag": digest_tag(body), "Vary": "Authorization"}), app)


def digest_tag(body: dict[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:20]
    return f'W/"{digest}"'


def not_modified(app: APIGatewayHttpResolver, tag: str | None) -> bool:
    """Whether the GET's If-None-Match names ``tag`` (RFC 9110: weak comparison, ``*``)."""
    asked = header(app, "If-None-Match")
    if not asked or not tag or app.current_event.http_method != "GET":
        return False
    wanted = tag.removeprefix("W/")
    return any(t.strip() == "*" or t.strip().removeprefix("W/") == wanted for t in asked.split(","))


def no_content() -> Response[Any]:
    return Response(status_code=204, body="")


def preset_list() -> dict[str, Any]:
    """``GET /rules``: every preset with its name, source, player range and rules, and the
    computer players' levels (weakest first) with the default."""
    return {
        "presets": [preset.describe() for preset in PRESETS.values()],
        "bot_levels": list(LEVELS),
        "default_bot_level": DEFAULT_LEVEL,
    }
