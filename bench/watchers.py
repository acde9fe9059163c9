"""Watching: what the notifier's fan-out to a game's watchers costs per change, at 0, 10 and 100
watchers (docs/api.md "Watching").

    python bench/watchers.py [--changes N] [--tree PATH] [--json FILE]

On a DynamoDB Local of its own: a two-player game, and N sockets (connection items as $connect
writes them) watching it through ``DynamoWatchers.watch``. Each change is a real move through
the handlers; then the notifier's socket channel (``LiveChannel``, as functions/notify builds it)
begins the change and posts it to the watchers, through a recorder that stands in for API
Gateway's management API. Per change it prints the DynamoDB requests and read units the fan-out
made (0 at 0 watchers: the game item's count gates the Query), the messages posted, their bytes,
the fan-out's wall time with each post taking ``--post-ms`` (default 20 ms, a PostToConnection
round trip in the region), and the dollars per million changes at us-east-1 list prices
(on-demand reads $0.125 per million RRU; WebSocket messages $1.00 per million, in 32 KB units).
"""

from __future__ import annotations

import argparse
import math
import statistics
import threading
import time
from typing import Any

from _dynamo import DynamoRequests
from _harness import as_player, choose, database, harness
from _tree import add_common_arguments, banner, footer, use_tree, write_json

RRU_DOLLARS = 0.125 / 1e6
MESSAGE_DOLLARS = 1.00 / 1e6
MESSAGE_UNIT = 32 * 1024


class Recorder:
    """API Gateway's management API, recorded: every post succeeds after ``delay`` seconds
    (PostToConnection's round trip)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.posts = 0
        self.bytes = 0
        self.units = 0
        self.lock = threading.Lock()

    def post(self, connection_id: str, data: bytes) -> bool:
        time.sleep(self.delay)
        with self.lock:
            self.posts += 1
            self.bytes += len(data)
            self.units += max(1, math.ceil(len(data) / MESSAGE_UNIT))
        return True

    def close(self, connection_id: str) -> None:
        return None

    def is_open(self, connection_id: str) -> bool:
        return True


def measure(
    api: Any, watchers: int, changes: int, requests: DynamoRequests, post_ms: float
) -> dict[str, Any]:
    from domino.api import wiring
    from domino.limits import MAX_WATCHED, MAX_WATCHERS
    from domino.service.live import LiveChannel

    store = wiring.service().store
    body = {"preset": "dos-jugadores", "players": 2, "seed": 3}
    game = as_player(api, "POST", "/games", f"host{watchers}", body).body["id"]
    as_player(api, "POST", f"/games/{game}/join", f"guest{watchers}", {})
    players = {0: f"host{watchers}", 1: f"guest{watchers}"}
    for i in range(watchers):
        player, connection = f"w{watchers}-{i}", f"c{watchers}-{i}"
        wiring.connection_store().add(player, connection, time.time(), None)
        wiring.watcher_store().watch(game, player, connection, int(time.time()), MAX_WATCHERS,
                                     MAX_WATCHED)  # fmt: skip
    recorder = Recorder(post_ms / 1000)
    channel = LiveChannel(wiring.connection_store(), recorder, watchers=wiring.watcher_store())
    rru: list[float] = []
    reads: list[int] = []
    seconds: list[float] = []
    for _ in range(changes):
        old = store.load(game)
        assert old is not None and old.status == "playing"
        turn = as_player(api, "GET", f"/games/{game}", "p").body["turn"]
        view = as_player(api, "GET", f"/games/{game}", players[turn]).body
        action, move = choose(view)
        as_player(api, "POST", f"/games/{game}/{action}", players[turn], move)
        new = store.load(game)
        assert new is not None
        requests.calls.clear()
        requests.counting = True
        started = time.perf_counter()
        channel.begin(old, new)
        channel.watched()
        seconds.append(time.perf_counter() - started)
        requests.counting = False
        reads.append(len(requests.calls))
        rru.append(sum(c.total or 0.0 for c in requests.calls))
        if new.status != "playing":
            break
    done = len(seconds)
    per_change_rru = statistics.mean(rru)
    dollars = per_change_rru * RRU_DOLLARS + recorder.units / done * MESSAGE_DOLLARS
    return {
        "watchers": watchers,
        "changes": done,
        "requests_per_change": statistics.mean(reads),
        "rru_per_change": per_change_rru,
        "posts_per_change": recorder.posts / done,
        "bytes_per_post": recorder.bytes / max(1, recorder.posts),
        "ms_per_change_p50": statistics.median(seconds) * 1000,
        "dollars_per_million_changes": dollars * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument(
        "--post-ms", type=float, default=20.0, help="a post's round trip to API Gateway"
    )
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    banner("watchers", tree)
    started = time.perf_counter()
    requests = DynamoRequests().install()
    figures: dict[str, Any] = {"rows": []}
    with database(tree) as endpoint:
        api = harness(tree, endpoint)
        print(
            "watchers  changes  requests  RRU/change  posts/change  bytes/post  ms p50  $/M changes"
        )
        for watchers in (0, 10, 100):
            row = measure(api, watchers, args.changes, requests, args.post_ms)
            figures["rows"].append(row)
            print(
                f"{row['watchers']:>8}  {row['changes']:>7}  {row['requests_per_change']:>8.1f}"
                f"  {row['rru_per_change']:>10.2f}  {row['posts_per_change']:>12.0f}"
                f"  {row['bytes_per_post']:>10.0f}  {row['ms_per_change_p50']:>6.1f}"
                f"  {row['dollars_per_million_changes']:>11.2f}"
            )
    write_json(args.json, figures)
    footer(started)


if __name__ == "__main__":
    main()
