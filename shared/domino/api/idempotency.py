"""Every mutating route honours an ``Idempotency-Key``: a retry with the same key and body gets
the first successful response for 24 hours (keys scoped to the caller; "the same body" is the
same method, path and JSON, anything else with that key is 422 idempotency_key_reused). The
commands on a game (join, play, draw, pass, leave) keep it with the game (``game_command``:
the game item remembers the key, a compact record keeps the answer); the others go through
``mutate``, Powertools Idempotency. Both keep their records in one table under one id per key
(``KEY_PREFIX``), so a key used on one route is refused on another.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyInconsistentStateError,
    IdempotencyPersistenceLayerError,
    IdempotencyValidationError,
)

from domino.api.entry import count
from domino.api.errors import IdempotencyKeyReused, InvalidRequest, RequestInProgress, Unavailable
from domino.api.models import parse_if_match
from domino.api.request import caller, header
from domino.api.responses import Reply, respond, seen
from domino.api.settings import settings
from domino.api.wiring import IDEMPOTENCY_SECONDS, service
from domino.service.values import Caller, GameSeen, Keyed
from domino.store.clients import aws_client
from domino.store.errors import throttled
from domino.store.table import settle_riding

logger = Logger(service="domino")

IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
#: the records' id prefix, the same in every function: a key is one record whatever its route
KEY_PREFIX = "domino"

Parsed = TypeVar("Parsed")

_pending: contextvars.ContextVar[Callable[[], Reply]] = contextvars.ContextVar("pending")


@lru_cache(maxsize=1)
def _records() -> tuple[IdempotencyConfig, DynamoDBPersistenceLayer, Callable[..., dict[str, Any]]]:
    """Powertools' records of ``mutate``: its config, its persistence layer (the idempotency
    table) and the function it runs once per key, built once per container."""
    config = IdempotencyConfig(
        event_key_jmespath="key",
        payload_validation_jmespath="payload",
        expires_after_seconds=IDEMPOTENCY_SECONDS,
        raise_on_no_idempotency_key=True,
    )
    # a client of the process's one session: a session of Powertools' own would read
    # botocore's models again (store/clients.py)
    persistence = DynamoDBPersistenceLayer(
        table_name=settings().idempotency_table, boto3_client=aws_client("dynamodb")
    )

    @idempotent_function(  # type: ignore[untyped-decorator]  # Powertools: untyped
        data_keyword_argument="request",
        persistence_store=persistence,
        config=config,
        key_prefix=KEY_PREFIX,
    )
    def run_once(request: dict[str, Any]) -> dict[str, Any]:
        reply = _pending.get()()
        return {"status": reply.status, "body": reply.body, "headers": reply.headers}

    return config, persistence, run_once


def game_command(
    app: APIGatewayHttpResolver,
    game_id: str,
    metric: str,
    parse: Callable[[str | None], Parsed],
    run: Callable[[Caller, str, Parsed, int | None, Keyed | None], GameSeen],
) -> Response[Any]:
    """A command on one game (join, play, draw, pass, leave): the body read by ``parse`` and
    ``If-Match`` into the expected version, then ``run``, which answers a retry with the same
    Idempotency-Key from what it kept with the game."""
    who = caller(app)
    keyed = keyed_request(app, who)
    raw, if_match = app.current_event.body, header(app, "If-Match")
    try:
        parsed = parse(raw)
        expected = parse_if_match(if_match) if if_match is not None else None
    except InvalidRequest:
        service().queries.load(game_id)  # the contract answers 404 before 400
        raise
    game = run(who, game_id, parsed, expected, keyed)
    if not game.replayed:
        count(metric)  # a replay is not a second move
    return respond(seen(game))


def keyed_request(app: APIGatewayHttpResolver, who: Caller) -> Keyed | None:
    """The request's Idempotency-Key as its record's id and the request's hash, computed as
    Powertools computes them for ``mutate`` (md5 of the JSON of ``idempotency_request``'s
    parts), so that the two kinds of record are one under a key."""
    request = idempotency_request(app, who)
    if request is None:
        return None
    return Keyed(f"{KEY_PREFIX}#{_md5_json(request['key'])}", _md5_json(request["payload"]))


def _md5_json(value: str) -> str:
    encoded = json.dumps(value, sort_keys=True).encode()
    return hashlib.md5(encoded, usedforsecurity=False).hexdigest()  # Powertools' default


def idempotency_request(app: APIGatewayHttpResolver, who: Caller) -> dict[str, str] | None:
    """The Idempotency-Key (None without one; 400 for a malformed one) and a hash of the
    request it was sent with: the same method, path and JSON are the same request."""
    key = header(app, "Idempotency-Key")
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise InvalidRequest("Idempotency-Key must be 1-128 letters, digits or _ . : -")
    event = app.current_event
    body = event.body or ""
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True) if body.strip() else ""
    except (ValueError, RecursionError):  # not JSON: the command refuses it, as text it is a key
        canonical = body
    return {  # the key is the caller's; reusing it on another route is another body
        "key": f"{who.player}|{key}",
        "payload": hashlib.sha256(
            f"{event.http_method} {event.path} {canonical}".encode()
        ).hexdigest(),
    }


def mutate(
    app: APIGatewayHttpResolver,
    command: Callable[[Caller], Reply],
    metric: str,
    precheck: Callable[[], object] | None = None,
) -> Response[Any]:
    """Run a mutating command once per ``Idempotency-Key`` (when the client sends one).

    ``precheck`` raises what the request itself is refused for (404, 400): a key reused with
    such a request answers that, as the contract's order of checks says, not 422."""
    who = caller(app)
    request = idempotency_request(app, who)
    ran: list[Reply] = []

    def run() -> Reply:
        reply = command(who)
        count(metric)  # only when the command ran: a replay is not a second move
        ran.append(reply)
        return reply

    if request is None:
        return respond(run())
    settle_riding()  # Powertools writes the key's record with its own client: the ban first
    config, _, run_once = _records()
    config.register_lambda_context(app.lambda_context)
    token = _pending.set(run)
    try:
        stored = run_once(request=request)
    except IdempotencyValidationError:
        if precheck is not None:
            precheck()
        raise IdempotencyKeyReused() from None
    except (IdempotencyAlreadyInProgressError, IdempotencyInconsistentStateError):
        # inconsistent: the key's record changed under Powertools' retries; it settles
        raise RequestInProgress() from None
    except IdempotencyPersistenceLayerError as err:
        if ran:  # the command was applied and only recording its answer failed: answer it
            logger.warning("idempotency record not saved", exc_info=True)
            return respond(ran[0])
        if throttled(err):
            raise Unavailable() from None
        raise
    finally:
        _pending.reset(token)
    headers = dict(stored["headers"])
    if not ran:  # the answer of an earlier request with this key: say so (it is not a new move)
        headers["Idempotency-Replayed"] = "true"
    return respond(Reply(stored["status"], stored["body"], headers))
