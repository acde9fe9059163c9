"""Quick match and leaderboards: the closing figures of issue 22.

    python bench/matching.py [--quick] [--sections 1,2,3,4,5] [--pairs 30] [--fills 6]
        [--tickets 1000] [--seconds 10] [--processes 2] [--threads 4] [--population 100000]
        [--tree PATH] [--json FILE]

Prints figures, asserts nothing; exits non-zero only when an invariant breaks (a ticket in two
games, a player seated twice, a game with a seat missing, a rank or percentile the contract
does not allow). docs/benchmarks.md records a run. Sections 1 and 2 run on the local runtime
(``python -m local`` in memory, as ``make run`` starts it); 3 to 5 call the handlers in-process
on a DynamoDB Local of their own, as bench/races.py does.

1. Ticket -> ``match_found``: A opens a socket and posts a ticket (``wait_s`` null; unranked and
   ranked newcomers, both 1000, in turn), B opens a socket and posts the matching one; from B's
   201 (already ``matched``) to the ``game_changed`` carrying ``match_found`` on A's socket, and
   on B's. Goal: p95 under 1 s.
2. Bot fill: a ticket alone in its queue with ``wait_s`` 1 to 3; from its POST plus ``wait_s`` to
   its ``match_found`` on the socket (and to a poll of ``GET /match/tickets/{id}``, every 0.2 s,
   showing ``matched``). Goal: within 10 s.
3. Load: ``--tickets`` tickets of distinct players posted into one queue (unranked
   dos-jugadores) within ``--seconds``, from ``--processes`` processes of ``--threads`` threads;
   games made, tickets left searching (then after one look of the matcher, as a ticket's timer
   would take), cancelled transactions, capacity per matched player; then the invariants over
   the table.
4. Leaderboards: ``--population`` established ratings of one pool written straight into the
   table (the store's own item, histogram shards summed as the store keeps them); the RCU of
   ``GET /leaderboards/{pool}?limit=100`` and of ``/me`` for players in and far below the top
   1,000, and the percentile's error against an exact count of the population.
5. A rated match's cost: three two-player quick matches played to the end (unranked, ranked
   with established ratings, ranked newcomers); what the stream path writes for the change that
   finishes each, priced by AWS's rules (bench/_ledger.py).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from _dynamo import WRITES, item_size
from _harness import as_player, choose, database, harness, raw_client
from _inbox import Inbox
from _ledger import Entry, Ledger, summary, table_units, total
from _runtime import start_runtime
from _stats import percentile
from _tree import REPO, add_common_arguments, banner, footer, use_tree, write_json

TABLE = "GameTable"
QUICK = {"pairs": 8, "fills": 3, "tickets": 200, "seconds": 2.0, "population": 10_000}
FULL = {"pairs": 30, "fills": 6, "tickets": 1000, "seconds": 10.0, "population": 100_000}
LOAD_PRESET = "dos-jugadores"
BOARD_POOL = "clasico:4"  # section 4's pool (section 5 rates dos-jugadores:2)


def ticket(ranked: bool, wait_s: int | None) -> dict[str, Any]:
    return {"preset": LOAD_PRESET, "players": 2, "ranked": ranked, "wait_s": wait_s}


def spread(values: list[float]) -> str:
    if not values:
        return "n=0"
    return (
        f"n={len(values)}  p50 {percentile(values, 0.5):.0f} ms  "
        f"p95 {percentile(values, 0.95):.0f} ms  max {max(values):.0f} ms"
    )


def found_in(game: str) -> Any:
    def wanted(message: dict[str, Any]) -> bool:
        note = message.get("notification") or {}
        return bool(message.get("game") == game and note.get("type") == "match_found")

    return wanted


# ---------------------------------------------------------------------- 1. ticket -> match_found


def match_found_latency(runtime: Any, pairs: int, wait: float) -> dict[str, Any]:
    ws = f"ws://127.0.0.1:{runtime.port}/ws?token="
    other: dict[str, list[float]] = {"unranked": [], "ranked": []}
    own: list[float] = []
    http: list[float] = []
    missed: list[str] = []
    broken: list[str] = []
    for i in range(pairs):
        kind = "ranked" if i % 2 else "unranked"
        a, b = f"mfa{os.getpid()}x{i}", f"mfb{os.getpid()}x{i}"
        tokens = [runtime.token(a), runtime.token(b)]
        sockets = [Inbox(ws + t) for t in tokens]
        try:
            body = ticket(kind == "ranked", None)
            status, _, first = runtime.request("POST", "/match/tickets", body, tokens[0])
            if status != 201 or first["status"] != "searching":
                missed.append(f"pair {i}: A's ticket answered {status} {first}")
                continue
            sent = time.perf_counter()
            status, _, second = runtime.request("POST", "/match/tickets", body, tokens[1])
            answered = time.perf_counter()
            http.append((answered - sent) * 1000)
            game = second.get("game") if status == 201 else None
            if game is None:
                missed.append(f"pair {i}: B's ticket answered {status} {second}")
                for token, held in ((tokens[0], first), (tokens[1], second)):
                    if isinstance(held, dict) and held.get("id"):
                        runtime.request("DELETE", f"/match/tickets/{held['id']}", token=token)
                continue
            got = [s.wait_for(found_in(game), wait) for s in sockets]
            if got[0] is None:
                missed.append(f"pair {i}: no match_found on A's socket within {wait:.0f} s")
            else:
                other[kind].append((got[0][0] - answered) * 1000)
            if got[1] is not None:
                own.append((got[1][0] - answered) * 1000)
            _, _, mine = runtime.request("GET", f"/match/tickets/{first['id']}", token=tokens[0])
            if mine.get("status") != "matched" or mine.get("game") != game:
                broken.append(f"pair {i}: A's ticket is {mine.get('status')} in {mine.get('game')}")
        finally:
            for s in sockets:
                s.close()
    every = other["unranked"] + other["ranked"]
    print(f"\n1. ticket -> match_found ({pairs} pairs, dos-jugadores:2, wait_s null)")
    print(f"  B's POST /match/tickets (matches at once): {spread(http)}")
    print("  B's 201 -> match_found on A's socket:")
    for label, values in (("every pair", every), *other.items()):
        print(f"    {label:<11} {spread(values)}")
    print(f"  B's 201 -> match_found on B's own socket: {spread(own)}")
    print(f"  missed: {len(missed)}")
    for line in missed[:10]:
        print(f"    {line}")
    return {
        "pairs": pairs,
        "p50_ms": percentile(every, 0.5),
        "p95_ms": percentile(every, 0.95),
        "max_ms": max(every) if every else None,
        "own_p95_ms": percentile(own, 0.95),
        "http_p95_ms": percentile(http, 0.95),
        "missed": len(missed),
        "broken": broken,
    }


# ---------------------------------------------------------------------- 2. bot fill after wait_s


def bot_fill_delay(runtime: Any, samples: int, wait: float) -> dict[str, Any]:
    ws = f"ws://127.0.0.1:{runtime.port}/ws?token="
    socket_s: list[float] = []
    poll_s: list[float] = []
    rows: list[str] = []
    broken: list[str] = []
    missed = 0
    for i in range(samples):
        wait_s = 1 + i % 3
        player = f"bf{os.getpid()}x{i}"
        token = runtime.token(player)
        inbox = Inbox(ws + token)
        try:
            sent = time.perf_counter()
            body = ticket(False, wait_s)
            status, _, view = runtime.request("POST", "/match/tickets", body, token)
            if status != 201 or view["status"] != "searching":
                broken.append(f"sample {i}: a ticket alone answered {status} {view}")
                continue
            due = sent + wait_s
            polled = None
            while time.perf_counter() < due + wait:
                _, _, now = runtime.request("GET", f"/match/tickets/{view['id']}", token=token)
                if now["status"] == "matched":
                    polled = time.perf_counter()
                    break
                time.sleep(0.2)
            if polled is None:
                missed += 1
                rows.append(f"wait_s {wait_s}: not matched within {wait:.0f} s of its wait_s")
                continue
            game = now["game"]
            got = inbox.wait_for(found_in(game), 10)
            _, _, seen = runtime.request("GET", f"/games/{game}", token=token)
            bots = sum(1 for seat in seen["seats"] if seat["bot"])
            if got is not None:
                socket_s.append(got[0] - due)
                if got[0] < due:
                    broken.append(f"sample {i}: seated with a bot before its wait_s")
            poll_s.append(polled - due)
            rows.append(
                f"wait_s {wait_s}: match_found {'-' if got is None else f'{got[0] - due:.2f} s'}"
                f" after it, the poll {polled - due:.2f} s; {bots} bot seat(s)"
            )
        finally:
            inbox.close()
    print(f"\n2. bot fill after wait_s ({samples} tickets alone in their queue)")
    for line in rows:
        print(f"  {line}")
    for label, values in (("match_found on the socket", socket_s), ("the poll", poll_s)):
        if values:
            print(
                f"  created + wait_s -> {label}: p50 {percentile(values, 0.5):.2f} s, "
                f"max {max(values):.2f} s"
            )
    return {
        "samples": samples,
        "socket_p50_s": percentile(socket_s, 0.5),
        "socket_max_s": max(socket_s) if socket_s else None,
        "poll_max_s": max(poll_s) if poll_s else None,
        "missed": missed,
        "broken": broken,
    }


# ---------------------------------------------------------------------- 3. matching under load


def load_worker(args: argparse.Namespace, tree: Any) -> int:
    """A child of section 3: its share of the tickets, on the parent's DynamoDB Local."""
    folder = Path(args.worker_dir)
    with database(tree, os.environ["MATCHING_ENDPOINT"]) as endpoint:
        api = harness(tree, endpoint)
        ledger = Ledger(endpoint).install()
        as_player(api, "GET", "/match/tickets/warmupwarmup", f"warm{args.worker}")  # imports
        (folder / f"ready{args.worker}").touch()
        start_file = folder / "start"
        while not start_file.exists():
            time.sleep(0.01)
        start = float(start_file.read_text())
        ledger.counting = True
        gap = args.seconds / args.tickets
        lanes = args.processes * args.threads
        posted: list[dict[str, Any]] = []

        def lane(number: int) -> None:
            for k in range(number, args.tickets, lanes):
                pause = start + k * gap - time.time()
                if pause > 0:
                    time.sleep(pause)
                sent = time.time()
                reply = as_player(
                    api, "POST", "/match/tickets", f"{args.tag}{k:05d}", ticket(False, None)
                )
                body = reply.body if isinstance(reply.body, dict) else {}
                posted.append(
                    {
                        "k": k,
                        "player": f"{args.tag}{k:05d}",
                        "status": reply.status,
                        "code": reply.code,
                        "id": body.get("id"),
                        "state": body.get("status"),
                        "sent": sent - start,
                        "answered": time.time() - start,
                    }
                )

        first = (args.worker - 1) * args.threads
        threads = [threading.Thread(target=lane, args=(first + j,)) for j in range(args.threads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        ledger.counting = False
        write_json(args.json, {"posted": posted, "ledger": summary(ledger.take())})
    return 0


def merge(summaries: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for part in summaries:
        for key, row in part.items():
            into = merged.setdefault(
                key, {"n": 0, "reported": 0.0, "indexes": {}, "priced": 0.0, "priced_n": 0}
            )
            for field in ("n", "reported", "priced", "priced_n"):
                into[field] += row[field]
            for name, units in row["indexes"].items():
                into["indexes"][name] = into["indexes"].get(name, 0.0) + units
    return merged


def matching_under_load(
    args: argparse.Namespace, tree: Any, endpoint: str, api: Any, ledger: Ledger
) -> dict[str, Any]:
    from domino.api import wiring
    from domino.store.records import record_from_image
    from domino.store.tickets import queue_of

    tag = f"ld{os.getpid() % 10_000}p"
    # a calibration pair in the same queue, priced exactly: what each transaction's shape costs
    ledger.counting = ledger.exact = True
    for n in range(2):
        as_player(api, "POST", "/match/tickets", f"cal{tag}{n}", ticket(False, None))
    ledger.counting = ledger.exact = False
    prices = {
        f"{e.operation}|{e.shape}": e.priced + sum(e.priced_indexes.values())
        for e in ledger.take()
        if e.priced is not None and e.outcome == "ok"
    }
    folder = Path(tempfile.mkdtemp())
    env = {**os.environ, "MATCHING_ENDPOINT": endpoint}
    env["PYTHONPATH"] = os.pathsep.join([str(tree.shared), str(REPO)])
    common = [
        *("--tree", str(tree.path), "--tickets", str(args.tickets)),
        *("--seconds", str(args.seconds), "--processes", str(args.processes)),
        *("--threads", str(args.threads), "--tag", tag, "--worker-dir", str(folder)),
    ]
    children = [
        subprocess.Popen(
            [sys.executable, __file__, *common, "--worker", str(w), "--json", str(folder / f"{w}")],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for w in range(1, args.processes + 1)
    ]
    while not all((folder / f"ready{w}").exists() for w in range(1, args.processes + 1)):
        if any(c.poll() not in (None, 0) for c in children):
            raise SystemExit("a load worker failed before the start")
        time.sleep(0.05)
    (folder / "start.tmp").write_text(repr(time.time() + 0.5))
    (folder / "start.tmp").rename(folder / "start")  # whole, whenever a worker reads it
    for child in children:
        if child.wait() != 0:
            raise SystemExit(f"a load worker failed ({child.returncode})")
    results = [json.loads((folder / f"{w}").read_text()) for w in range(1, args.processes + 1)]
    posted = [row for result in results for row in result["posted"]]
    queue = queue_of(LOAD_PRESET, 2, False, None, "auto")
    client = ledger.ignore(raw_client(endpoint))
    left_after_burst = len(wiring.quick_match().tickets.queue(queue))
    ledger.counting = True
    made_by_timer = wiring.quick_match().match_queue(queue)  # one look, as a ticket's timer does
    ledger.counting = False
    ledgers = merge([result["ledger"] for result in results] + [summary(ledger.take())])
    items = scan(client)
    tickets = {
        i["player"]["S"]: i
        for i in items
        if i["pk"]["S"].startswith("TICKET#") and i["player"]["S"].startswith(tag)
    }
    markers = {
        i["pk"]["S"].removeprefix("PLAYER#")
        for i in items
        if i["sk"]["S"] == "TICKET" and i["pk"]["S"].startswith(f"PLAYER#{tag}")
    }
    games: dict[str, Any] = {}
    for item in items:
        if item["sk"]["S"] == "GAME" and item["pk"]["S"].startswith("GAME#"):
            record = record_from_image(item)
            if record is not None and any((s.player or "").startswith(tag) for s in record.seats):
                games[record.id] = record
    broken = check_load(posted, tickets, markers, games)
    statuses = Counter(str(t["status"]["S"]) for t in tickets.values())
    matched = statuses["matched"]
    answers = Counter(f"{p['status']} {p['state'] or p['code']}" for p in posted)
    span = max(p["answered"] for p in posted) - min(p["sent"] for p in posted)
    last_sent = max(p["sent"] for p in posted)
    matches = {k: v for k, v in ledgers.items() if "Put:GAME/GAME" in k}
    committed = sum(v["n"] for k, v in matches.items() if k.endswith("|ok"))
    cancelled: Counter[str] = Counter()
    for key, row in matches.items():
        outcome = key.rsplit("|", 1)[1]
        if outcome != "ok":
            cancelled[outcome] += row["n"]
    reported_w = sum(v["reported"] for k, v in ledgers.items() if is_write(k) and ok(k))
    reported_r = sum(v["reported"] for k, v in ledgers.items() if not is_write(k) and ok(k))
    priced = 0.0
    unpriced: list[str] = []
    for key, row in ledgers.items():
        if is_write(key) and ok(key):
            shape = key.rsplit("|", 1)[0]
            if shape in prices:
                priced += prices[shape] * row["n"]
            else:
                priced += row["reported"]
                unpriced.append(shape)
    match_price = next((v for k, v in prices.items() if "Put:GAME/GAME" in k), 0.0)
    queries = sum(v["n"] for k, v in ledgers.items() if k.startswith("Query|by_queue|"))
    people = max(matched, 1)
    print(
        f"\n3. matching under load: {len(posted):,} tickets into one queue "
        f"({args.processes} processes x {args.threads} threads, in-process handlers)"
    )
    print(
        f"  posted from {min(p['sent'] for p in posted):.2f} s to {last_sent:.2f} s "
        f"(asked: within {args.seconds:.0f} s), last answer at {span:.2f} s: "
        f"{len(posted) / span:.0f} tickets/s"
    )
    waits = [(p["answered"] - p["sent"]) * 1000 for p in posted]
    print(f"  POST /match/tickets: {spread(waits)}")
    for answer, count in answers.most_common():
        print(f"    {answer:<28}{count:>6,}")
    searched = [
        int(t["ended_at"]["N"]) - int(t["created_ms"]["N"]) / 1000
        for t in tickets.values()
        if t["status"]["S"] == "matched"
    ]
    if searched:
        print(
            f"  a ticket's wait to be matched (ended_at is whole seconds: -1 s to 0): "
            f"p50 {percentile(searched, 0.5):.1f} s, p95 {percentile(searched, 0.95):.1f} s, "
            f"max {max(searched):.1f} s"
        )
    print(
        f"  games made: {len(games):,} ({len(made_by_timer)} by the one look after the burst); "
        f"tickets matched {matched:,}, searching {statuses['searching']:,} "
        f"(right after the burst: {left_after_burst:,}), "
        f"other {len(tickets) - matched - statuses['searching']}"
    )
    print(
        f"  match transactions: {committed:,} committed, {sum(cancelled.values()):,} cancelled "
        f"({', '.join(f'{n:,} {k}' for k, n in cancelled.most_common()) or 'none'}): "
        f"{sum(cancelled.values()) / max(committed, 1):.2f} per game made"
    )
    print(f"  queue Queries: {queries:,} ({queries / max(len(posted), 1):.1f} a ticket)")
    print(
        f"  per matched player: WCU {priced / people:.1f} by AWS's rules "
        f"(DynamoDB Local reports {reported_w / people:.1f}), RCU {reported_r / people:.1f}; "
        f"a cancelled match transaction, if billed as committed: "
        f"+{match_price * sum(cancelled.values()) / people:.1f} WCU"
    )
    for shape, units in sorted(prices.items()):
        name = "a match" if "Put:GAME/GAME" in shape else "a ticket's open"
        print(f"    {name} ({shape.split('|', 1)[1]}): {units:.0f} WCU")
    if unpriced:
        print(f"    not priced (reported used): {sorted(set(unpriced))}")
    print(f"  invariants broken: {len(broken)}")
    for line in broken[:20]:
        print(f"    {line}")
    return {
        "tickets": len(posted),
        "posting_s": last_sent,
        "span_s": span,
        "games": len(games),
        "matched": matched,
        "searching_after_burst": left_after_burst,
        "searching": statuses["searching"],
        "committed": committed,
        "cancelled": dict(cancelled),
        "wcu_per_player": priced / people,
        "wcu_per_player_reported": reported_w / people,
        "rcu_per_player": reported_r / people,
        "broken": broken,
    }


def is_write(key: str) -> bool:
    return key.split("|", 1)[0] in WRITES


def ok(key: str) -> bool:
    return key.endswith("|ok")


def scan(client: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    kwargs: dict[str, Any] = {"TableName": TABLE}
    while True:
        page = client.scan(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def check_load(
    posted: list[dict[str, Any]],
    tickets: dict[str, dict[str, Any]],
    markers: set[str],
    games: dict[str, Any],
) -> list[str]:
    """Quick match's promises over what the table holds after the burst."""
    broken: list[str] = []
    for p in posted:
        if p["status"] >= 500:
            broken.append(f"{p['player']}: {p['status']} {p['code']}")
        if p["status"] == 201 and p["player"] not in tickets:
            broken.append(f"{p['player']}: a 201 ticket the table does not hold")
    seated: dict[str, list[str]] = {}
    for game_id, record in games.items():
        players = [s.player for s in record.seats]
        if len(players) != 2 or None in players or len(set(players)) != 2:
            broken.append(f"game {game_id}: seats {players}")
        if record.status != "playing":
            broken.append(f"game {game_id}: {record.status}")
        for player in players:
            seated.setdefault(str(player), []).append(game_id)
            held = tickets.get(str(player))
            if held is None or held.get("game", {}).get("S") != game_id:
                broken.append(f"game {game_id}: {player}'s ticket names another game (or none)")
    for player, ids in seated.items():
        if len(ids) > 1:
            broken.append(f"{player} is seated in {len(ids)} games: {ids}")
    for player, item in tickets.items():
        status, game = item["status"]["S"], item.get("game", {}).get("S")
        if status == "matched" and (game not in games or player not in seated):
            broken.append(f"{player}: matched into {game}, which does not seat them")
        if (status == "searching") != (player in markers):
            broken.append(f"{player}: ticket {status}, searching marker {player in markers}")
    return broken


# ---------------------------------------------------------------------- 4. leaderboards


def populate(client: Any, pool: str, size: int, seed: int) -> list[int]:
    """``size`` established ratings of ``pool`` (players ``lb000000`` on), as the store writes
    them, and its histogram shards (each player counted in the shard its id picks, as
    ``DynamoRatings.put`` does); the shown rating of each player, by index."""
    from domino.store.ratings import HIST_SHARDS, Rating, bucket_of, histogram_key, rating_item
    from domino.store.records import shard_of, to_attributes

    rnd = random.Random(seed)
    items, shown = [], []
    shards: list[Counter[int]] = [Counter() for _ in range(HIST_SHARDS)]
    for i in range(size):
        mu, sigma, games = rnd.gauss(25.0, 3.0), rnd.uniform(2.0, 4.0), rnd.randint(10, 400)
        rating = Rating(f"lb{i:06d}", pool, mu, sigma, games)
        items.append(to_attributes(rating_item(rating, 1, 1_800_000_000, f"Player {i}")))
        shown.append(rating.shown)
        shards[shard_of(rating.player, HIST_SHARDS)][bucket_of(rating.shown)] += 1

    def write(chunk: list[dict[str, Any]]) -> None:
        pending: dict[str, Any] = {TABLE: [{"PutRequest": {"Item": item}} for item in chunk]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}

    with ThreadPoolExecutor(4) as writers:
        list(writers.map(write, [items[i : i + 25] for i in range(0, size, 25)]))
    for shard, counts in enumerate(shards):
        item = {**histogram_key(pool, shard), **{f"b{b}": n for b, n in counts.items()}}
        client.put_item(TableName=TABLE, Item=to_attributes(item))
    return shown


def units_of(entries: list[Entry]) -> tuple[float, str]:
    rcu = sum(e.reported for e in entries if e.outcome == "ok")
    parts = Counter[str]()
    for e in entries:
        parts[f"{e.operation} {e.shape}".strip()] += 1
    detail = ", ".join(
        f"{n}x {k} {sum(e.reported for e in entries if f'{e.operation} {e.shape}'.strip() == k):g}"
        for k, n in parts.items()
    )
    return rcu, detail


def leaderboard_cost(api: Any, ledger: Ledger, endpoint: str, size: int) -> dict[str, Any]:
    from domino.store.ratings import HIST_SHARDS, histogram_key, rating_key
    from domino.store.records import to_attributes

    client = ledger.ignore(raw_client(endpoint))
    started = time.perf_counter()
    shown = populate(client, BOARD_POOL, size, seed=22)
    wrote = time.perf_counter() - started
    ascending = sorted(shown)
    descending = ascending[::-1]
    by_rating: dict[int, list[int]] = {}
    for i, rating in enumerate(shown):
        by_rating.setdefault(rating, []).append(i)
    print(
        f"\n4. leaderboards: {size:,} established ratings of {BOARD_POOL} written in {wrote:.0f} s "
        f"({size / wrote:.0f} items/s, BatchWriteItem from 4 threads)"
    )
    ledger.counting = True
    reply = as_player(api, "GET", f"/leaderboards/{BOARD_POOL}?limit=100", "viewer")
    top_rcu, top_detail = units_of(ledger.take())
    broken: list[str] = []
    rows = reply.body["players"] if reply.status == 200 else []
    if [r["rating"] for r in rows] != descending[:100]:
        broken.append("GET /leaderboards: the top 100 are not the highest ratings")
    print(f"  GET /leaderboards/{BOARD_POOL}?limit=100: {top_rcu:g} RCU ({top_detail})")

    def me(player: int) -> tuple[dict[str, Any], float, str]:
        answer = as_player(api, "GET", f"/leaderboards/{BOARD_POOL}/me", f"lb{player:06d}")
        rcu, detail = units_of(ledger.take())
        return answer.body, rcu, detail

    def exact(rating: int) -> tuple[float, int]:
        below = bisect.bisect_left(ascending, rating)
        above = size - bisect.bisect_right(ascending, rating)
        return 100.0 * below / size, above

    buckets = Counter(rating // 10 for rating in shown)
    densest, held = buckets.most_common(1)[0]
    inside = min((r for r in shown if r // 10 == densest and r % 10), key=lambda r: abs(r % 10 - 5))
    named = {
        "about rank 500 (top 1,000)": descending[499],
        "the 5th percentile (far below)": descending[int(size * 0.95)],
        f"in the densest bucket ({held / size:.1%} of the pool: counted on the index)": inside,
    }
    figures: dict[str, Any] = {"size": size, "write_s": wrote, "top_rcu": top_rcu, "me": {}}
    for label, rating in named.items():
        player = by_rating[rating][0]
        body, rcu, detail = me(player)
        share, above = exact(shown[player])
        print(
            f"  /me, {label}: rating {body['rating']}, rank {body['rank']}, percentile "
            f"{body['percentile']} (exact {share:.2f}): {rcu:g} RCU ({detail})"
        )
        figures["me"][label] = {"rcu": rcu, "rank": body["rank"], "above": above}
    if size < 100_000:  # what grows with the pool: the densest bucket's count, keys read
        first = to_attributes(rating_key("lb000000", BOARD_POOL))
        got = client.get_item(TableName=TABLE, Key=first)
        fields = ("pk", "sk", "lb_pool", "lb_rating", "name", "games")
        entry = item_size({k: v for k, v in got["Item"].items() if k in fields})
        print(
            f"  at 100,000 ratings the top and the rank's count (stopped at 1,000) stay as they "
            f"are; the densest bucket's count reads up to {held * 100_000 // size:,} entries of "
            f"{entry} bytes: {held * 100_000 / size * entry / 4096 / 2:.0f} RCU at most"
        )
    errors: list[float] = []
    top = range(size - 1, max(size - 1000, -1), -50)  # the top 1,000: exact ranks
    samples = sorted({*range(0, size, max(1, size // 200)), size - 1, *top})
    for place in samples:
        player = by_rating[ascending[place]][0]
        body, _, _ = me(player)
        share, above = exact(shown[player])
        errors.append(abs(body["percentile"] - share))
        wanted = above + 1 if above < 1000 else None
        if body["rank"] != wanted:
            broken.append(f"lb{player:06d}: rank {body['rank']}, exact {wanted}")
    ledger.counting = False
    sizes = []
    for shard in range(HIST_SHARDS):
        key = to_attributes(histogram_key(BOARD_POOL, shard))
        sizes.append(item_size(client.get_item(TableName=TABLE, Key=key)["Item"]))
    print(
        f"  histogram: {len(buckets)} buckets in use; a shard item {max(sizes):,} bytes at most, "
        f"so a match's ADD to it costs {table_units(None, {'b': {'S': 'x' * max(sizes)}}, True)}"
        " WCU in its transaction"
    )
    worst = max(errors)
    if worst > 1.0:
        broken.append(f"a percentile {worst:.2f} points from the exact share")
    print(
        f"  percentile against an exact count, {len(errors)} players across the pool: "
        f"mean error {sum(errors) / len(errors):.3f}, max {worst:.3f} points (goal: within 1)"
    )
    figures.update(percentile_max_error=worst, broken=broken)
    return figures


# ---------------------------------------------------------------------- 5. a rated match's cost


def play_out(api: Any, game: str, players: list[str]) -> int:
    """Play ``game`` to its end (the first legal move, else draw, else pass), draining the
    stream after every move but the last; the moves made."""
    seats = {}
    for player in players:
        view = as_player(api, "GET", f"/games/{game}", player).ok()
        seats[view["you"]["seat"]] = player
    moves = 0
    while view["status"] == "playing":
        mover = seats[view["turn"]]
        mine = as_player(api, "GET", f"/games/{game}", mover).ok()
        action, body = choose(mine)
        view = as_player(api, "POST", f"/games/{game}/{action}", mover, body).ok()
        moves += 1
        if view["status"] == "playing":
            api.drain()
    return moves


def rated_match_cost(api: Any, ledger: Ledger, quick: bool) -> dict[str, Any]:
    from domino.api import wiring
    from domino.service.ratings import RatingQueries
    from domino.store.ratings import DynamoRatings

    store = DynamoRatings(wiring.table())
    cases = {"unranked": (False, False), "ranked, established": (True, True)}
    if not quick:
        cases["ranked, newcomers"] = (True, False)
    figures: dict[str, Any] = {}
    broken: list[str] = []
    print("\n5. a finished match's stream path (dos-jugadores:2, two people), AWS's WCU")
    for n, (label, (ranked, established)) in enumerate(cases.items()):
        players = [f"rm{n}a", f"rm{n}b"]
        if established:
            for player in players:  # as POST /dev/rating does: 10 games, on the leaderboard
                RatingQueries(store).set_rating(player, "dos-jugadores:2", 25.0, 3.0, None, 0)
        before = [store.get(p, "dos-jugadores:2").games for p in players]
        replies = [
            as_player(api, "POST", "/match/tickets", p, ticket(ranked, None)).ok(201)
            for p in players
        ]
        game = replies[1]["game"]
        api.drain()
        moves = play_out(api, game, players)
        ledger.counting = ledger.exact = True
        api.drain()
        ledger.counting = ledger.exact = False
        entries = ledger.take()
        tally = [e for e in entries if "Put:GAME/TALLY" in e.shape]
        writes = total(entries, reads=False)
        reads = total(entries, reads=True)
        tally_wcu = total(tally, reads=False)
        kinds = Counter[str]()
        indexes = Counter[str]()
        for e in tally:
            kinds.update(e.kinds)
            indexes.update(e.priced_indexes)
        after = [store.get(p, "dos-jugadores:2").games for p in players]
        if ranked and [a - b for a, b in zip(after, before, strict=True)] != [1, 1]:
            broken.append(f"{label}: rated games {before} -> {after}")
        if len(tally) != 1:
            broken.append(f"{label}: {len(tally)} tally transactions")
        print(
            f"  {label:<20} ({moves} moves): the finish writes {writes:g} WCU, reads "
            f"{reads:g} RCU; its tally transaction {tally_wcu:g} WCU "
            f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}"
            f"{''.join(f'; GSI {k} {v}' for k, v in indexes.items())})"
        )
        figures[label] = {"writes": writes, "reads": reads, "tally": tally_wcu, "moves": moves}
    base = figures["unranked"]
    for label in cases:
        if label != "unranked":
            extra = figures[label]["writes"] - base["writes"]
            figures[label]["extra_wcu"] = extra
            print(
                f"  extra for a rated match, {label}: {extra:+g} WCU "
                f"({figures[label]['tally'] - base['tally']:+g} in the tally), "
                f"{figures[label]['reads'] - base['reads']:+g} RCU"
            )
    figures["broken"] = broken
    return figures


# ---------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, 10,000 ratings")
    parser.add_argument("--sections", default="1,2,3,4,5", help="which of 1-5 to run")
    for name, kind in (("pairs", int), ("fills", int), ("tickets", int), ("seconds", float)):
        parser.add_argument(f"--{name}", type=kind, default=None)
    parser.add_argument("--population", type=int, default=None)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--workers", type=int, default=4, help="the runtime's LOCAL_WORKERS")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--worker-dir", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tag", default="", help=argparse.SUPPRESS)
    add_common_arguments(parser)
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    tree = use_tree(args.tree)
    if args.worker is not None:
        return load_worker(args, tree)
    sections = {int(s) for s in args.sections.split(",") if s.strip()}
    started = time.perf_counter()
    banner("bench/matching.py", tree)
    figures: dict[str, Any] = {}
    if sections & {1, 2}:
        runtime = start_runtime(tree.path, args.workers)
        try:
            if 1 in sections:
                figures["match_found"] = match_found_latency(runtime, args.pairs, 10.0)
            if 2 in sections:
                figures["bot_fill"] = bot_fill_delay(runtime, args.fills, 20.0)
        finally:
            runtime.stop()
    if sections & {3, 4, 5}:
        with database(tree) as endpoint:
            api = harness(tree, endpoint)
            ledger = Ledger(endpoint).install()
            if 5 in sections:  # first: its drains read the stream from the start
                figures["rated_match"] = rated_match_cost(api, ledger, args.quick)
            if 3 in sections:
                figures["load"] = matching_under_load(args, tree, endpoint, api, ledger)
            if 4 in sections:
                figures["leaderboard"] = leaderboard_cost(api, ledger, endpoint, args.population)
    broken = [line for part in figures.values() for line in part.get("broken", [])]
    print(f"\ninvariants broken, in all: {len(broken)}")
    write_json(args.json, figures)
    footer(started)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
