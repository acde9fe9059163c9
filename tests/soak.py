"""Whole games and stream deliveries under injected faults (tests/faults.py), shared by the
fault suites (tests/integration/test_faults.py, test_stream_faults.py) and ``bench/faults.py``.

``Send`` is how a phone talks to the API: ``send(player, method, path, body, headers)`` returns
the harness's ``Reply`` (a test's ``Api`` and a benchmark's harness both fit it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from tests.faults import NOT_APPLIED, Died, Faults

if TYPE_CHECKING:
    from domino.store.inbox import Note

Send = Callable[[str, str, str, Any, "dict[str, str] | None"], Any]
ACTIONS = ("play", "draw", "pass")


def add_random_faults(faults: Faults, rate: float) -> None:
    """Every kind of fault on ``rate`` of all requests; deaths after ``rate`` of the writes."""
    for kind in [*sorted(NOT_APPLIED), "lost_reply"]:
        faults.add(kind, times=None, rate=rate)
    for operation in ("PutItem", "UpdateItem", "TransactWriteItems"):
        faults.add("die_after", operation=operation, times=None, rate=rate)


@dataclass
class Soak:
    """What a game under faults did and which of its invariants it broke."""

    statuses: Counter[int | str] = field(default_factory=Counter)
    applied: list[tuple[str, str | None]] = field(default_factory=list)
    replays: int = 0
    broken: list[str] = field(default_factory=list)


def retried(send: Callable[[], Any], soak: Soak, tries: int = 30) -> dict[str, Any]:
    """``send`` until it answers 200, as an app retries: on 503 and when no answer came."""
    for _attempt in range(tries):
        try:
            reply = send()
        except Died:
            soak.statuses["died"] += 1
            continue
        soak.statuses[reply.status] += 1
        if reply.status == 503 and int(reply.header("Retry-After") or 0) > 0:
            continue
        if reply.status != 200:
            raise AssertionError(f"{reply.status} {reply.body}")
        return reply.body  # type: ignore[no-any-return]
    raise AssertionError(f"no answer after {tries} tries")


def choose(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    legal = view["you"]["legal"]
    if legal:
        return "play", dict(legal[0])
    return ("draw", {}) if view["drawable"] else ("pass", {})


def play_under_faults(send: Send, game: str, seats: list[str]) -> Soak:
    """The seated phones play ``game`` to its end, each move with its own Idempotency-Key,
    retried on 503 or no answer, then sent once more (as if its answer was lost on the way);
    the faults are whatever the caller injected. Checks as it goes that each move made one
    version and that the key's second answer is its first."""
    soak = Soak()
    watcher = seats[0]
    for turn in range(2000):
        view = retried(partial(send, watcher, "GET", f"/games/{game}", None, None), soak)
        if view["status"] != "playing":
            break
        player = seats[view["turn"]]
        mine = retried(partial(send, player, "GET", f"/games/{game}", None, None), soak)
        action, body = choose(mine)
        headers = {"Idempotency-Key": f"{game}-{turn}"}
        move = partial(send, player, "POST", f"/games/{game}/{action}", body, headers)
        reply = retried(move, soak)
        soak.applied.append((action, body.get("tile")))
        if reply["version"] != view["version"] + 1:
            soak.broken.append(f"move {turn} made versions {view['version']} -> {reply['version']}")
        again = retried(move, soak)
        soak.replays += 1
        if again != reply:
            soak.broken.append(f"move {turn}: the key's second answer differs from its first")
    return soak


def check_game(send: Send, game: str, player: str, soak: Soak, moves: list[Any]) -> None:
    """After the faults: the version up by one per move, the move log = the moves answered,
    28 tiles."""
    final = send(player, "GET", f"/games/{game}", None, None).body
    if final["status"] != "finished":
        soak.broken.append(f"{game} is {final['status']}, not finished")
    if final["version"] != 2 + len(soak.applied):
        soak.broken.append(f"{game}: version {final['version']} after {len(soak.applied)} moves")
    logged = [
        (m["action"], m.get("tile") if m["action"] == "play" else None)
        for m in moves
        if m["action"] in ACTIONS
    ]
    if logged != soak.applied:
        soak.broken.append(f"{game}: the move log is not the moves answered")
    in_hands = sum(seat["tiles"] for seat in final["seats"])
    if in_hands + len(final["board"]["tiles"]) + final["boneyard"] != 28:
        soak.broken.append(f"{game}: tiles not conserved")


def interleave(by_game: dict[str, list[Any]], rng: random.Random) -> list[Any]:
    """The games' records in a random interleaving that keeps each game's order (a stream
    shard keeps one item's records in order, not different items')."""
    queues = {game: list(records) for game, records in by_game.items()}
    mixed = []
    while queues:
        game = rng.choice(sorted(queues))
        mixed.append(queues[game].pop(0))
        if not queues[game]:
            del queues[game]
    return mixed


def deliver_batches(
    invoke: Callable[[list[Any]], Any], records: list[Any], rng: random.Random
) -> Counter[str]:
    """``records`` in batches of 1-7, each delivered twice (a redelivery), and retried as Lambda
    retries a stream batch: from its first failed record (ReportBatchItemFailures), or whole
    when the function died or raised (Powertools raises when every record failed)."""
    tally: Counter[str] = Counter()

    def once(batch: list[Any]) -> int | None:
        try:
            result = invoke(batch)
        except Died:
            tally["died"] += 1
            return 0
        except Exception:  # the invocation failed: the whole batch again
            tally["failed batches"] += 1
            return 0
        tally["batches"] += 1
        failures = [f["itemIdentifier"] for f in (result or {}).get("batchItemFailures", [])]
        if not failures:
            return None
        tally["failed records"] += len(failures)
        sequences = [r["dynamodb"]["SequenceNumber"] for r in batch]
        return min(sequences.index(f) for f in failures)

    position = 0
    while position < len(records):
        batch = records[position : position + rng.randint(1, 7)]
        for _delivery in range(2):
            start = 0  # Lambda sends the batch again from its first failed record
            for _retry in range(100):
                failed_at = once(batch[start:])
                if failed_at is None:
                    break
                start += failed_at
            else:
                raise AssertionError("a batch failed 100 times in a row")
        position += len(batch)
    tally["records"] = len(records)
    return tally


class CountingChannel:
    """A notifier channel that counts what it was asked to send (standing in for SNS and the
    sockets, which have suites of their own)."""

    marks_sent = True  # counted as pushes: a repeat would be one too many

    def __init__(self) -> None:
        self.sent: Counter[tuple[str, str]] = Counter()

    def reaches(self, note: Note) -> bool:
        return True

    def send(self, note: Note) -> bool:
        self.sent[(note.player, note.id)] += 1
        return True


def notify_records(endpoint: str, template: Any, games: set[str]) -> dict[str, list[Any]]:
    """The notifier's stream records of ``games`` (read from the start of the stream with a pump
    of its own), per game in stream order."""
    from domino.store.records import game_id_of

    from local.streams.pump import StreamPump
    from local.streams.sources import stream_sources

    (source,) = [s for s in stream_sources(template) if s.function == "NotifyFunction"]
    by_game: dict[str, list[Any]] = {game: [] for game in games}

    def capture(_source: Any, event: dict[str, Any]) -> dict[str, Any]:
        for record in event["Records"]:
            game = game_id_of(record["dynamodb"]["Keys"])
            if game in by_game:
                by_game[str(game)].append(record)
        return {"batchItemFailures": []}

    pump = StreamPump(
        endpoint, template, template.table_names(), capture, lambda _line: None, sources=[source]
    )
    pump.drain()
    return by_game


def expected_notes(by_game: dict[str, list[Any]]) -> set[tuple[str, str]]:
    """(player, notification id) of every notification the records' changes call for."""
    from domino.service.notices import notices
    from domino.store.inbox import Note
    from domino.store.records import record_from_image

    expected = set()
    for records in by_game.values():
        for record in records:
            change = record["dynamodb"]
            old, new = change.get("OldImage"), change.get("NewImage")
            for n in notices(record_from_image(old) if old else None, record_from_image(new)):
                note = Note(n.player, n.type, n.game, n.version, n.at, n.preset)
                expected.add((n.player, note.id))
    return expected


def inbox_ids(inbox: Any, players: set[str]) -> set[tuple[str, str]]:
    """(player, notification id) of everything in the players' inboxes (an ``InboxStore``)."""
    found = set()
    for player in players:
        cursor = None
        while True:
            notes, cursor = inbox.page(player, 100, cursor)
            found |= {(player, n.id) for n in notes}
            if cursor is None:
                break
    return found
