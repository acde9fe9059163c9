"""Bytes a client downloads for one whole ``dos-jugadores`` match, polling without and with ETags.

    python bench/bytes.py [--polls 4] [--seed 7] [--tree PATH] [--json FILE]

Prints figures, asserts nothing (docs/benchmarks.md records a run). Two phones play one seeded
``dos-jugadores`` match to its end, in-process through the local runtime's harness on a
DynamoDB Local of its own. Each phone polls as an app without live updates would: ``--polls``
times per turn it reads the game (``GET /games/{id}``) and its list (``GET /me/games``), and
after a change it fetches the new moves (``GET /games/{id}/moves?after=N``, every page). The
player on turn then moves. The same match is played twice: once with no validators (every poll
a full body, as before ETags) and once sending ``If-None-Match`` with the last ``ETag`` (an
unchanged resource is a 304 without a body). Counted: status line, headers and body, as sent.
"""

from __future__ import annotations

import argparse
import sys
import time
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polls", type=int, default=4, help="polls per phone per turn")
    parser.add_argument("--seed", type=int, default=7, help="the match's deal seed")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/bytes.py", tree)
    figures: dict[str, Any] = {}
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
