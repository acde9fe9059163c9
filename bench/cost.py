"""Figure a: DynamoDB requests and capacity per accepted play, and the game item's size.

    python bench/cost.py [--quick] [--tree PATH] [--json FILE]

Prints figures, asserts nothing (docs/benchmarks.md records a run). Section d prices whole
matches at us-east-1 list prices from what the run did. It starts its own DynamoDB
Local (in memory, a free port) with the template's tables and calls the handlers in-process
with API Gateway HTTP API v2 events, through the local runtime's harness.

Per preset: whole games played by human seats (``you.legal[0]``, else draw, else pass); every
accepted play's DynamoDB requests and ReturnConsumedCapacity, and the largest game item
(DynamoDB's size rule: attribute names + values); then what the stream consumer
(functions/archive) writes for the hands that ended, outside the requests. Seeded: a run
repeats exactly.

Section d's phones on sockets: the notifier posts to a recorder standing in for API Gateway's
management API (``WS_ENDPOINT``), with one connection item a person, so it builds and posts
each change's views as deployed; the messages are priced per 32 KB and the connections by the
minute (``LIVE_SECONDS_PER_MOVE``).
"""

from __future__ import annotations

import argparse
import http.server
import json
import math
import sys
import threading
import time
import urllib.parse
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from _dynamo import READS, WRITES, DynamoRequests, item_size
from _harness import as_player, choose, database, game_key, harness, new_game, raw_client
from _stats import percentile
from _tree import add_common_arguments, banner, footer, use_tree, write_json

#: (preset, players): every double-six preset, clasico at 3 and 4, and chipre (double-nine)
GAMES: list[tuple[str, int]] = [
    ("clasico", 3),
    ("clasico", 4),
    ("dos-jugadores", 2),
    ("ida-y-vuelta", 2),
    ("parejas-111", 4),
    ("infantil", 4),
    ("multicolor-plus", 4),
    ("buho21", 4),
    ("pool", 4),
    ("cruzado", 4),
    ("chipre", 4),
]

#: (action or "in hand"/"hand end", reads, writes, RCU, WCU, WCU on the table, GSI WCU text)
Shape = tuple[str, int, int, float, float, float, str]


@dataclass
class PresetCost:
    preset: str
    players: int
    hands: int = 0
    finished: bool = False
    plays: int = 0
    draws: int = 0
    passes: int = 0
    exact: int = 0  # plays with 1 read + 1 write and 1 RCU + 1 WCU (GSI writes included)
    exact_table: int = 0  # 1 read + 1 write and 1 RCU + 1 WCU on the table (GSIs left out)
    shapes: Counter[Shape] = field(default_factory=Counter)
    other_shapes: Counter[Shape] = field(default_factory=Counter)
    max_item: int = 0
    max_item_double_six: bool = True
    wcu_mismatch: int = 0  # reported WCU != ceil(max(old, new) / 1 KB) for the game write
    archived: int = 0  # records the stream consumers handled
    archive_writes: int = 0  # functions/archive's PutItems of hands (outside the requests)
    archive_wcu: float = 0.0
    note_writes: int = 0  # functions/notify's inbox writes (outside the requests)
    note_wcu: float = 0.0
    actions: int = 0  # accepted changes (plays, draws, passes)
    errors: list[str] = field(default_factory=list)


def measure_costs(
    api: Any,
    requests: DynamoRequests,
    client: Any,
    preset: str,
    players: int,
    seed: int,
    max_hands: int | None,
    max_actions: int = 6000,
) -> PresetCost:
    cost = PresetCost(preset, players)
    game_id, view = new_game(api, preset, players, seed)
    size = item_size(
        client.get_item(TableName="GameTable", Key=game_key(game_id), ConsistentRead=True)["Item"]
    )
    cost.max_item = size
    for _ in range(max_actions):
        if view["status"] != "playing":
            cost.finished = view["status"] == "finished"
            break
        if max_hands is not None and view["hand_number"] > max_hands:
            break
        seat = view["turn"]
        reply = as_player(api, "GET", f"/games/{game_id}", f"p{seat}")
        assert reply.status == 200, reply.body
        mine = reply.body
        action, body = choose(mine)
        requests.calls.clear()
        reply = as_player(api, "POST", f"/games/{game_id}/{action}", f"p{seat}", body)
        out = reply.body
        calls = list(requests.calls)
        if reply.status != 200:
            cost.errors.append(f"{action} {body}: {reply.status} {out}")
            break
        old_size = size
        size = item_size(
            client.get_item(TableName="GameTable", Key=game_key(game_id), ConsistentRead=True)[
                "Item"
            ]
        )
        cost.max_item = max(cost.max_item, size)
        reads = sum(1 for c in calls if c.operation in READS)
        writes = sum(1 for c in calls if c.operation in WRITES)
        rcu = sum(c.total or 0 for c in calls if c.operation in READS)
        wcu = sum(c.total or 0 for c in calls if c.operation in WRITES)
        table_wcu = sum(c.table for c in calls if c.operation in WRITES)
        gsi: Counter[str] = Counter()
        for c in calls:
            if c.operation in WRITES:
                gsi.update(c.indexes)
        gsi_text = "+".join(f"{units:g} {name}" for name, units in sorted(gsi.items()) if units)
        ended = out["hand_number"] != mine["hand_number"] or out["status"] == "finished"
        tag = "hand end" if ended else "in hand"
        game_writes = [c for c in calls if c.operation == "PutItem"]
        if game_writes and game_writes[-1].total is not None:
            expected = math.ceil(max(old_size, size) / 1024)
            if game_writes[-1].table != expected:
                cost.wcu_mismatch += 1
        if action == "play":
            cost.plays += 1
            cost.shapes[(tag, reads, writes, rcu, wcu, table_wcu, gsi_text)] += 1
            if (reads, writes, rcu, wcu) == (1, 1, 1.0, 1.0):
                cost.exact += 1
            if (reads, writes, rcu, table_wcu) == (1, 1, 1.0, 1.0):
                cost.exact_table += 1
        else:
            cost.draws += action == "draw"
            cost.passes += action == "pass"
            cost.other_shapes[(action, reads, writes, rcu, wcu, table_wcu, gsi_text)] += 1
        view = out
    cost.hands = view["hand_number"]
    cost.finished = view["status"] == "finished"
    requests.calls.clear()
    cost.archived = api.drain()
    puts = [c for c in requests.calls if c.operation == "PutItem" and c.kind == "HAND"]
    cost.archive_writes, cost.archive_wcu = len(puts), sum(c.total or 0 for c in puts)
    notes = [c for c in requests.calls if c.operation in WRITES and c.kind == "NOTE"]
    cost.note_writes, cost.note_wcu = len(notes), sum(c.total or 0 for c in notes)
    cost.actions = cost.plays + cost.draws + cost.passes
    return cost


def shape_text(shape: Shape) -> str:
    tag, reads, writes, rcu, wcu, table_wcu, gsi = shape
    split = f" (table {table_wcu:g} + GSI {gsi})" if gsi else f" (table {table_wcu:g})"
    return f"{tag}: {reads}R+{writes}W {rcu:g}RCU+{wcu:g}WCU{split}"


def print_shapes(title: str, tallies: list[Counter[Any]]) -> None:
    """One line per request shape, most frequent first, summed over every game."""
    total: Counter[str] = Counter()
    for tally in tallies:
        for shape, count in tally.items():
            total[shape_text(shape)] += count
    print(title)
    for text, count in total.most_common():
        print(f"  {count:>6}  {text}")


def report_costs(costs: list[PresetCost], max_hands: int | None) -> dict[str, Any]:
    print(
        "\na. DynamoDB per accepted play (whole matches"
        f"{', first 2 hands' if max_hands else ''}; goal 1R+1W, 1 RCU + 1 WCU)"
    )
    header = (
        f"{'preset':<16}{'n':>2}{'hands':>6}{'plays':>6}{'exact':>7}{'%':>6}"
        f"{'table':>7}{'max item B':>11}{'draw/pass R+W':>15}"
        "  exceptions (count x shape)"
    )
    print(header)
    print("-" * len(header))
    for cost in costs:
        exceptions = [
            f"{count}x {shape_text(shape)}"
            for shape, count in sorted(cost.shapes.items(), key=lambda kv: -kv[1])
            if shape[1:5] != (1, 1, 1.0, 1.0)
        ]
        others = sorted({f"{s[1]}+{s[2]}" for s in cost.other_shapes})
        share = 100 * cost.exact / cost.plays if cost.plays else 0
        finished = "" if cost.finished else "*"
        print(
            f"{cost.preset:<16}{cost.players:>2}{cost.hands:>5}{finished:1}{cost.plays:>6}"
            f"{cost.exact:>7}{share:>6.1f}{cost.exact_table:>7}{cost.max_item:>11}"
            f"{','.join(others) or '-':>15}  {'; '.join(exceptions) or 'none'}"
        )
        for error in cost.errors:
            print(f"    ERROR {error}")
    total_plays = sum(c.plays for c in costs)
    total_exact = sum(c.exact for c in costs)
    six = [c for c in costs if c.preset != "chipre"]
    print(
        "exact: plays with 1R+1W and 1 RCU + 1 WCU in all (GSIs included); table: the "
        "same counting only the base table's units"
    )
    print(
        f"all: {total_exact}/{total_plays} plays exactly 1R+1W and 1RCU+1WCU, "
        f"{sum(c.exact_table for c in costs)} counting the table alone; "
        f"largest double-six item {max(c.max_item for c in six)} B, "
        f"chipre {max(c.max_item for c in costs if c.preset == 'chipre')} B; "
        f"game writes whose WCU != ceil(max(old,new)/1KB): "
        f"{sum(c.wcu_mismatch for c in costs)}"
    )
    print(
        "stream consumer (functions/archive, outside the requests): "
        f"{sum(c.archived for c in costs)} marked records, "
        f"{sum(c.archive_writes for c in costs)} archive PutItems, "
        f"{sum(c.archive_wcu for c in costs):g} WCU, for "
        f"{sum(c.hands - 1 for c in costs)} hands that ended before the last"
    )
    actions = sum(c.actions for c in costs)
    note_writes = sum(c.note_writes for c in costs)
    print(
        "notifications (functions/notify, outside the requests; every seat a person, no device "
        f"or socket): {note_writes} inbox writes, {sum(c.note_wcu for c in costs):g} WCU for "
        f"{actions} accepted changes = {note_writes / max(actions, 1):.2f} a change"
    )
    if not all(c.finished for c in costs):
        print("(* = stopped before the match ended)")
    print_shapes("distribution over every play:", [c.shapes for c in costs])
    print_shapes("draws and passes:", [c.other_shapes for c in costs])
    return {
        "plays": total_plays,
        "exact": total_exact,
        "exact_table": sum(c.exact_table for c in costs),
        "max_item_double_six": max(c.max_item for c in six),
        "max_item_chipre": max(c.max_item for c in costs if c.preset == "chipre"),
        "errors": sum(len(c.errors) for c in costs),
    }


# ------------------------------------------------------------------------------ dollars

#: us-east-1 list prices (USD): HTTP API requests (first 300 million a month), Lambda arm64
#: requests and GB-seconds, DynamoDB on-demand read and write request units, SNS mobile push
PRICES = {
    "api_request": 1.00 / 1e6,
    "lambda_request": 0.20 / 1e6,
    "lambda_gb_second": 0.0000133334,
    "rru": 0.125 / 1e6,
    "wru": 0.625 / 1e6,
    "push": 0.50 / 1e6,
    # API Gateway WebSocket: a message (either way) per 32 KB, and a connection's minutes
    "socket_message": 1.00 / 1e6,
    "connection_minute": 0.25 / 1e6,
}
#: a socket message is billed in 32 KB units
SOCKET_UNIT = 32 * 1024
#: how long a live move takes, for the connection minutes of a live match (a guess: the
#: figures move by a cent per 1,000 matches at twice this)
LIVE_SECONDS_PER_MOVE = 5.0
MEMORY_GB = 0.5  # the template's MemorySize
#: a 512 MB function gets about a third of a vCPU: handler time measured here, times this
CPU_SCALE = 3.0


@dataclass
class MatchBill:
    preset: str
    players: int
    #: sockets: every person's WebSocket carries each change's view (a read only where a message
    #: had none); live: read after every change (the socket's game_changed before it carried
    #: views); turns: read when told it is their turn
    phones: str = "live"
    moves: int = 0
    turn_changes: int = 0
    api_requests: int = 0
    view_reads: int = 0
    handler_ms: list[float] = field(default_factory=list)
    stream_records: int = 0
    stream_ms: list[float] = field(default_factory=list)  # each stream batch's handler time
    rru: float = 0.0
    wru: float = 0.0
    notifications: int = 0
    socket_messages: int = 0  # in 32 KB units
    socket_bytes: int = 0
    persons: int = 0

    def connection_minutes(self) -> float:
        if self.phones != "sockets":
            return 0.0
        return self.persons * self.moves * LIVE_SECONDS_PER_MOVE / 60

    def dollars(self) -> dict[str, float]:
        billed_ms = sum(math.ceil(ms * CPU_SCALE) for ms in self.handler_ms + self.stream_ms)
        invocations = self.api_requests + len(self.stream_ms)
        return {
            "API requests": self.api_requests * PRICES["api_request"],
            "Lambda requests": invocations * PRICES["lambda_request"],
            "Lambda duration": billed_ms / 1000 * MEMORY_GB * PRICES["lambda_gb_second"],
            "DynamoDB reads": self.rru * PRICES["rru"],
            "DynamoDB writes": self.wru * PRICES["wru"],
            "pushes (if every notification is pushed)": self.notifications * PRICES["push"],
            "socket messages": self.socket_messages * PRICES["socket_message"],
            "socket connection minutes": self.connection_minutes() * PRICES["connection_minute"],
        }

    def floor(self) -> float:
        """Issue 11's floor: per move one API request, one invocation (at this run's median
        handler time), 1 RRU and 1 WRU; 2 WRU more when the turn passes to another person;
        one inbox write and one push per notification. Phones on sockets add what the contract
        sends them at the least: one message a change to every seated person (docs/api.md),
        and their connections' minutes."""
        median_ms = sorted(self.handler_ms)[len(self.handler_ms) // 2] * CPU_SCALE
        per_move = (
            PRICES["api_request"]
            + PRICES["lambda_request"]
            + median_ms / 1000 * MEMORY_GB * PRICES["lambda_gb_second"]
            + PRICES["rru"]
            + PRICES["wru"]
        )
        sockets = 0.0
        if self.phones == "sockets":
            sockets = self.moves * self.persons * PRICES["socket_message"]
            sockets += self.connection_minutes() * PRICES["connection_minute"]
        return (
            self.moves * per_move
            + self.turn_changes * 2 * PRICES["wru"]
            + self.notifications * (PRICES["wru"] + PRICES["push"])
            + sockets
        )


class SocketRecorder:
    """API Gateway's WebSocket management API as the notifier calls it (``WS_ENDPOINT``): a
    local HTTP server that takes every ``PostToConnection`` and counts its 32 KB units and
    bytes, with one connection item a person in the table (``connect``), so that the
    notifier builds and posts each change's views exactly as deployed."""

    def __init__(self) -> None:
        recorder = self
        self.lock = threading.Lock()
        self.units = 0
        self.bytes = 0
        self.latest: dict[tuple[str, str, int], dict[str, Any]] = {}
        self.owner: dict[str, str] = {}  # connection id -> player

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # PostToConnection
                data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                recorder.posted(self.path.rsplit("/", 1)[-1], data)
                self._answer(200, b"")

            def do_GET(self) -> None:  # GetConnection: open
                self._answer(200, b'{"connectedAt": "2026-01-01T00:00:00Z"}')

            def do_DELETE(self) -> None:
                self._answer(204, b"")

            def _answer(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def posted(self, connection: str, data: bytes) -> None:
        connection = urllib.parse.unquote(connection)
        message = json.loads(data)
        with self.lock:
            self.units += max(1, math.ceil(len(data) / SOCKET_UNIT))
            self.bytes += len(data)
            if message.get("type") == "game_changed" and connection in self.owner:
                key = (self.owner[connection], message["game"], message["version"])
                self.latest[key] = message

    def connect(self, players: list[str]) -> None:
        """One open socket for each of ``players`` (its item, as $connect writes it)."""
        from domino.api import wiring

        store = wiring.connection_store()
        for player in players:
            connection = f"conn-{player}"
            if connection not in self.owner:
                store.add(player, connection, time.time(), None)
                self.owner[connection] = player

    def view_of(self, player: str, game: str, version: int) -> dict[str, Any] | None:
        """The view ``player``'s socket was sent with ``version`` of ``game`` (None: none)."""
        with self.lock:
            message = self.latest.get((player, game, version))
        return message.get("view") if message else None

    def take_tally(self) -> tuple[int, int]:
        """The 32 KB units and bytes posted since the last tally."""
        with self.lock:
            tally = (self.units, self.bytes)
            self.units = self.bytes = 0
        return tally

    def close(self) -> None:
        self.server.shutdown()


def bill_match(
    api: Any,
    requests: DynamoRequests,
    preset: str,
    players: int,
    seed: int,
    phones: str,
    sockets: SocketRecorder | None = None,
) -> MatchBill:
    """One whole match as phones play it: create and joins, then per change the mover's move
    and the other people's reads; each phone moves from the last view it holds (its own answer
    or its read). ``phones``: "sockets", every person has a WebSocket open (``sockets``, the
    recorder the notifier posts to) and redraws from the view each change's message carries,
    reading the game only where a message has none (a tree before the messages carried views:
    ``--tree``); "live", every other person reads the new view after each change, as a phone
    told by a socket without views would (its messages not priced); "turns", as a
    correspondence player's app does, a person reads when a notification tells them (the turn
    passed to them, a hand or the match ended).
    The stream consumers run after each change, so each of their batches holds one change's
    records (a quiet stream's worst case: busy shards batch many games' changes together)."""
    bill = MatchBill(preset, players, phones, persons=players)
    requests.calls.clear()
    batches_before = len(api.stream_batches)
    prefix = "s" if phones == "sockets" else "p"  # people with a socket open
    if phones == "sockets":
        assert sockets is not None, "phones on sockets need the recorder"
        sockets.connect([f"{prefix}{seat}" for seat in range(players)])
        requests.calls.clear()

    def send(method: str, path: str, seat: str, body: Any = None) -> Any:
        player = f"{prefix}{seat.removeprefix('p')}"
        reply = as_player(api, method, path, player, body)
        assert reply.status in (200, 201), reply.body
        bill.api_requests += 1
        bill.handler_ms.append(reply.elapsed * 1000)
        return reply.body

    view = send("POST", "/games", "p0", {"preset": preset, "players": players, "seed": seed})
    game = view["id"]
    held = {0: view}
    for seat in range(1, players):
        held[seat] = view = send("POST", f"/games/{game}/join", f"p{seat}", {})
    if phones == "sockets":
        bill.stream_records += api.drain()
    for seat in range(players - 1):  # the deal came with the last join: the others read it
        got = sockets.view_of(f"{prefix}{seat}", game, view["version"]) if sockets else None
        if got is None or phones != "sockets":
            got = send("GET", f"/games/{game}", f"p{seat}")
            bill.view_reads += 1
        held[seat] = got
    if phones != "sockets":
        bill.stream_records += api.drain()
    while view["status"] == "playing":
        mover, hand = view["turn"], view["hand_number"]
        action, body = choose(held[mover])
        view = held[mover] = send("POST", f"/games/{game}/{action}", f"p{mover}", body)
        bill.moves += 1
        if view["status"] == "playing" and view["turn"] != mover:
            bill.turn_changes += 1
        ended = view["status"] != "playing" or view["hand_number"] != hand
        if sockets is not None and phones == "sockets":
            bill.stream_records += api.drain()
            for seat in range(players):
                if seat == mover:
                    continue
                got = sockets.view_of(f"{prefix}{seat}", game, view["version"])
                if got is None:  # past 32 KB, or no message: the phone reads the game
                    got = send("GET", f"/games/{game}", f"p{seat}")
                    bill.view_reads += 1
                held[seat] = got
            continue
        for seat in range(players):
            told = ended or (view["status"] == "playing" and view["turn"] == seat)
            if seat != mover and (phones == "live" or told):
                held[seat] = send("GET", f"/games/{game}", f"p{seat}")
                bill.view_reads += 1
        bill.stream_records += api.drain()
    bill.stream_ms = [seconds * 1000 for _, _, seconds in api.stream_batches[batches_before:]]
    for call in requests.calls:
        if call.operation in READS:
            bill.rru += call.total or 0
        elif call.operation in WRITES:
            bill.wru += call.total or 0
            if call.kind == "NOTE" and call.operation == "PutItem":  # not the outbox's mark
                bill.notifications += 1
    if sockets is not None and phones == "sockets":
        bill.socket_messages, bill.socket_bytes = sockets.take_tally()
    return bill


def measure_keyed(api: Any, requests: DynamoRequests, seed: int, moves: int) -> dict[str, Any]:
    """Issue 11's goal for keys: the same seeded dos-jugadores game played twice, its first
    ``moves`` moves unkeyed and then each with a fresh Idempotency-Key; per move, the
    capacity each run spent (RCU, WCU) and the keyed run's extra."""
    runs: dict[bool, list[tuple[float, float, float]]] = {}
    for keyed in (False, True):
        game, view = new_game(api, "dos-jugadores", 2, seed)
        spent: list[tuple[float, float, float]] = []
        for number in range(moves):
            if view["status"] != "playing":
                break
            player = f"p{view['turn']}"
            mine = as_player(api, "GET", f"/games/{game}", player).body
            action, body = choose(mine)
            headers = {"Idempotency-Key": f"{game}-{number}"} if keyed else {}
            requests.calls.clear()
            reply = as_player(api, "POST", f"/games/{game}/{action}", player, body, **headers)
            assert reply.status == 200, reply.body
            calls = list(requests.calls)
            rcu = sum(c.total or 0 for c in calls if c.operation in READS)
            wcu = sum(c.total or 0 for c in calls if c.operation in WRITES)
            key_wcu = sum(c.total or 0 for c in calls if c.operation in WRITES and c.kind == "KEY")
            spent.append((rcu, wcu, key_wcu))
            view = reply.body
        runs[keyed] = spent
    pairs = list(zip(runs[False], runs[True], strict=False))
    extra = [keyed[1] - plain[1] for plain, keyed in pairs]
    n = len(pairs)
    figures = {
        "moves": n,
        "unkeyed_rcu": sum(p[0] for p, _ in pairs) / n,
        "unkeyed_wcu": sum(p[1] for p, _ in pairs) / n,
        "keyed_rcu": sum(k[0] for _, k in pairs) / n,
        "keyed_wcu": sum(k[1] for _, k in pairs) / n,
        "record_wcu": sum(k[2] for _, k in pairs) / n,
        "extra_wcu_max": max(extra),
        "extra_wcu_mean": sum(extra) / n,
        "moves_over_one_extra_wcu": sum(1 for e in extra if e > 1),
    }
    print(
        f"\ne. A keyed move against the same move unkeyed (dos-jugadores, seed {seed}, "
        f"{n} moves each; goal: at most 1 WCU more)"
    )
    print(
        f"  unkeyed: {figures['unkeyed_rcu']:.2f} RCU + {figures['unkeyed_wcu']:.2f} WCU a move; "
        f"keyed: {figures['keyed_rcu']:.2f} RCU + {figures['keyed_wcu']:.2f} WCU "
        f"({figures['record_wcu']:.2f} of them the answer's record)"
    )
    print(
        f"  extra WCU per move: mean {figures['extra_wcu_mean']:.2f}, max "
        f"{figures['extra_wcu_max']:g}; moves over 1 extra WCU: "
        f"{figures['moves_over_one_extra_wcu']} of {n}"
    )
    return figures


def report_bills(bills: list[MatchBill]) -> dict[str, Any]:
    print(
        "\nd. Dollars per 1,000 whole matches at us-east-1 list prices (no Idempotency-Key; "
        f"Lambda time = handler time here x {CPU_SCALE:g}, the stream consumers' "
        f"batches too, arm64 at {MEMORY_GB * 1024:.0f} MB)"
    )
    figures: dict[str, Any] = {}
    for bill in bills:
        parts = bill.dollars()
        total = sum(parts.values())
        floor = bill.floor()
        print(
            f"  {bill.preset} ({bill.players} players, {bill.phones} phones): {bill.moves} moves, "
            f"{bill.api_requests} API requests ({bill.view_reads} of them other players' reads), "
            f"{bill.stream_records} stream records in {len(bill.stream_ms)} batches (median "
            f"{percentile(bill.stream_ms, 0.5):.1f} ms here), {bill.rru:g} RRU, {bill.wru:g} WRU, "
            f"{bill.notifications} notifications"
            + (
                f", {bill.socket_messages} socket messages ({bill.socket_bytes:,} bytes, "
                f"{bill.connection_minutes():.0f} connection minutes at "
                f"{LIVE_SECONDS_PER_MOVE:g} s a move)"
                if bill.phones == "sockets"
                else ""
            )
        )
        for name, dollars in parts.items():
            print(f"    {name:<44}${dollars * 1000:>8.3f}")
        print(
            f"    {'total per 1,000 matches':<44}${total * 1000:>8.3f}  "
            f"(floor ${floor * 1000:.3f}: {total / floor:.2f}x)"
        )
        figures[f"{bill.preset}-{bill.players}-{bill.phones}"] = {
            "dollars_per_1000": total * 1000,
            "floor_per_1000": floor * 1000,
            "parts_per_1000": {k: v * 1000 for k, v in parts.items()},
        }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the first 2 hands of each game")
    parser.add_argument("--endpoint", help="use this DynamoDB (e.g. DynamoDB Local) instead")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    # GET handlers add no metric: Powertools warns about it once per process
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    started = time.perf_counter()
    banner("bench/cost.py", tree)
    max_hands = 2 if args.quick else None
    requests = DynamoRequests().install()
    requests.counting = True
    sockets = SocketRecorder()
    with database(tree, args.endpoint, WS_ENDPOINT=sockets.url) as endpoint:
        api = harness(tree, endpoint)
        client = requests.ignore(raw_client(endpoint))
        costs = [
            measure_costs(api, requests, client, preset, players, 7 + index, max_hands)
            for index, (preset, players) in enumerate(GAMES)
        ]
        figures = report_costs(costs, max_hands)
        bills = [
            bill_match(api, requests, preset, players, 101 + index, phones, sockets)
            for phones in ("sockets", "live", "turns")
            for index, (preset, players) in enumerate([("dos-jugadores", 2), ("clasico", 4)])
        ]
        figures["dollars"] = report_bills(bills)
        figures["keyed"] = measure_keyed(api, requests, 201, 40 if args.quick else 400)
    sockets.close()
    write_json(args.json, figures)
    footer(started)
    return 1 if figures["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
