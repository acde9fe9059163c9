"""Bytes a client downloads for one whole ``dos-jugadores`` match: polling, and live.

    python bench/bytes.py [--sections polling,live] [--polls 4] [--seed 7] [--tree PATH]
        [--json FILE]

Prints figures, asserts nothing (docs/benchmarks.md records a run).

**live** (issue 23): two phones with a WebSocket open play the seeded match on the local
runtime (``python -m local`` in memory, as ``make run`` starts it). A phone redraws from the
``view`` a ``game_changed`` carries; where the message has none (a tree before the sockets
carried views, or a message past 32 KB), it reads ``GET /games/{id}``, unless it already holds
that version (the mover, from its own answer). The player on turn moves from the view it holds.
Counted per phone: HTTP requests and their bytes both ways (status line, headers, body), and
the socket's frames and bytes (RFC 6455 framing). ``--tree`` runs an older checkout's runtime
with this script: the run before and after, in one.

**polling**: two phones play the match in-process through the local runtime's harness on a
DynamoDB Local of its own. Each phone polls as an app without live updates would: ``--polls``
times per turn it reads the game (``GET /games/{id}``) and its list (``GET /me/games``), and
after a change it fetches the new moves (``GET /games/{id}/moves?after=N``, every page). The
player on turn then moves. The same match is played twice: once with no validators (every poll
a full body, as before ETags) and once sending ``If-None-Match`` with the last ``ETag`` (an
unchanged resource is a 304 without a body). Counted: status line, headers and body, as sent.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from _harness import JSON, choose, database, harness
from _tree import add_common_arguments, banner, footer, use_tree, write_json


@dataclass
class Downloads:
    """What one configuration's phones downloaded, per route."""

    requests: Counter[str] = field(default_factory=Counter)
    bytes: Counter[str] = field(default_factory=Counter)
    not_modified: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    hands: int = 0

    @property
    def total(self) -> int:
        return sum(self.bytes.values())


def size(reply: Any) -> int:
    """Bytes on the wire (HTTP/1.1 framing, no compression): status line, headers, body."""
    head = len(f"HTTP/1.1 {reply.status} X\r\n") + 2
    head += sum(len(name) + len(value) + 4 for name, value in reply.headers.items())
    return head + len(reply.raw.encode())


class Phone:
    """One player's app: it remembers the ETags it saw when ``etags`` is on."""

    def __init__(self, api: Any, player: str, etags: bool, seen: Downloads) -> None:
        self.api, self.player, self.etags, self.seen = api, player, etags, seen
        self.tags: dict[str, str] = {}
        self.view: dict[str, Any] | None = None
        self.known = 0  # the last move number this phone holds

    def get(self, path: str, route: str) -> Any:
        headers = dict(JSON)
        if self.etags and path in self.tags:
            headers["If-None-Match"] = self.tags[path]
        claims = {"sub": self.player, "name": self.player}
        reply = self.api.call("GET", path, claims=claims, headers=headers)
        assert reply.status in (200, 304), (path, reply.status, reply.body)
        self.seen.requests[route] += 1
        self.seen.bytes[route] += size(reply)
        if reply.status == 304:
            self.seen.not_modified[route] += 1
            return None
        if tag := reply.header("ETag"):
            self.tags[path] = tag
        return reply.body

    def poll(self, game: str) -> None:
        view = self.get(f"/games/{game}", "GET /games/{id}")
        self.get("/me/games", "GET /me/games")
        if view is None:
            return
        self.view = view
        while self.known < view["last_move"]:
            page = self.get(f"/games/{game}/moves?after={self.known}", "GET /games/{id}/moves")
            if page is None:
                break
            self.known = page["moves"][-1]["n"] if page["moves"] else view["last_move"]

    def act(self, game: str) -> dict[str, Any]:
        assert self.view is not None
        action, body = choose(self.view)
        claims = {"sub": self.player, "name": self.player}
        reply = self.api.call("POST", f"/games/{game}/{action}", body, claims=claims, headers=JSON)
        assert reply.status == 200, reply.body
        self.seen.requests[f"POST {action}"] += 1
        self.seen.bytes[f"POST {action}"] += size(reply)
        self.view = reply.body
        return dict(reply.body)


def play_match(api: Any, seed: int, polls: int, etags: bool) -> Downloads:
    seen = Downloads()
    claims = {"sub": "p0", "name": "p0"}
    body = {"preset": "dos-jugadores", "players": 2, "seed": seed}
    created = api.call("POST", "/games", body, claims=claims, headers=JSON)
    assert created.status == 201, created.body
    game = created.body["id"]
    joined = api.call("POST", f"/games/{game}/join", {}, claims={"sub": "p1"}, headers=JSON)
    assert joined.status == 200, joined.body
    phones = [Phone(api, "p0", etags, seen), Phone(api, "p1", etags, seen)]
    view = joined.body
    while view["status"] == "playing":
        for _ in range(polls):
            for phone in phones:
                phone.poll(game)
        view = phones[view["turn"]].act(game)
        seen.moves += 1
    for phone in phones:
        phone.poll(game)  # both see the end
    seen.hands = view["hand_number"]
    return seen


@dataclass
class LivePhone:
    """A phone with its socket open: what it sent and received over HTTP and the socket."""

    base: str
    token: str
    socket: Any
    view: dict[str, Any] | None = None
    requests: Counter[str] = field(default_factory=Counter)
    http_down: int = 0
    http_up: int = 0

    def call(self, method: str, path: str, route: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, headers, raw = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as err:
            status, headers, raw = err.code, err.headers, err.read()
        assert status in (200, 201), (path, status, raw[:300])
        self.requests[route] += 1
        self.http_up += len(f"{method} {path} HTTP/1.1\r\n") + 2 + len(data or b"")
        self.http_up += sum(len(k) + len(v) + 4 for k, v in req.header_items())
        self.http_down += len(f"HTTP/1.1 {status} OK\r\n") + len(headers.as_bytes()) + len(raw)
        return json.loads(raw)

    def catch_up(self, game: str, version: int, within: float) -> None:
        """Take the ``game_changed`` of ``version``: redraw from its view, else read the game."""
        got = self.socket.wait(game, version, within)
        assert got is not None, f"no game_changed of version {version} within {within} s"
        view = got[1].get("view")
        if view is not None:
            self.view = view
        elif self.view is None or self.view["version"] < version:
            self.view = self.call("GET", f"/games/{game}", "GET /games/{id}")

    @property
    def total_down(self) -> int:
        return self.http_down + self.socket.wire_bytes


def live_match(tree: Any, seed: int, within: float = 10.0) -> dict[str, Any]:
    """One seeded dos-jugadores match between two live phones on the tree's runtime."""
    from _inbox import Inbox
    from _runtime import start_runtime

    runtime = start_runtime(tree.path)
    phones: list[LivePhone] = []
    try:
        suffix = os.getpid()
        for name in (f"ana{suffix}", f"ben{suffix}"):
            token = runtime.token(name)
            socket = Inbox(f"ws://127.0.0.1:{runtime.port}/ws?token={token}")
            phones.append(LivePhone(runtime.base, token, socket))
        body = {"preset": "dos-jugadores", "players": 2, "seed": seed}
        phones[0].view = created = phones[0].call("POST", "/games", "POST /games", body)
        game = created["id"]
        phones[1].view = phones[1].call("POST", f"/games/{game}/join", "POST join", {})
        phones[0].catch_up(game, phones[1].view["version"], within)
        moves = 0
        while True:
            views = [p.view for p in phones]
            assert all(v is not None for v in views)
            if views[0]["status"] != "playing":  # type: ignore[index]
                break
            mover = next(p for p in phones if p.view["you"]["seat"] == p.view["turn"])  # type: ignore[index]
            action, move = choose(mover.view)  # type: ignore[arg-type]
            mover.view = mover.call("POST", f"/games/{game}/{action}", f"POST {action}", move)
            moves += 1
            for phone in phones:
                phone.catch_up(game, mover.view["version"], within)
        hands = phones[0].view["hand_number"]  # type: ignore[index]
        time.sleep(0.3)  # a late frame (a pong, a repeat) is counted too
    finally:
        for phone in phones:
            phone.socket.close()
        runtime.stop()
    return {
        "moves": moves,
        "hands": hands,
        "phones": [
            {
                "requests": dict(p.requests),
                "http_down": p.http_down,
                "http_up": p.http_up,
                "frames": p.socket.frames,
                "socket_bytes": p.socket.wire_bytes,
                "down": p.total_down,
            }
            for p in phones
        ],
    }


def print_live(figures: dict[str, Any], seed: int) -> None:
    print(
        f"\nlive: one dos-jugadores match (seed {seed}), {figures['moves']} moves in "
        f"{figures['hands']} hands, two phones with a WebSocket open\n"
    )
    print(f"{'phone':<7}{'requests':>9}{'HTTP down':>11}{'HTTP up':>9}{'frames':>8}"
          f"{'socket':>10}{'down in all':>13}")  # fmt: skip
    for index, phone in enumerate(figures["phones"]):
        print(
            f"{index:<7}{sum(phone['requests'].values()):>9}{phone['http_down']:>11,}"
            f"{phone['http_up']:>9,}{phone['frames']:>8}{phone['socket_bytes']:>10,}"
            f"{phone['down']:>13,}"
        )
        for route, count in sorted(phone["requests"].items()):
            print(f"         {route:<22}{count:>5}")
    phones = figures["phones"]
    requests = sum(sum(p["requests"].values()) for p in phones) / len(phones)
    down = sum(p["down"] for p in phones) / len(phones)
    print(f"a phone, on average: {requests:.0f} requests, {down / 1000:.1f} KB down")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", default="polling,live", help="polling, live or both")
    parser.add_argument("--polls", type=int, default=4, help="polls per phone per turn")
    parser.add_argument("--seed", type=int, default=7, help="the match's deal seed")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/bytes.py", tree)
    sections = set(args.sections.split(","))
    figures: dict[str, Any] = {}
    if "live" in sections:
        figures["live"] = live_match(tree, args.seed)
        print_live(figures["live"], args.seed)
    if "polling" not in sections:
        write_json(args.json, figures)
        footer(started)
        return 0
    with database(tree) as endpoint:
        api = harness(tree, endpoint)
        runs = {
            "without ETags": play_match(api, args.seed, args.polls, etags=False),
            "with ETags": play_match(api, args.seed, args.polls, etags=True),
        }
    before, after = runs["without ETags"], runs["with ETags"]
    print(
        f"\none dos-jugadores match (seed {args.seed}): {after.moves} moves in {after.hands} "
        f"hands, 2 phones polling {args.polls}x per turn\n"
    )
    print(f"{'route':<24}{'requests':>9}{'without':>12}{'with ETags':>12}{'304s':>7}")
    for route in sorted(before.requests):
        print(
            f"{route:<24}{before.requests[route]:>9}{before.bytes[route]:>12,}"
            f"{after.bytes[route]:>12,}{after.not_modified[route]:>7}"
        )
    print(
        f"{'total':<24}{sum(before.requests.values()):>9}{before.total:>12,}{after.total:>12,}"
        f"{sum(after.not_modified.values()):>7}"
    )
    print(f"\nwith ETags the phones download {after.total / before.total:.1%} of the bytes")
    for name, run in runs.items():
        figures[name] = {
            "bytes": run.total,
            "requests": dict(run.requests),
            "bytes_by_route": dict(run.bytes),
            "not_modified": dict(run.not_modified),
            "moves": run.moves,
            "hands": run.hands,
        }
    write_json(args.json, figures)
    footer(started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
