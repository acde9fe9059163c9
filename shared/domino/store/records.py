"""The stored shapes: a game record, its seats, the items they become, and the key bounds.

Items hold only strings, whole numbers and bytes, converted to and from DynamoDB's attribute
values by hand (boto3's resource layer costs about half a millisecond a call).
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from domino.engine.errors import InvalidInput
from domino.limits import MAX_GAME_ID, MAX_PLAYER_ID

GAME_SK = "GAME"
OPEN_LIST = "OPEN"
#: the open games index is spread over this many partitions (open_list = OPEN#<n>)
OPEN_SHARDS = 4
#: the sweeper's index (by_due) is spread over this many partitions: one GSI partition takes
#: about 1,000 writes a second, and a throttled index throttles the table's writes
DUE_SHARDS = 64
FINISHED_TTL_SECONDS = 90 * 24 * 3600  # finished and abandoned games expire after 90 days
#: a game still waiting for players this long after its last join or leave expires: nobody
#: came, and a player's waiting games would otherwise pile up forever (and fill "my games")
WAITING_TTL_SECONDS = 30 * 24 * 3600

AttributeValue = dict[str, Any]
Item = dict[str, AttributeValue]


@dataclass
class Seat:
    player: str | None  # None: an open seat (before the deal) or a bot
    name: str | None
    bot: str | None = None  # the bot level when a computer plays this seat
    #: reserved for ``player``, who was invited and has not joined yet: not taken, and not
    #: free to anyone else (the game waits for them)
    invited: bool = False
    #: its player is on vacation (``PUT /me/vacation``): their turns' time stands still in
    #: games of turns of a day or more
    away: bool = False

    def to_json(self) -> list[Any]:
        raw: list[Any] = [self.player, self.name, self.bot]
        if self.away:  # a fifth element: items written before vacations read as they were
            return [*raw, int(self.invited), 1]
        return [*raw, 1] if self.invited else raw

    @classmethod
    def from_json(cls, raw: list[Any]) -> Seat:
        invited = bool(raw[3]) if len(raw) > 3 else False
        return cls(raw[0], raw[1], raw[2], invited, bool(raw[4]) if len(raw) > 4 else False)

    @property
    def taken(self) -> bool:
        """A bot plays it, or a person joined it (a reserved seat is not taken yet)."""
        return self.bot is not None or (self.player is not None and not self.invited)

    @property
    def free(self) -> bool:
        """Anyone may join it: nobody plays it and it is reserved for nobody."""
        return self.player is None and self.bot is None


class ReplyEntry(NamedTuple):
    """A keyed change the game item remembers (the last few): its key and request, as short
    hashes, the version it made and the tile it drew. A duplicate that loses the race to it, or
    a retry after the function died before keeping its answer, is answered from the item."""

    key: str
    payload: str
    version: int
    drawn: str | None = None
    at: int = 0  # when the change was made (epoch seconds)


#: how many keyed changes a game item remembers (each ~45 bytes of the item)
REPLY_ENTRIES = 4
#: the last writes whose (version, next move number) a game item keeps (``GameRecord.marks``)
MARKS = 32


@dataclass
class GameRecord:
    """A game as stored: metadata the API needs plus the engine state (``state``) once dealt."""

    id: str
    version: int
    status: str  # waiting | playing | finished
    preset: str
    config: dict[str, Any]  # rules overrides, private, timeouts, bot level, seed, pending deal
    seats: list[Seat]
    state: bytes | None = None
    created_at: int = 0
    updated_at: int = 0
    deadline: int | None = None  # when the turn times out (turn_timeout_hours after it began)
    #: the seconds left on a turn whose player is away (no deadline meanwhile: nothing is due)
    frozen: int | None = None
    # the version whose turn the sweeper has reminded its player of (reminder at 80 %), and when
    reminded: int | None = None
    reminded_at: int | None = None
    # the version whose turn a seated player nudged its player about, when, and from which seat
    # (POST /games/{id}/nudge: once per turn)
    nudged: int | None = None
    nudged_at: int | None = None
    nudger: int | None = None
    turn_player: str | None = None
    # set by a write that ends a hand: the hand, now the item's previous one, whose moves the
    # stream consumer copies to their own item (functions/archive)
    archive_hand: int | None = None
    # who made the change this version records (a player id; None: the game itself), and
    # "timeout" when the sweeper made it for that player: the notifier never notifies the
    # player who caused a change of it (docs/api.md#notifications)
    actor: str | None = None
    cause: str | None = None
    replies: list[ReplyEntry] = field(default_factory=list)
    #: the next match's game, once a player of this finished one asked for a rematch
    rematch: str | None = None
    #: each player's conditional pre-moves (``PUT /games/{id}/premoves``): ``{"after": the last
    #: move's n when they were stored, "lines": [...]}``; never shown to anyone else
    premoves: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the sockets watching the game (``domino.store.watchers``: their count, kept by watches)
    watchers: int = 0
    #: the token of the write that put the item as it was loaded (None: not loaded); a save is
    #: refused if another write (a pre-move's, which keeps the version) came since
    writer: str | None = None
    #: the last MARKS versions written and the ``n`` the next move had at each, oldest first:
    #: where the moves a socket's ``resume`` missed since the version it holds begin
    marks: list[tuple[int, int]] = field(default_factory=list)

    def mark(self, next_n: int) -> None:
        """Keep this version's next move number among the last MARKS."""
        self.marks = [*self.marks, (self.version, next_n)][-MARKS:]

    def next_n_at(self, version: int) -> int | None:
        """The ``n`` the next move had at ``version`` (None: a version not among the marks)."""
        return next((n for v, n in self.marks if v == version), None)

    def reply_entry(self, key: str) -> ReplyEntry | None:
        return next((entry for entry in self.replies if entry.key == key), None)

    def remember(self, entry: ReplyEntry) -> None:
        """Keep ``entry`` among the last REPLY_ENTRIES keyed changes."""
        self.replies = [*self.replies, entry][-REPLY_ENTRIES:]

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` plays (None: no seat, or a seat a bot now plays for them)."""
        for index, seat in enumerate(self.seats):
            if seat.player == player and seat.bot is None and not seat.invited:
                return index
        return None

    def invited_seat(self, player: str) -> int | None:
        """The seat reserved for ``player`` (None: they were not invited, or joined)."""
        for index, seat in enumerate(self.seats):
            if seat.player == player and seat.invited:
                return index
        return None

    @property
    def host(self) -> str | None:
        """Who made the game: its creator (seat 0), or the player who asked for a rematch."""
        return self.config.get("host") or self.seats[0].player


def iso(epoch: int | float | None) -> str | None:
    """Epoch seconds as the API's ISO 8601 UTC text (``2026-11-30T12:00:00Z``)."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def player_key(player: str) -> str:
    """The partition key of a player's items; refuses an id no key can hold."""
    if not player or len(player) > MAX_PLAYER_ID:
        raise InvalidInput("A player id is 1 to {max} characters.", max=MAX_PLAYER_ID)
    return f"PLAYER#{player}"


def game_key(game_id: str) -> str:
    if not game_id or len(game_id) > MAX_GAME_ID:
        raise InvalidInput("A game id is 1 to {max} characters.", max=MAX_GAME_ID)
    return f"GAME#{game_id}"


def shard_of(game_id: str, shards: int) -> int:
    """A game's partition of a spread index: its id's hash spreads games evenly."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big") % shards


def due_shard(game_id: str) -> str:
    """The by_due partition of a game."""
    return str(shard_of(game_id, DUE_SHARDS))


def remind_time(record: GameRecord) -> int | None:
    """When the player on turn is reminded: at 80 % of the turn's time."""
    hours = record.config.get("turn_timeout_hours")
    if record.deadline is None or not hours:
        return None
    return int(record.deadline - 0.2 * hours * 3600)


def due_time(record: GameRecord) -> int | None:
    """When the sweeper must next look at the game: the reminder, then the deadline."""
    if record.deadline is None:
        return None
    if record.reminded == record.version:
        return record.deadline
    return remind_time(record)


def to_attributes(item: dict[str, Any]) -> Item:
    """A plain item (str, int, bytes, bool values) as DynamoDB attribute values."""
    out: Item = {}
    for key, value in item.items():
        if isinstance(value, str):
            out[key] = {"S": value}
        elif isinstance(value, bool):
            out[key] = {"BOOL": value}
        elif isinstance(value, int) and not isinstance(value, bool):
            out[key] = {"N": str(value)}
        elif isinstance(value, bytes):
            out[key] = {"B": value}
        else:
            raise TypeError(f"{key}: {type(value).__name__} is not stored")
    return out


def from_attributes(item: Item) -> dict[str, Any]:
    """DynamoDB attribute values back to str, int and bytes (binary values come
    base64-encoded in the JSON of stream events)."""
    out: dict[str, Any] = {}
    for key, typed in item.items():
        ((kind, value),) = typed.items()
        if kind == "N":
            value = int(value)
        elif kind == "B" and isinstance(value, str):
            value = base64.b64decode(value)
        out[key] = value
    return out


def game_id_of(keys: Item) -> str | None:
    """The game id of a game item's key attributes (None for any other item)."""
    key = from_attributes(keys)
    pk = str(key.get("pk", ""))
    return pk.removeprefix("GAME#") if key.get("sk") == GAME_SK and pk.startswith("GAME#") else None


def record_from_image(image: Item) -> GameRecord | None:
    """The game in a stream record's image (None for any other item)."""
    if game_id_of({k: image[k] for k in ("pk", "sk") if k in image}) is None:
        return None
    return from_item(from_attributes(image))


def to_item(record: GameRecord) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": game_key(record.id),
        "sk": GAME_SK,
        "version": record.version,
        "status": record.status,
        "preset": record.preset,
        "cfg": json.dumps(record.config, separators=(",", ":")),
        "seats": json.dumps([s.to_json() for s in record.seats], separators=(",", ":")),
        "created": record.created_at,
        "updated_at": iso(record.updated_at),
    }
    if record.state is not None:
        item["state"] = record.state
    if record.status == "playing" and record.turn_player:
        item["turn_player"] = record.turn_player
    if (
        record.status == "waiting"
        and not record.config.get("private")
        and any(s.free for s in record.seats)  # only reserved seats left: not open to strangers
    ):
        item["open_list"] = f"{OPEN_LIST}#{shard_of(record.id, OPEN_SHARDS)}"
    if record.deadline is not None and record.status == "playing":
        item["deadline"] = record.deadline
        due = due_time(record)
        if due is not None:  # the sweeper's index: its next look at this game
            item["due"] = due
            item["due_shard"] = due_shard(record.id)
    if record.frozen is not None and record.status == "playing":
        item["frozen"] = record.frozen
    if record.reminded is not None:
        item["reminded"] = record.reminded
        item["reminded_at"] = record.reminded_at or 0
    if record.nudged is not None:
        item["nudged"] = record.nudged
        item["nudged_at"] = record.nudged_at or 0
        item["nudger"] = record.nudger or 0
    if record.status == "finished":
        item["ttl"] = record.updated_at + FINISHED_TTL_SECONDS
    elif record.status == "waiting":
        item["ttl"] = record.updated_at + WAITING_TTL_SECONDS
    if record.archive_hand is not None:
        item["archive"] = record.archive_hand
    if record.actor is not None:
        item["actor"] = record.actor
    if record.cause is not None:
        item["cause"] = record.cause
    if record.rematch is not None:
        item["rematch"] = record.rematch
    if record.replies:
        item["replies"] = json.dumps([list(e) for e in record.replies], separators=(",", ":"))
    if record.premoves and record.status == "playing":
        item["pm"] = premoves_json(record.premoves)
    if record.watchers:
        item["watchers"] = record.watchers
    if record.marks:
        item["mk"] = pack_marks(record.marks)
    return item


def pack_marks(marks: list[tuple[int, int]]) -> bytes:
    """``marks`` as bytes: varints of the first pair, then of each pair's steps (a byte or two a
    number: some 70 bytes for MARKS pairs, where a list of numbers would take some 300)."""
    out = bytearray()
    last_v = last_n = 0
    for version, n in marks:
        for value in (version - last_v, n - last_n):
            while value >= 0x80:
                out.append(value & 0x7F | 0x80)
                value >>= 7
            out.append(value)
        last_v, last_n = version, n
    return bytes(out)


def unpack_marks(data: bytes) -> list[tuple[int, int]]:
    values: list[int] = []
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(value)
            value = shift = 0
    marks = []
    version = n = 0
    for dv, dn in zip(values[::2], values[1::2], strict=False):
        version, n = version + dv, n + dn
        marks.append((version, n))
    return marks


def premoves_json(premoves: dict[str, dict[str, Any]]) -> str:
    return json.dumps(premoves, separators=(",", ":"))


def from_item(item: dict[str, Any]) -> GameRecord:
    state = item.get("state")
    updated = item.get("updated_at")
    return GameRecord(
        id=str(item["pk"]).removeprefix("GAME#"),
        version=int(item["version"]),
        status=str(item["status"]),
        preset=str(item["preset"]),
        config=json.loads(item["cfg"]),
        seats=[Seat.from_json(raw) for raw in json.loads(item["seats"])],
        state=bytes(state) if state else None,
        created_at=int(item.get("created", 0)),
        # fromisoformat: strptime costs ~15 us a call, on every load
        updated_at=int(datetime.fromisoformat(updated).timestamp()) if updated else 0,
        deadline=int(item["deadline"]) if "deadline" in item else None,
        frozen=int(item["frozen"]) if "frozen" in item else None,
        reminded=int(item["reminded"]) if "reminded" in item else None,
        reminded_at=int(item["reminded_at"]) if "reminded_at" in item else None,
        nudged=int(item["nudged"]) if "nudged" in item else None,
        nudged_at=int(item["nudged_at"]) if "nudged_at" in item else None,
        nudger=int(item["nudger"]) if "nudger" in item else None,
        turn_player=item.get("turn_player"),
        archive_hand=int(item["archive"]) if "archive" in item else None,
        actor=item.get("actor"),
        cause=item.get("cause"),
        replies=[ReplyEntry(*raw) for raw in json.loads(item["replies"])]
        if "replies" in item
        else [],
        rematch=item.get("rematch"),
        premoves=json.loads(item["pm"]) if "pm" in item else {},
        writer=item.get("writer"),
        marks=unpack_marks(bytes(item["mk"])) if "mk" in item else [],
        watchers=int(item.get("watchers", 0)),
    )


def membership(player: str, game_id: str, now: int) -> dict[str, Any]:
    return {"pk": player_key(player), "sk": game_key(game_id), "joined": now}


#: a finished game's membership: its sort key orders a player's finished games by when they
#: ended, so "my games" reads one page of them, not all (the stream consumer files it there)
DONE_PREFIX = "DONE#"


def done_key(finished_at: str, game_id: str) -> str:
    """The sort key of a finished game's membership (``finished_at``: ISO 8601 UTC)."""
    return f"{DONE_PREFIX}{finished_at}#{game_id}"
