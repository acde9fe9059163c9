"""The local runtime's own routes under ``/dev/``, which no deployed stack has.

``POST /dev/token`` signs a dev token (``local.tokens``), ``GET /dev/clock`` is the handlers'
clock and ``POST /dev/clock {"advance": seconds}`` moves it on, ``POST /dev/sweep`` runs every
scheduled function at once, ``GET /dev/pushes`` lists the pushes that would have reached a
phone and ``POST /dev/rating {"player", "pool", "mu", "sigma", "games"?}`` sets a player's
rating (204), through the store's own write, which keeps the leaderboard index and histogram in
step. Each is ``(handler, method, body)``, answered through the request handler; any other
method is 404 ``not_found`` as an unknown route is. What may reach them at all is
``local.guards.dev_refused``'s.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from local import tokens
from local.containers import InvocationFailed
from local.schedules import run_now

if TYPE_CHECKING:
    from local.handler import RequestHandler

PREFIX = "/dev/"
TOKEN_PATH = "/dev/token"
CLOCK_PATH = "/dev/clock"
SWEEP_PATH = "/dev/sweep"
PUSHES_PATH = "/dev/pushes"
RATING_PATH = "/dev/rating"
RATING_FIELDS = ("player", "pool", "mu", "sigma")
MAX_CLOCK_ADVANCE = 10 * 365 * 24 * 3600


def clock(handler: RequestHandler, method: str, body: bytes) -> None:
    """``GET /dev/clock``: the handlers' clock; ``POST {"advance": seconds}`` moves it on
    (turn deadlines are reached without waiting; it never goes back)."""
    dev_clock = handler.server.clock
    if dev_clock is None or method not in ("GET", "POST"):
        handler.no_route(method, CLOCK_PATH)
        return
    if method == "POST":
        try:
            request = json.loads(body or b"{}")
        except (ValueError, RecursionError):
            handler.fail(400, "invalid_request", "The body is not valid JSON.")
            return
        advance = request.get("advance") if isinstance(request, dict) else None
        if (
            not isinstance(advance, int | float)
            or isinstance(advance, bool)
            or not 0 <= advance <= MAX_CLOCK_ADVANCE
        ):
            handler.fail(
                400,
                "invalid_request",
                "advance must be a number of seconds from 0 to {max}.",
                max=MAX_CLOCK_ADVANCE,
            )
            return
        dev_clock.advance(float(advance))
    handler.send(200, json.dumps(dev_clock.describe()).encode())


def pushes(handler: RequestHandler, method: str, _body: bytes) -> None:
    """``GET /dev/pushes``: every push that would have reached a phone, oldest first."""
    sns = handler.server.sns
    if method != "GET" or sns is None:
        handler.no_route(method, PUSHES_PATH)
        return
    handler.send(200, json.dumps({"pushes": sns.pushes()}).encode())


def sweep(handler: RequestHandler, method: str, _body: bytes) -> None:
    """``POST /dev/sweep``: every scheduled function runs once, now (their results)."""
    if method != "POST":
        handler.no_route(method, SWEEP_PATH)
        return
    results = {}
    for source in handler.server.schedules:
        try:
            results[source.function] = run_now(source, handler.server.run_schedule)
        except InvocationFailed as err:
            sys.stderr.write(f"{source.function} failed:\n{err}\n")
            handler.fail(500, "internal", "Internal server error.", function=source.function)
            return
    handler.send(200, json.dumps(results).encode())


def token(handler: RequestHandler, method: str, body: bytes) -> None:
    """``POST /dev/token {"player": id, "name": display name, "locale": tag}``: a signed dev
    token (``name`` and ``locale`` optional, each a claim of the token)."""
    if method != "POST":
        handler.no_route(method, TOKEN_PATH)
        return
    try:
        request = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json can go
        handler.fail(400, "invalid_request", "The body is not valid JSON.")
        return
    if not isinstance(request, dict):
        handler.fail(400, "invalid_request", "The body must be a JSON object.")
        return
    try:
        signed = tokens.issue(
            handler.server.secret,
            request.get("player"),
            request.get("name"),
            locale=request.get("locale"),
        )
    except tokens.TokenRequestError as err:
        handler.fail(400, "invalid_request", err.template, **err.params)
        return
    handler.send(
        200,
        json.dumps(
            {"token": signed, "player": request["player"], "expires_in": tokens.LIFETIME_SECONDS}
        ).encode(),
    )


@lru_cache(maxsize=1)
def _ratings(table_name: str) -> Any:
    from domino.service.ratings import RatingQueries
    from domino.store.ratings import DynamoRatings
    from domino.store.table import Table

    return RatingQueries(DynamoRatings(Table(table_name)))  # AWS_ENDPOINT_URL_DYNAMODB: local


def rating(handler: RequestHandler, method: str, body: bytes) -> None:
    """``POST /dev/rating {"player", "pool", "mu", "sigma", "games"?}``: 204, the player's
    rating in the pool set outright (``games`` left out: the stored count, at least 10)."""
    table = handler.server.template.table_names().get("GameTable")
    if method != "POST" or table is None:
        handler.no_route(method, RATING_PATH)
        return
    try:
        request = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        handler.fail(400, "invalid_request", "The body is not valid JSON.")
        return
    if not isinstance(request, dict):
        handler.fail(400, "invalid_request", "The body must be a JSON object.")
        return
    wrong = [name for name in RATING_FIELDS if name not in request]
    wrong += [name for name in request if name not in (*RATING_FIELDS, "games")]
    for name in ("player", "pool"):
        if name in request and not isinstance(request[name], str):
            wrong.append(name)
    for name in ("mu", "sigma"):
        value = request.get(name)
        if name in request and (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
        ):
            wrong.append(name)
    games = request.get("games")
    if games is not None and (
        not isinstance(games, int) or isinstance(games, bool) or not 0 <= games <= 1_000_000
    ):
        wrong.append("games")
    if wrong:
        handler.fail(
            400,
            "invalid_request",
            "player and pool are text, mu and sigma numbers, games a whole number.",
            fields=sorted(set(wrong)),
        )
        return
    from domino.engine.errors import InvalidInput

    try:
        _ratings(table).set_rating(
            request["player"],
            request["pool"],
            float(request["mu"]),
            float(request["sigma"]),
            games,
            int(time.time()),
        )
    except InvalidInput as err:
        first = err.template.split(" ", 1)[0]  # "mu must be...", "sigma must be..."
        pool = "pool" in err.template or "played by" in err.template
        field = first if first in ("mu", "sigma") else "pool" if pool else "player"
        handler.fail(400, "invalid_request", err.template, **err.params, fields=[field])
        return
    handler.send(204, b"")


#: each dev route by its path
ROUTES: dict[str, Callable[[RequestHandler, str, bytes], None]] = {
    TOKEN_PATH: token,
    CLOCK_PATH: clock,
    SWEEP_PATH: sweep,
    PUSHES_PATH: pushes,
    RATING_PATH: rating,
}
