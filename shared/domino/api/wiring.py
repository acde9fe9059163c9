"""The composition root: the service, the stores and the channels built from the settings, each
once per container and only in the functions that use it (cold starts of the others)."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import TYPE_CHECKING

from domino.api.settings import settings
from domino.service.clock import Clock
from domino.service.facade import GameService
from domino.store.accounts import DynamoAccounts
from domino.store.dynamo import DynamoGameStore
from domino.store.live import DynamoLiveGames
from domino.store.opponents import DynamoOpponents
from domino.store.replies import DynamoReplies
from domino.store.table import Table

if TYPE_CHECKING:
    from domino.notify.sns import SnsPush
    from domino.notify.websocket import ApiGatewayConnections
    from domino.service.accounts import Accounts
    from domino.service.analyses import Analyses
    from domino.service.devices import Devices, PushChannel
    from domino.service.gestures import Gestures
    from domino.service.inbox import InboxQueries, Notifier
    from domino.service.live import LiveUpdates
    from domino.service.matchmaking import QuickMatch
    from domino.service.moderation import Moderation
    from domino.service.ports import Channel
    from domino.service.quiet import QuietSummary
    from domino.service.ratings import RatingQueries
    from domino.service.reach import ChangeReach
    from domino.service.safety import Safety
    from domino.service.tally import MatchTally
    from domino.service.timers import Timers, TurnTimers
    from domino.service.vacations import Vacations
    from domino.store.connections import DynamoConnections
    from domino.store.devices import DynamoDevices
    from domino.store.quiet import DynamoHeld, Held
    from domino.store.ratings import DynamoRatings
    from domino.store.watchers import DynamoWatchers

#: how long a command's answer is kept for a retry with its Idempotency-Key
IDEMPOTENCY_SECONDS = 24 * 3600


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
    games = GameService(
        DynamoGameStore(table()),
        dev_mode=config.dev_mode,
        clock=clock,
        accounts=account_store(),
        replies=replies,
        bot_budget_ms=config.bot_budget_ms,
        opponents=DynamoOpponents(table()),
        live_games=DynamoLiveGames(table()),
    )
    # invitations and rematches refuse a blocked pair; safety's store is built on first use
    games.commands.blocked = lambda a, b: safety().blocked_between(a, b)
    # a quiet window or a vacation whose timer was lost: the sweep ends it
    games.sweeper.player_due = {
        "HELD": lambda player: quiet_summary().fire(player),
        "VACATION": lambda player: vacations().on_end(player),
    }
    return games


@lru_cache(maxsize=1)
def account_store() -> DynamoAccounts:
    """Profiles (the names players choose) and account deletion's work in the table."""
    return DynamoAccounts(table())


def offset_clock(path: str) -> Clock:
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
    from domino.store.reach import DynamoReach

    return InboxQueries(DynamoInbox(table()), DynamoReach(table()), service().commands.writes.clock)


@lru_cache(maxsize=1)
def change_reach() -> ChangeReach:
    """One query a player a change for both channels: their devices, sockets and notification
    settings sort together (reset by the notifier at each change)."""
    from domino.service.reach import ChangeReach
    from domino.store.reach import DynamoReach

    return ChangeReach(DynamoReach(table()), service().commands.writes.clock)


@lru_cache(maxsize=1)
def push_channel() -> PushChannel:
    from domino.service.devices import PushChannel
    from domino.service.quiet import QuietHold, QuietHours
    from domino.service.reach import ReachDevices, player_locale

    games = service().store
    reach = change_reach()
    hold = QuietHold(
        lambda p: QuietHours.decoded(reach.of(p).quiet),  # read with the devices too
        held_store(),
        service().commands.writes.clock,
        set_timer=quiet_timer if settings().timer_queue_url else None,
    )
    return PushChannel(
        ReachDevices(device_store(), reach),
        push(),
        lambda p: len(games.games_on_turn(p)),
        muted=lambda p: reach.of(p).muted,  # read with the devices, in the same query
        locale=lambda p: player_locale(reach.of(p), None),
        scheme=settings().app_url_scheme,
        hold=hold.holds,
    )


@lru_cache(maxsize=1)
def held_store() -> DynamoHeld:
    from domino.store.quiet import DynamoHeld

    return DynamoHeld(table())


def quiet_timer(player: str, due: int) -> None:
    """Have the end of the player's quiet window come back on the timers' queue."""
    from domino.service.quiet import QUIET_TIMER
    from domino.service.timers import Timer

    timers().set(Timer(QUIET_TIMER, player, due))


@lru_cache(maxsize=1)
def vacations() -> Vacations:
    """``/me/vacation``, and a vacation's end (its timer, the sweep)."""
    from domino.service.timers import Timer
    from domino.service.vacations import VACATION_TIMER, Vacations
    from domino.store.vacations import DynamoVacations

    games = service()
    set_timer = None
    if settings().timer_queue_url:

        def set_timer(player: str, until: int) -> None:
            timers().set(Timer(VACATION_TIMER, player, until))

    return Vacations(
        DynamoVacations(table()),
        games.store,
        games.commands.writes,
        account_store().game_ids,
        games.commands.writes.clock,
        set_timer,
    )


@lru_cache(maxsize=1)
def analyses() -> Analyses:
    """Finished matches' analyses: read (``GET /games/{id}/analysis``), queued from the stream,
    computed by functions/analysis."""
    from domino.service.analyses import Analyses, job
    from domino.store.analyses import DynamoAnalyses
    from domino.store.timers import SqsTimerQueue

    url = settings().analysis_queue_url
    queue = None
    if url:
        sqs = SqsTimerQueue(url)  # a plain queue: sent without a delay

        def queue(game_id: str) -> None:
            sqs.send(job(game_id), 0)

    games = service()
    return Analyses(DynamoAnalyses(table()), games.history, queue, games.commands.writes.clock)


@lru_cache(maxsize=1)
def quiet_summary() -> QuietSummary:
    """The end of a quiet window: its timer's handler, and the sweep's when the timer was lost."""
    from domino.service.quiet import QuietSummary

    def send(held: Held) -> None:
        change_reach().forget(held.player)  # this container's last read may be old
        push_channel().summary(held)

    return QuietSummary(held_store(), service().commands.writes.clock, send)


@lru_cache(maxsize=1)
def notifier() -> Notifier:
    from domino.service.inbox import Notifier
    from domino.service.reach import ReachConnections, player_locale
    from domino.store.inbox import DynamoInbox

    clock = service().commands.writes.clock
    reach = change_reach()
    channels: list[Channel] = [push_channel()]
    live_channel = None
    sockets = socket_gateway()
    if sockets is not None:
        from domino.service.live import LiveChannel

        live_channel = LiveChannel(
            ReachConnections(connection_store(), reach),
            sockets,
            clock,
            locale=lambda p, token: player_locale(reach.of(p), token),
            watchers=watcher_store(),
        )
        channels.append(live_channel)
    return Notifier(DynamoInbox(table()), channels, live_channel, reach)


@lru_cache(maxsize=1)
def timers() -> Timers:
    """The timers' queue (None without ``TIMER_QUEUE_URL``: then no timer is set, and a due
    one still fires) and the handler of each kind."""
    from domino.service.matchmaking import TICKET_TIMER
    from domino.service.quiet import QUIET_TIMER
    from domino.service.timers import TURN, Timers
    from domino.service.vacations import VACATION_TIMER
    from domino.store.timers import SqsTimerQueue

    games = service()
    url = settings().timer_queue_url
    queue = SqsTimerQueue(url) if url else None
    handlers = {
        TURN: games.sweeper.on_turn_timer,
        TICKET_TIMER: lambda timer: quick_match().on_timer(timer.key),
        QUIET_TIMER: lambda timer: quiet_summary().fire(timer.key),
        VACATION_TIMER: lambda timer: vacations().on_end(timer.key),
    }
    return Timers(queue, games.commands.writes.clock, handlers)


@lru_cache(maxsize=1)
def quick_match() -> QuickMatch:
    """Quick match's tickets and matcher (``POST /match/tickets`` and the tickets' timers)."""
    from domino.service.matchmaking import TICKET_TIMER, QuickMatch
    from domino.service.timers import Timer
    from domino.store.ratings import DynamoRatings
    from domino.store.tickets import DynamoTickets

    commands = service().commands
    set_timer = None
    if settings().timer_queue_url:

        def set_timer(ticket_id: str, due: int) -> None:
            timers().set(Timer(TICKET_TIMER, ticket_id, due))

    return QuickMatch(
        DynamoTickets(table()),
        DynamoRatings(table()),
        commands.writes.clock,
        name_of=commands.name_of,
        set_timer=set_timer,
        blocked=safety().blocked_between,
        bot_budget_ms=settings().bot_budget_ms,
    )


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
    from domino.service.watching import Watching

    clock = service().commands.writes.clock
    return LiveUpdates(
        connection_store(),
        clock,
        socket_gateway(),
        service().store,
        Watching(watcher_store(), service().store, clock),
    )


@lru_cache(maxsize=1)
def watcher_store() -> DynamoWatchers:
    from domino.store.watchers import DynamoWatchers

    return DynamoWatchers(table())


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
        account_store(),
        service().commands,
        device_store(),
        push(),
        identity,
        live=live(),
        ratings=rating_store(),
    )


# Ratings: their modules load only in the functions that use them.


@lru_cache(maxsize=1)
def rating_store() -> DynamoRatings:
    from domino.store.ratings import DynamoRatings

    return DynamoRatings(table())


@lru_cache(maxsize=1)
def ratings() -> RatingQueries:
    from domino.service.ratings import RatingQueries

    return RatingQueries(rating_store())


@lru_cache(maxsize=1)
def match_tally() -> MatchTally:
    """The stream's step when a match finishes: ratings and stats, once per game."""
    from domino.service.tally import MatchTally

    return MatchTally(rating_store())


def path_pool(pool: str) -> str:
    """A ``{pool}`` path parameter (``dos-jugadores:2``, or with its colon percent-encoded):
    400 naming ``pool`` unless it is a preset and a player count it is played with."""
    from urllib.parse import unquote

    from domino.api.errors import InvalidRequest
    from domino.engine.errors import InvalidInput
    from domino.service.ratings import checked_pool

    text = unquote(pool)
    try:
        return checked_pool(text)
    except InvalidInput as err:
        raise InvalidRequest.of([(err.template, err.params)], ["pool"]) from None


@lru_cache(maxsize=1)
def device_store() -> DynamoDevices:
    from domino.store.devices import DynamoDevices

    return DynamoDevices(table())


@lru_cache(maxsize=1)
def push() -> SnsPush:
    from domino.notify.sns import SnsPush

    return SnsPush(settings().push_applications)


@lru_cache(maxsize=1)
def safety() -> Safety:
    """Blocks and reports, and ``blocked_between`` for every feature that seats two people."""
    from domino.service.safety import Safety
    from domino.store.safety import DynamoSafety

    return Safety(DynamoSafety(table()), account_store(), service().commands.writes.clock)


@lru_cache(maxsize=1)
def gestures() -> Gestures:
    """Emotes (to the table's sockets) and nudges (a mark the notifier turns into ``nudge``)."""
    from domino.service.gestures import Gestures

    clock = service().commands.writes.clock
    return Gestures(service().store, safety(), connection_store(), socket_gateway(), clock)


@lru_cache(maxsize=1)
def moderation() -> Moderation:
    """The operator's actions (``domino-admin``: AWS credentials, never an HTTP route)."""
    from domino.service.moderation import Moderation
    from domino.store.safety import DynamoSafety

    return Moderation(
        accounts(),
        DynamoSafety(table()),
        rating_store(),
        quick_match().cancel_search,
        service().commands.writes.clock,
    )
