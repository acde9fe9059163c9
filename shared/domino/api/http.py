"""Glue between a route and the service: the composition root, the caller, headers,
idempotency, responses, and the Lambda entry point every function goes through.

Every mutating route honours an ``Idempotency-Key``: a retry with the same key and body gets
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
import time
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.metrics import MetricUnit
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

from domino.api.app import json_response
from domino.api.errors import (
    IdempotencyKeyReused,
    InvalidRequest,
    RequestInProgress,
    Unavailable,
    view_headers,
)
from domino.api.identity import caller_from_event
from domino.api.models import parse_if_match
from domino.api.settings import settings
from domino.engine import DEFAULT_LEVEL, LEVELS, PRESETS
from domino.service.games import GameService
from domino.service.values import Caller, GameSeen, Keyed, Page
from domino.store.accounts import DynamoAccounts
from domino.store.dynamo import DynamoGameStore
from domino.store.errors import throttled
from domino.store.replies import DynamoReplies
from domino.store.table import Table

__all__ = [
    "Caller",
    "Reply",
    "account_store",
    "accounts",
    "caller",
    "count",
    "devices",
    "entry_point",
    "game_command",
    "header",
    "inbox",
    "lambda_handler",
    "live",
    "mutate",
    "no_content",
    "notifier",
    "preset_list",
    "respond",
    "respond_page",
    "seen",
    "service",
    "stream_consumer",
    "tagged",
]

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import (
        DynamoDBRecord,
    )
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

    from domino.notify.sns import SnsPush
    from domino.notify.websocket import ApiGatewayConnections
    from domino.service.accounts import Accounts
    from domino.service.devices import Devices
    from domino.service.inbox import InboxQueries, Notifier
    from domino.service.live import LiveUpdates
    from domino.service.ports import Channel
    from domino.service.timers import Timers, TurnTimers
    from domino.store.connections import DynamoConnections
    from domino.store.devices import DynamoDevices

logger = Logger(service="domino")
metrics = Metrics(namespace="Domino", service="domino")

IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
IDEMPOTENCY_SECONDS = 24 * 3600
#: the records' id prefix, the same in every function: a key is one record whatever its route
KEY_PREFIX = "domino"

Parsed = TypeVar("Parsed")


class Reply(NamedTuple):
    """A successful answer: what the idempotency record keeps and a replay returns."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


_pending: contextvars.ContextVar[Callable[[], Reply]] = contextvars.ContextVar("pending")


@lru_cache(maxsize=1)
def table() -> Table:
    """The game table's client, built once per container (module scope would cost cold starts
    of routes that never touch it)."""
    config = settings()
    return Table(config.table_name, track_capacity=config.track_capacity)


@lru_cache(maxsize=1)
def service() -> GameService:
    config = settings()
    clock = offset_clock(config.dev_clock_file) if config.dev_clock_file else time.time
    replies = DynamoReplies(table().sibling(config.idempotency_table), IDEMPOTENCY_SECONDS)
    return GameService(
        DynamoGameStore(table()),
        dev_mode=config.dev_mode,
        clock=clock,
        accounts=account_store(),
        replies=replies,
        bot_budget_ms=config.bot_budget_ms,
    )


@lru_cache(maxsize=1)
def account_store() -> DynamoAccounts:
    """Profiles (the names players choose) and account deletion's work in the table."""
    return DynamoAccounts(table())


def offset_clock(path: str) -> Callable[[], float]:
    """Dev mode's clock: the system's plus the seconds the file holds (0 while it is absent)."""

    def now() -> float:
        try:
            with open(path) as file:
                return time.time() + float(file.read().strip() or 0)
        except (OSError, ValueError):
            return time.time()

    return now


# The inbox's modules load only in the functions that use them (cold starts of the others).


@lru_cache(maxsize=1)
def inbox() -> InboxQueries:
    from domino.service.inbox import InboxQueries
    from domino.store.inbox import DynamoInbox

    return InboxQueries(DynamoInbox(table()), device_store())


@lru_cache(maxsize=1)
def notifier() -> Notifier:
    from domino.service.devices import PushChannel
    from domino.service.inbox import Notifier
    from domino.service.reach import ChangeReach, ReachConnections, ReachDevices
    from domino.store.inbox import DynamoInbox
    from domino.store.reach import DynamoReach

    games = service().store
    clock = service().commands.writes.clock
    # one query a player a change for both channels: their devices and sockets sort together
    reach = ChangeReach(DynamoReach(table()), clock)
    channels: list[Channel] = [
        PushChannel(
            ReachDevices(device_store(), reach), push(), lambda p: len(games.games_on_turn(p))
        )
    ]
    live_channel = None
    sockets = socket_gateway()
    if sockets is not None:
        from domino.service.live import LiveChannel

        live_channel = LiveChannel(ReachConnections(connection_store(), reach), sockets, clock)
        channels.append(live_channel)
    return Notifier(DynamoInbox(table()), channels, live_channel, reach)


@lru_cache(maxsize=1)
def timers() -> Timers:
    """The timers' queue (None without ``TIMER_QUEUE_URL``: then no timer is set, and a due
    one still fires) and the handler of each kind."""
    from domino.service.timers import TURN, Timers
    from domino.store.timers import SqsTimerQueue

    games = service()
    url = settings().timer_queue_url
    queue = SqsTimerQueue(url) if url else None
    return Timers(queue, games.commands.writes.clock, {TURN: games.sweeper.on_turn_timer})


@lru_cache(maxsize=1)
def turn_timers() -> TurnTimers | None:
    """What the stream sets turn timers with (None: no timer queue, the sweep alone)."""
    if not settings().timer_queue_url:
        return None
    from domino.service.timers import TurnTimers

    return TurnTimers(timers())


@lru_cache(maxsize=1)
def socket_gateway() -> ApiGatewayConnections | None:
    """The WebSocket API's management API (None: the stack has no WebSocket endpoint)."""
    if not settings().ws_endpoint:
        return None
    from domino.notify.websocket import ApiGatewayConnections

    return ApiGatewayConnections(settings().ws_endpoint)


@lru_cache(maxsize=1)
def live() -> LiveUpdates:
    from domino.service.live import LiveUpdates

    return LiveUpdates(connection_store(), service().commands.writes.clock, socket_gateway())


@lru_cache(maxsize=1)
def connection_store() -> DynamoConnections:
    from domino.store.connections import DynamoConnections

    return DynamoConnections(table())


@lru_cache(maxsize=1)
def devices() -> Devices:
    from domino.service.devices import Devices

    return Devices(
        device_store(), push(), service().commands.writes.clock, accounts=account_store()
    )


@lru_cache(maxsize=1)
def accounts() -> Accounts:
    """``/me``: the profile, and deleting the account (and the stack's user pool's user)."""
    from domino.service.accounts import Accounts

    identity = None
    if settings().cognito_user_pool_id:
        from domino.idp.cognito import CognitoUsers

        identity = CognitoUsers(settings().cognito_user_pool_id)
    return Accounts(
        account_store(), service().commands, device_store(), push(), identity, live=live()
    )


@lru_cache(maxsize=1)
def device_store() -> DynamoDevices:
    from domino.store.devices import DynamoDevices

    return DynamoDevices(table())


@lru_cache(maxsize=1)
def push() -> SnsPush:
    from domino.notify.sns import SnsPush

    return SnsPush(settings().push_applications)


@lru_cache(maxsize=1)
def _idempotency() -> tuple[
    IdempotencyConfig, DynamoDBPersistenceLayer, Callable[..., dict[str, Any]]
]:
    config = IdempotencyConfig(
        event_key_jmespath="key",
        payload_validation_jmespath="payload",
        expires_after_seconds=IDEMPOTENCY_SECONDS,
        raise_on_no_idempotency_key=True,
    )
    persistence = DynamoDBPersistenceLayer(table_name=settings().idempotency_table)

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


# ---------------------------------------------------------------------- requests and answers


def caller(app: APIGatewayHttpResolver) -> Caller:
    return caller_from_event(app.current_event.raw_event)


def header(app: APIGatewayHttpResolver, name: str) -> str | None:
    headers = app.current_event.headers or {}
    return headers.get(name.lower()) or headers.get(name)


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


def count(metric: str, value: int = 1) -> None:
    """One business metric per accepted command (games_created, moves_played, ...)."""
    if settings().metrics_enabled and value:
        metrics.add_metric(name=metric, unit=MetricUnit.Count, value=value)


# ---------------------------------------------------------------------- commands


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
    config, _, run_once = _idempotency()
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


# ---------------------------------------------------------------------- the entry point


def stream_consumer(
    on_record: Callable[[DynamoDBRecord], None],
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of a DynamoDB stream function: Powertools' batch processing calls
    ``on_record`` for each record in order and reports the failed ones (ReportBatchItemFailures),
    from which the stream retries; through ``entry_point``, with metrics."""
    return _batch_consumer(on_record, "DynamoDBStreams")


def queue_consumer(
    on_record: Callable[[SQSRecord], None],
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of an SQS function, as ``stream_consumer``: the failed messages
    are reported and come back after the queue's visibility timeout."""
    return _batch_consumer(on_record, "SQS")


def _batch_consumer(
    on_record: Callable[[Any], None], event_type: str
) -> Callable[[dict[str, Any], Any], Any]:
    # the batch utility loads only in stream and queue functions (the API functions' cold starts)
    from aws_lambda_powertools.utilities.batch import (
        BatchProcessor,
        EventType,
        process_partial_response,
    )

    processor = BatchProcessor(event_type=EventType[event_type])

    def consume(event: dict[str, Any], context: Any) -> Any:
        return process_partial_response(
            event=event, record_handler=on_record, processor=processor, context=context
        )

    return entry_point(consume, records_metrics=True)


def lambda_handler(
    app: APIGatewayHttpResolver, *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], Any]:
    """The Lambda entry point of an API function: ``entry_point`` around the routing."""

    def handler(event: dict[str, Any], context: Any) -> Any:
        return app.resolve(event, context)

    return entry_point(handler, records_metrics=records_metrics)


def entry_point(
    handler: Callable[[dict[str, Any], Any], Any], *, records_metrics: bool = False
) -> Callable[[dict[str, Any], Any], Any]:
    """Every function's handler wrapped the same way: settings checked at startup, logging
    context cleared per invocation with the request's correlation id, tracing, metrics.

    The X-Ray SDK behind Powertools Tracer adds about 190 ms to every cold start, so it is
    loaded only where detailed tracing is switched on (template parameter DetailedTracing);
    Lambda's active tracing records every invocation either way.
    """
    config = settings()  # a function without its configuration fails here, at startup
    inner = handler

    def correlated(event: dict[str, Any], context: Any) -> Any:
        # API Gateway's request id (stream and schedule events have none)
        logger.set_correlation_id((event.get("requestContext") or {}).get("requestId"))
        return inner(event, context)

    handler = correlated
    if records_metrics and config.metrics_enabled:
        handler = metrics.log_metrics(handler)
    if config.tracing_enabled:
        from aws_lambda_powertools import Tracer

        tracer = Tracer(service="domino")
        handler = tracer.capture_lambda_handler(handler, capture_response=False)
    # never the event, whatever POWERTOOLS_LOGGER_LOG_EVENT says: an HTTP event holds the
    # caller's bearer token (the Authorization header) and a stream event every hand
    return logger.inject_lambda_context(handler, clear_state=True, log_event=False)
