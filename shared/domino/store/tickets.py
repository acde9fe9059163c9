"""Quick match's tickets in the game table, and the one transaction that turns tickets into a
game.

- A ticket is ``pk=TICKET#<id>, sk=TICKET``. While it searches it carries ``queue`` and
  ``queued`` (its creation in milliseconds): the sparse ``by_queue`` index lists a queue's
  searching tickets oldest first in one Query.
- ``pk=PLAYER#<sub>, sk=TICKET`` names the player's searching ticket and exists only while it
  searches: written with ``attribute_not_exists`` beside the ticket, it is what makes "at most
  one searching ticket" hold under any concurrency.
- ``match`` claims every ticket (``status = searching``), deletes their players' markers,
  creates the game and every person's membership in one ``TransactWriteItems``: two matchers
  racing for a ticket make one game, and the loser's transaction is cancelled whole
  (``TicketsTaken``), so no game is made with a seat missing or taken twice.
- ``pk=QUEUE#<queue>, sk=MATCHER`` is the queue's matcher lease: one matcher at a time reads
  and matches a queue (``take_queue``), and every other arrival only counts an ``asks`` on it,
  which the holder sees when it hands the queue back (``hand_back``) and answers with another
  pass. Matchers racing for the oldest tickets would otherwise deal the same group each and
  cancel all but one transaction (bench/matching.py: 4.4 a game at 1,000 tickets in 10 s). A
  holder that dies holds the queue at most ``LEASE_SECONDS``; the tickets' timers look again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from domino.store.dynamo import stamped
from domino.store.errors import StoreError, cancellation_codes
from domino.store.records import (
    GameRecord,
    from_attributes,
    iso,
    membership,
    player_key,
    to_attributes,
)
from domino.store.table import Table

TICKET_SK = "TICKET"
QUEUE_INDEX = "by_queue"
#: how many of a queue's searching tickets a matcher reads at once (oldest first)
QUEUE_READ_LIMIT = 200

#: ``searching`` is the only status a ticket leaves
STATUSES = ("searching", "matched", "cancelled", "expired")
#: a ticket unmatched this long expires
LIFETIME_SECONDS = 24 * 3600
#: an ended ticket stays readable this long
KEPT_SECONDS = 24 * 3600
WINDOW_BASE = 100
WINDOW_PER_SECOND = 10
DEFAULT_WAIT_SECONDS = 60
MAX_WAIT_SECONDS = 86_400
MATCHER_SK = "MATCHER"
#: how long a matcher holds its queue without renewing (a dead holder's worst delay)
LEASE_SECONDS = 10
#: an idle queue's lease item goes after a day
LEASE_KEPT_SECONDS = 24 * 3600


@dataclass
class Ticket:
    """A ticket as stored. ``created_ms`` orders the queue (milliseconds: two tickets of one
    second keep their order); ``rating`` is the holder's shown rating in the pool when it was
    opened; ``ended_at`` when it stopped searching."""

    id: str
    player: str
    name: str
    status: str
    preset: str
    players: int
    ranked: bool
    turn_timeout_hours: float | None
    on_timeout: str
    wait_s: int | None
    rating: int
    created_ms: int
    version: int = 1
    game: str | None = None
    ended_at: int | None = None

    @property
    def created_at(self) -> int:
        return self.created_ms // 1000

    @property
    def expires_at(self) -> int:
        return self.created_at + LIFETIME_SECONDS

    @property
    def queue(self) -> str:
        return queue_of(
            self.preset, self.players, self.ranked, self.turn_timeout_hours, self.on_timeout
        )

    def waited(self, now: float) -> float:
        end = self.ended_at if self.status != "searching" and self.ended_at else now
        return max(0.0, end - self.created_ms / 1000)

    def window(self, now: float) -> int:
        """The rating points it may meet across (frozen once it stopped searching)."""
        return WINDOW_BASE + int(WINDOW_PER_SECOND * self.waited(now))

    def wants_bots(self, now: float) -> bool:
        """Whether it has waited its ``wait_s`` (and may be seated with bots)."""
        return self.wait_s is not None and now - self.created_ms / 1000 >= self.wait_s

    def view(self, now: float) -> dict[str, Any]:
        """The ticket as docs/api.md lists it."""
        return {
            "id": self.id,
            "status": self.status,
            "preset": self.preset,
            "players": self.players,
            "ranked": self.ranked,
            "turn_timeout_hours": self.turn_timeout_hours,
            "on_timeout": self.on_timeout,
            "rating": self.rating,
            "window": self.window(now) if self.ranked else None,
            "game": self.game,
            "created_at": iso(self.created_at),
            "expires_at": iso(self.expires_at),
        }


def new_ticket_id() -> str:
    return secrets.token_urlsafe(16)


def queue_of(preset: str, players: int, ranked: bool, hours: float | None, on_timeout: str) -> str:
    """The queue's key: everything two tickets must share to meet."""
    timeout = "none" if hours is None else repr(float(hours))
    return f"{preset}:{players}:{'ranked' if ranked else 'casual'}:{timeout}:{on_timeout}"


class AlreadySearching(StoreError):
    """The player holds a searching ticket already: ``ticket`` is its id."""

    def __init__(self, ticket: str | None) -> None:
        super().__init__(ticket)
        self.ticket = ticket


class TicketsTaken(StoreError):
    """A ticket was no longer searching when the write came (another matcher, a cancel)."""


def _ticket_key(ticket_id: str) -> dict[str, Any]:
    return to_attributes({"pk": f"TICKET#{ticket_id}", "sk": TICKET_SK})


def _lease_key(queue: str) -> dict[str, Any]:
    return to_attributes({"pk": f"QUEUE#{queue}", "sk": MATCHER_SK})


def _marker_key(player: str) -> dict[str, Any]:
    return to_attributes({"pk": player_key(player), "sk": TICKET_SK})


def ticket_item(ticket: Ticket) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": f"TICKET#{ticket.id}",
        "sk": TICKET_SK,
        "player": ticket.player,
        "name": ticket.name,
        "status": ticket.status,
        "preset": ticket.preset,
        "players": ticket.players,
        "ranked": int(ticket.ranked),
        "on_timeout": ticket.on_timeout,
        "rating": ticket.rating,
        "created_ms": ticket.created_ms,
        "version": ticket.version,
        # expired by its timer; the TTL is only the floor under a timer that was lost
        "ttl": ticket.expires_at + KEPT_SECONDS,
    }
    if ticket.turn_timeout_hours is not None:
        item["hours"] = repr(float(ticket.turn_timeout_hours))
    if ticket.wait_s is not None:
        item["wait_s"] = ticket.wait_s
    if ticket.status == "searching":
        item["queue"] = ticket.queue
        item["queued"] = ticket.created_ms
    return item


def ticket_from_item(item: dict[str, Any]) -> Ticket:
    return Ticket(
        id=str(item["pk"]).removeprefix("TICKET#"),
        player=str(item["player"]),
        name=str(item["name"]),
        status=str(item["status"]),
        preset=str(item["preset"]),
        players=int(item["players"]),
        ranked=bool(item["ranked"]),
        turn_timeout_hours=float(item["hours"]) if "hours" in item else None,
        on_timeout=str(item["on_timeout"]),
        wait_s=int(item["wait_s"]) if "wait_s" in item else None,
        rating=int(item["rating"]),
        created_ms=int(item["created_ms"]),
        version=int(item["version"]),
        game=item.get("game"),
        ended_at=int(item["ended_at"]) if "ended_at" in item else None,
    )


def ticket_from_image(image: dict[str, Any]) -> Ticket | None:
    """The ticket in a stream record's image (None for any other item)."""
    keys = from_attributes({k: image[k] for k in ("pk", "sk") if k in image})
    if keys.get("sk") != TICKET_SK or not str(keys.get("pk", "")).startswith("TICKET#"):
        return None
    return ticket_from_item(from_attributes(image))


class DynamoTickets:
    def __init__(self, table: Table) -> None:
        self.table = table

    def _transact(self, items: list[dict[str, Any]]) -> None:
        self.table.call(self.table.client.transact_write_items, TransactItems=items)

    def open(self, ticket: Ticket) -> None:
        """Store a new searching ticket and its player's marker; ``AlreadySearching`` when the
        player holds one."""
        name = self.table.name
        marker = {**from_attributes(_marker_key(ticket.player)), "ticket": ticket.id}
        try:
            self._transact(
                [
                    {
                        "Put": {
                            "TableName": name,
                            "Item": to_attributes(marker),
                            "ConditionExpression": "attribute_not_exists(pk)",
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    },
                    {
                        "Put": {
                            "TableName": name,
                            "Item": to_attributes(ticket_item(ticket)),
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                ]
            )
        except ClientError as err:
            codes = cancellation_codes(err)
            if codes and codes[0] == "ConditionalCheckFailed":
                old = (err.response.get("CancellationReasons") or [{}])[0].get("Item") or {}
                raise AlreadySearching(old.get("ticket", {}).get("S")) from err
            raise

    def searching_ticket(self, player: str) -> str | None:
        """The id of the player's searching ticket (None: they hold none)."""
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=_marker_key(player),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return item["ticket"]["S"] if item else None

    def load(self, ticket_id: str) -> Ticket | None:
        response = self.table.call(
            self.table.client.get_item,
            TableName=self.table.name,
            Key=_ticket_key(ticket_id),
            ConsistentRead=True,
        )
        item = response.get("Item")
        return ticket_from_item(from_attributes(item)) if item else None

    def queue(self, queue: str, limit: int = QUEUE_READ_LIMIT) -> list[Ticket]:
        """A queue's searching tickets, oldest first (the index is eventually consistent: the
        transaction that claims them checks each one again)."""
        response = self.table.call(
            self.table.client.query,
            TableName=self.table.name,
            IndexName=QUEUE_INDEX,
            KeyConditionExpression="#q = :q",
            ExpressionAttributeNames={"#q": "queue"},
            ExpressionAttributeValues=to_attributes({":q": queue}),
            Limit=limit,
        )
        tickets = [ticket_from_item(from_attributes(item)) for item in response.get("Items", [])]
        return [t for t in tickets if t.status == "searching"]

    def _claim(self, ticket: Ticket, status: str, at: int, game: str | None) -> list[Any]:
        """The transaction items that end a searching ticket: its update and its marker's
        deletion, each conditional on the ticket still searching."""
        name = self.table.name
        values: dict[str, Any] = {
            ":searching": "searching",
            ":status": status,
            ":at": at,
            ":one": 1,
            ":ttl": at + KEPT_SECONDS,
        }
        sets = "#s = :status, ended_at = :at, version = version + :one, #ttl = :ttl"
        if game is not None:
            values[":game"] = game
            sets += ", game = :game"
        return [
            {
                "Update": {
                    "TableName": name,
                    "Key": _ticket_key(ticket.id),
                    "UpdateExpression": f"SET {sets} REMOVE #q, queued",
                    "ConditionExpression": "#s = :searching",
                    "ExpressionAttributeNames": {"#s": "status", "#q": "queue", "#ttl": "ttl"},
                    "ExpressionAttributeValues": to_attributes(values),
                }
            },
            {
                "Delete": {
                    "TableName": name,
                    "Key": _marker_key(ticket.player),
                    "ConditionExpression": "ticket = :id",
                    "ExpressionAttributeValues": to_attributes({":id": ticket.id}),
                }
            },
        ]

    def end(self, ticket: Ticket, status: str, at: int) -> None:
        """``cancelled`` or ``expired``: ``TicketsTaken`` if it no longer searches."""
        try:
            self._transact(self._claim(ticket, status, at, None))
        except ClientError as err:
            if "ConditionalCheckFailed" in cancellation_codes(err):
                raise TicketsTaken() from err
            raise

    def match(self, tickets: list[Ticket], record: GameRecord, at: int) -> None:
        """Claim ``tickets`` for the new game ``record`` and create it with every person's
        membership, at once; ``TicketsTaken`` when any ticket no longer searches (then nothing
        is written)."""
        name = self.table.name
        items: list[dict[str, Any]] = []
        for ticket in tickets:
            items += self._claim(ticket, "matched", at, record.id)
        game_item, _token = stamped(record)
        items.append(
            {
                "Put": {
                    "TableName": name,
                    "Item": game_item,
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        )
        items += [
            {"Put": {"TableName": name, "Item": to_attributes(membership(t.player, record.id, at))}}
            for t in tickets
        ]
        try:
            self._transact(items)
        except ClientError as err:
            codes = cancellation_codes(err)
            if "ConditionalCheckFailed" in codes or "TransactionConflict" in codes:
                raise TicketsTaken() from err
            raise

    # ------------------------------------------------------------------ the queue's lease

    def _lease(self, queue: str, **update: Any) -> dict[str, Any]:
        """One conditional UpdateItem of the queue's lease; its new (or, on a failed
        condition, raised ``ClientError``'s old) attributes."""
        response = self.table.call(
            self.table.client.update_item,
            TableName=self.table.name,
            Key=_lease_key(queue),
            ReturnValues="ALL_NEW",
            ReturnValuesOnConditionCheckFailure="ALL_OLD",
            **update,
        )
        return from_attributes(response.get("Attributes") or {})

    def take_queue(self, queue: str, holder: str, now: int) -> int | None:
        """Hold ``queue`` as its one matcher: the ``asks`` seen (to hand it back with), or
        None when another matcher holds it (this ask is counted: that matcher looks again)."""
        for _ in range(3):
            try:
                taken = self._lease(
                    queue,
                    UpdateExpression="SET holder = :me, #until = :until, #ttl = :ttl ADD asks :one",
                    ConditionExpression="attribute_not_exists(holder) OR #until < :now",
                    ExpressionAttributeNames={"#until": "until", "#ttl": "ttl"},
                    ExpressionAttributeValues=to_attributes(
                        {
                            ":me": holder,
                            ":until": now + LEASE_SECONDS,
                            ":ttl": now + LEASE_KEPT_SECONDS,
                            ":now": now,
                            ":one": 1,
                        }
                    ),
                )
                return int(taken["asks"])
            except ClientError as err:
                if not _failed_condition(err):
                    raise
                old = from_attributes(err.response.get("Item") or {})
                if old.get("holder") == holder:  # a retry of a write whose reply was lost
                    return int(old["asks"])
            try:  # held: ask its holder to look again, unless it let go meanwhile
                self._lease(
                    queue,
                    UpdateExpression="ADD asks :one",
                    ConditionExpression="attribute_exists(holder) AND #until >= :now",
                    ExpressionAttributeNames={"#until": "until"},
                    ExpressionAttributeValues=to_attributes({":now": now, ":one": 1}),
                )
                return None
            except ClientError as err:
                if not _failed_condition(err):
                    raise
        return None  # three hand-overs in a row: the queue is busy, its matcher looks again

    def renew_queue(self, queue: str, holder: str, now: int) -> int | None:
        """Hold the queue ``LEASE_SECONDS`` more: its ``asks`` now, or None if it was lost."""
        try:
            renewed = self._lease(
                queue,
                UpdateExpression="SET #until = :until",
                ConditionExpression="holder = :me",
                ExpressionAttributeNames={"#until": "until"},
                ExpressionAttributeValues=to_attributes(
                    {":me": holder, ":until": now + LEASE_SECONDS}
                ),
            )
        except ClientError as err:
            if _failed_condition(err):
                return None
            raise
        return int(renewed["asks"])

    def hand_back(self, queue: str, holder: str, seen: int, now: int) -> int | None:
        """Let go of the queue if nobody asked since ``seen`` (None); else keep it for
        another pass: the ``asks`` to hand it back with next (None too if it was lost)."""
        try:
            self._lease(
                queue,
                UpdateExpression="REMOVE holder, #until",
                ConditionExpression="holder = :me AND asks = :seen",
                ExpressionAttributeNames={"#until": "until"},
                ExpressionAttributeValues=to_attributes({":me": holder, ":seen": seen}),
            )
            return None
        except ClientError as err:
            if not _failed_condition(err):
                raise
            old = from_attributes(err.response.get("Item") or {})
        if old.get("holder") != holder:
            return None  # held too long: another matcher has the queue now
        return self.renew_queue(queue, holder, now)

    def let_go(self, queue: str, holder: str) -> None:
        """Release the queue whatever was asked (a matcher that failed)."""
        try:
            self._lease(
                queue,
                UpdateExpression="REMOVE holder, #until",
                ConditionExpression="holder = :me",
                ExpressionAttributeNames={"#until": "until"},
                ExpressionAttributeValues=to_attributes({":me": holder}),
            )
        except ClientError as err:
            if not _failed_condition(err):
                raise


def _failed_condition(err: ClientError) -> bool:
    return bool(err.response["Error"]["Code"] == "ConditionalCheckFailedException")
