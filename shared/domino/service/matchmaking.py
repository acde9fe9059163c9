"""Quick match (docs/api.md#quick-match): open, read and cancel a ticket, and the matcher that
turns a queue's tickets into games.

Matching runs when a ticket arrives and on each searching ticket's timer (kind ``ticket`` on
the timers' delay queue, the sub-minute timer the turn deadlines use): every ``POLL_SECONDS``
while its window still widens towards the others', then when its ``wait_s`` passes (bots) and
when it expires (24 h). One matcher at a time holds a queue (its lease in the store); the
others only ask it to look again, and it does before letting go. Each round reads the queue's
searching tickets (one Query, oldest first), picks a group (``tickets.full_group``, else
``tickets.bot_group``), deals the game and writes it with every ticket claimed in one
transaction; a ticket gone meanwhile (a cancel, an expiry) reads the queue again.
``match_found`` reaches the players from the new game's item and ``match_expired`` from the
ticket's, through the stream notifier like every notification.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from domino.engine import DEFAULT_BUDGET_MS, resolve_rules
from domino.service.clock import Clock
from domino.service.errors import AlreadyMatched, AlreadySearching, NotFound
from domino.service.loaded import new_game
from domino.service.ports import RatingReader, TicketStore
from domino.service.ratings import pool_name
from domino.service.tickets import Blocked, bot_group, bot_level_for, full_group, seat_order
from domino.service.values import Caller, NewTicket
from domino.service.writes import deal, finish, run_bots
from domino.store.records import GameRecord, Seat
from domino.store.tickets import (
    LEASE_SECONDS,
    QUEUE_READ_LIMIT,
    Ticket,
    TicketsTaken,
    new_ticket_id,
)
from domino.store.tickets import AlreadySearching as StoredSearching

#: the timers' kind of a searching ticket's next look (its key is the ticket's id)
TICKET_TIMER = "ticket"
#: how often a ticket's queue is looked at again while its window widens
POLL_SECONDS = 5
#: after this long every window spans 3,000 points or more: arrivals alone can match it then
POLL_FOR_SECONDS = 300
#: rounds of one matching pass (each makes a game or finds a ticket gone): a queue read's worth
MAX_ROUNDS = QUEUE_READ_LIMIT // 2
#: games one matcher writes at once (disjoint tickets, so they never race each other): one
#: matcher a queue would otherwise make games one transaction after another
MATCH_WRITERS = 4
_WRITERS = ThreadPoolExecutor(MATCH_WRITERS, thread_name_prefix="matcher")
#: how long one matcher (a POST, a timer) holds a queue while tickets keep coming, before it
#: lets go and leaves them to the next arrival or their timers (``POLL_SECONDS``): a caller's
#: answer waits for its matcher, so a burst must not keep one caller for the whole queue
HOLD_SECONDS = 2.0


def _next_groups(waiting: list[Ticket], now: float, blocked: Blocked) -> list[list[Ticket]]:
    """The next games ``waiting`` allows, oldest first and no ticket in two: up to
    ``MATCH_WRITERS`` full tables, else as many games with bots, else none."""
    left, groups = list(waiting), list[list[Ticket]]()
    for pick in (full_group, bot_group):
        while len(groups) < MATCH_WRITERS:
            people = pick(left, now, blocked)
            if people is None:
                break
            groups.append(people)
            taken = {t.id for t in people}
            left = [t for t in left if t.id not in taken]
        if groups:
            return groups
    return groups


def _nobody_blocked(_a: str, _b: str) -> bool:
    return False


class QuickMatch:
    def __init__(
        self,
        tickets: TicketStore,
        ratings: RatingReader,
        clock: Clock,
        *,
        name_of: Callable[[Caller], str],
        set_timer: Callable[[str, int], None] | None = None,
        blocked: Blocked = _nobody_blocked,
        bot_budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        self.tickets = tickets
        self.ratings = ratings
        self.clock = clock
        self.name_of = name_of  # the caller's name at a table (401 for a deleted account)
        self.set_timer = set_timer  # (ticket id, due): None without a timer queue
        self.blocked = blocked
        self.bot_budget_ms = bot_budget_ms

    # ------------------------------------------------------------------ the player's side

    def open(self, caller: Caller, command: NewTicket) -> tuple[dict[str, Any], str]:
        """A searching ticket (matched at once when its queue allows): its view and id."""
        name = self.name_of(caller)  # 401 before 400
        resolve_rules(command.preset, command.players)  # 400: unknown preset, count out of range
        now = self.clock()
        pool = pool_name(command.preset, command.players)
        ticket = Ticket(
            id=new_ticket_id(),
            player=caller.player,
            name=name,
            status="searching",
            preset=command.preset,
            players=command.players,
            ranked=command.ranked,
            turn_timeout_hours=command.turn_timeout_hours,
            on_timeout=command.on_timeout,
            wait_s=command.wait_s,
            rating=self.ratings.get(caller.player, pool).shown,
            created_ms=int(now * 1000),
        )
        for attempt in range(2):
            try:
                self.tickets.open(ticket)
                break
            except StoredSearching as err:
                held = self.tickets.load(err.ticket) if err.ticket else None
                if attempt == 0 and held is not None and self._expire_if_due(held, now):
                    continue  # its timer was lost: it has expired now, and this one opens
                if held is None or held.status != "searching":
                    raise AlreadySearching(None) from err  # a moment of a matcher's claim
                raise AlreadySearching(held.view(now)) from err
        self._schedule(ticket, now)
        self.match_queue(ticket.queue)
        return self.read(caller, ticket.id), ticket.id

    def read(self, caller: Caller, ticket_id: str) -> dict[str, Any]:
        ticket = self._own(caller, ticket_id)
        now = self.clock()
        if self._expire_if_due(ticket, now):
            ticket = self._own(caller, ticket_id)
        return ticket.view(now)

    def cancel(self, caller: Caller, ticket_id: str) -> None:
        """204 while searching (and for a ticket that ended otherwise than matched)."""
        ticket = self._own(caller, ticket_id)
        if ticket.status == "searching":
            try:
                self.tickets.end(ticket, "cancelled", int(self.clock()))
                return
            except TicketsTaken:
                ticket = self._own(caller, ticket_id)
        if ticket.status == "matched":
            raise AlreadyMatched(ticket.game)

    def cancel_search(self, player: str) -> bool:
        """Cancel the player's searching ticket, if they hold one (a ban: False, none)."""
        ticket_id = self.tickets.searching_ticket(player)
        ticket = self.tickets.load(ticket_id) if ticket_id is not None else None
        if ticket is None or ticket.status != "searching":
            return False
        try:
            self.tickets.end(ticket, "cancelled", int(self.clock()))
        except TicketsTaken:  # matched meanwhile: the ban's leave empties that seat
            return False
        return True

    def _own(self, caller: Caller, ticket_id: str) -> Ticket:
        ticket = self.tickets.load(ticket_id) if _well_formed(ticket_id) else None
        if ticket is None or ticket.player != caller.player:
            raise NotFound("No such ticket.")  # another player's ticket is not shown to exist
        return ticket

    # ------------------------------------------------------------------ the matcher

    def match_queue(self, queue: str) -> list[str]:
        """Make every game the queue's searching tickets allow now; the new games' ids (none
        when another matcher holds the queue: this call's ask makes it look again)."""
        holder = secrets.token_urlsafe(12)
        seen = self.tickets.take_queue(queue, holder, int(self.clock()))
        if seen is None:
            return []
        made: list[str] = []
        until = time.monotonic() + HOLD_SECONDS  # wall time: the dev clock may jump
        try:
            while time.monotonic() < until:
                if not self._pass(queue, holder, made, until):
                    return made  # the lease was lost: its new holder goes on
                asked = self.tickets.hand_back(queue, holder, seen, int(self.clock()))
                if asked is None:
                    return made
                seen = asked  # tickets came meanwhile (or their timers): look again
        except BaseException:
            with contextlib.suppress(Exception):
                self.tickets.let_go(queue, holder)
            raise
        self.tickets.let_go(queue, holder)  # still asked: the tickets' timers look again
        return made

    def _pass(self, queue: str, holder: str, made: list[str], until: float) -> bool:
        """Read the queue and make its games until none is left or the hold's time is up
        (``until``, monotonic), holding the lease; False when the lease was lost (held past
        ``LEASE_SECONDS`` without renewing)."""
        asked: dict[frozenset[str], bool] = {}

        def blocked(a: str, b: str) -> bool:  # each pair read once a pass (one BatchGetItem)
            pair = frozenset((a, b))
            if pair not in asked:
                asked[pair] = self.blocked(a, b)
            return asked[pair]

        renewed = self.clock()
        waiting: list[Ticket] | None = None  # one read serves every game it can make
        for _ in range(MAX_ROUNDS):
            if time.monotonic() >= until:
                break
            now = self.clock()
            if now - renewed >= LEASE_SECONDS / 2:
                if self.tickets.renew_queue(queue, holder, int(now)) is None:
                    return False
                renewed = now
            if waiting is None:
                waiting = self.tickets.queue(queue)
                full_read, made_from_read = len(waiting) >= QUEUE_READ_LIMIT, 0
            groups = _next_groups(waiting, now, blocked)
            if not groups:
                if full_read and made_from_read:
                    waiting = None  # tickets past the read may match what is left
                    continue
                break
            at = int(now)
            records = [self._deal(people, at) for people in groups]
            written = list(_WRITERS.map(self._write, groups, records, [at] * len(groups)))
            made += [record.id for record, ok in zip(records, written, strict=True) if ok]
            made_from_read += sum(written)
            if not all(written):
                waiting = None  # a cancel or an expiry took a ticket: read again
                continue
            taken = {t.id for people in groups for t in people}
            waiting = [t for t in waiting if t.id not in taken]
        return True

    def _write(self, people: list[Ticket], record: GameRecord, at: int) -> bool:
        """Claim ``people``'s tickets for ``record`` and create it: False when one was gone."""
        try:
            self.tickets.match(people, record, at)
        except TicketsTaken:
            return False
        return True

    def on_timer(self, ticket_id: str) -> None:
        """A searching ticket's next look: expire it, or match its queue and look again."""
        ticket = self.tickets.load(ticket_id) if _well_formed(ticket_id) else None
        if ticket is None or ticket.status != "searching":
            return  # matched, cancelled or expired since: the timer has nothing to do
        now = self.clock()
        if self._expire_if_due(ticket, now):
            return
        self.match_queue(ticket.queue)
        again = self.tickets.load(ticket_id)
        if again is not None and again.status == "searching":
            self._schedule(again, now)

    def _expire_if_due(self, ticket: Ticket, now: float) -> bool:
        if ticket.status != "searching" or now < ticket.expires_at:
            return False
        with contextlib.suppress(TicketsTaken):  # matched or cancelled at the last moment
            self.tickets.end(ticket, "expired", int(now))
        return True

    def _schedule(self, ticket: Ticket, now: float) -> None:
        if self.set_timer is not None:
            self.set_timer(ticket.id, next_look(ticket, now))

    def _deal(self, people: list[Ticket], at: int) -> GameRecord:
        """The game ``people`` are matched into, dealt: bots in the seats nobody takes, at
        the level rated closest to them; rated when ranked and all seats are people."""
        first = people[0]
        rules = resolve_rules(first.preset, first.players)
        bots = first.players - len(people)
        level = bot_level_for(people)
        seats = [Seat(t.player, t.name) for t in seat_order(people, rules.pairs)]
        seats += [Seat(None, f"Bot {i + 1}", level) for i in range(bots)]
        config: dict[str, Any] = {
            "rules": None,
            "private": False,
            "turn_timeout_hours": first.turn_timeout_hours,
            "on_timeout": first.on_timeout,
            "bot_level": level,
            "matched": True,
            "rated": first.ranked and bots == 0,
        }
        game = new_game(first.preset, config, seats, at)
        deal(game, None, at)
        run_bots(game, at, self.bot_budget_ms)
        finish(game, None, 0, at, None)  # the game itself made it: every person is told
        return game.record


def next_look(ticket: Ticket, now: float) -> int:
    """When a searching ticket's queue is looked at again for it."""
    created = ticket.created_ms / 1000
    if now - created < POLL_FOR_SECONDS:
        return int(now) + POLL_SECONDS
    due = [ticket.expires_at]
    if ticket.wait_s is not None and created + ticket.wait_s > now:
        due.append(int(created + ticket.wait_s) + 1)
    return min(due)


#: what a ticket id looks like (``secrets.token_urlsafe(16)``): anything else reaches no key
TICKET_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _well_formed(ticket_id: str) -> bool:
    return TICKET_ID.fullmatch(ticket_id) is not None
