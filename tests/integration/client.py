"""A short way to call the template's handlers in-process with API Gateway v2 events.

``Api.call("POST", "/games/x/play", {"tile": "3-5"}, player="bob")`` finds the template route,
builds the event the local runtime would, runs the function's handler and returns a ``Reply``
(status, headers, parsed JSON body): local.harness does that work, shared with the benchmarks;
this module adds the test's players (JWT claims from a player id), shorthands, a deal and the
checks on hidden tiles.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from domino.api import wiring
from domino.engine import Match, decode
from domino.engine.tiles import TILES
from domino.store.dynamo import DynamoGameStore
from domino.store.records import GameRecord

from local.harness import Harness, Reply
from local.template import Template
from tests.deals import DOS_DEAL

__all__ = [
    "DOS_DEAL",
    "NO_CLAIMS",
    "TEMPLATE",
    "Api",
    "Privileged",
    "Reply",
    "requests_to_dynamodb",
    "tiles_shown",
]

TEMPLATE = Template()  # parsed once for every Api of the session
NO_CLAIMS = object()  # pass as ``player`` for an event without JWT claims


class Api(Harness):
    """Every HTTP API route of template.yaml, invoked through its function's handler as
    ``player``; ``drain`` runs the stream consumers (functions/archive) on what the table's
    stream holds."""

    def __init__(self) -> None:
        super().__init__(TEMPLATE)

    def call(  # type: ignore[override]
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        player: Any = "alice",
        name: str | None = None,
        headers: dict[str, str] | None = None,
        locale: str | None = None,
        claims: dict[str, str] | None = None,
    ) -> Reply:
        """``claims``: more JWT claims (``iat``, ``iss``, ...) beside ``sub`` and ``name``."""
        sent = None
        if player is not NO_CLAIMS:
            sent = {"sub": player, "name": name or player.capitalize(), **(claims or {})}
            if locale is not None:
                sent["locale"] = locale
        return super().call(method, path, body, claims=sent, headers=headers)

    # ---------------------------------------------------------------- shorthands

    def create(self, player: str = "alice", **body: Any) -> Reply:
        return self.call("POST", "/games", body, player=player)

    def get(self, game: str, player: Any = "alice") -> Reply:
        return self.call("GET", f"/games/{game}", player=player)

    def join(self, game: str, player: str, **body: Any) -> Reply:
        return self.call("POST", f"/games/{game}/join", body, player=player)

    def play(
        self,
        game: str,
        player: str,
        tile: str,
        end: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        body: dict[str, Any] = {"tile": tile}
        if end is not None:
            body["end"] = end
        return self.call("POST", f"/games/{game}/play", body, player=player, headers=headers)

    def draw(self, game: str, player: str, headers: dict[str, str] | None = None) -> Reply:
        return self.call("POST", f"/games/{game}/draw", {}, player=player, headers=headers)

    def pass_(self, game: str, player: str, headers: dict[str, str] | None = None) -> Reply:
        return self.call("POST", f"/games/{game}/pass", {}, player=player, headers=headers)

    def leave(self, game: str, player: str) -> Reply:
        return self.call("POST", f"/games/{game}/leave", {}, player=player)

    def moves(
        self, game: str, player: Any = "alice", after: int = 0, limit: int | None = None
    ) -> Reply:
        """GET /moves once the stream consumers have caught up (``call`` reads without): one
        page of ``limit``, or (None) every page from ``after`` on, following ``next``, joined
        into the last page's reply."""
        self.drain()
        if limit is not None:
            path = f"/games/{game}/moves?after={after}&limit={limit}"
            return self.call("GET", path, player=player)
        joined: list[Any] = []
        while True:
            reply = self.call("GET", f"/games/{game}/moves?after={after}", player=player)
            if reply.status != 200:
                return reply
            joined += reply.body["moves"]
            if reply.body["next"] is None:
                reply.body["moves"] = joined
                return reply
            after = reply.body["next"]


# -------------------------------------------------------------------- hidden information

TILE = re.compile(r"^(\d{1,2})-(\d{1,2})$")
TILE_IN_TEXT = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")
REVEALED = ("last_hand", "result")  # hands shown when a hand ends (docs/api.md#what-a-player-sees)


def norm(a: str, b: str) -> str:
    x, y = sorted((int(a), int(b)))
    return f"{x}-{y}"


def tiles_shown(body: Any, *, skip: tuple[str, ...] = REVEALED) -> set[str]:
    """Every tile a JSON body shows: strings that are tiles, and tiles named inside messages.
    The subtrees in ``skip`` (a finished hand's revealed hands) are left out."""
    found: set[str] = set()

    def walk(node: Any, key: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in skip:
                    walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str):
            exact = TILE.match(node)
            if exact:
                found.add(norm(*exact.groups()))
            elif key == "message":
                found.update(norm(a, b) for a, b in TILE_IN_TEXT.findall(node))

    walk(body, None)
    return found


class Privileged:
    """What the store holds: the decoded engine state, for computing what a seat may not see."""

    def __init__(self, store: DynamoGameStore) -> None:
        self.store = store

    def record(self, game: str) -> GameRecord:
        record = self.store.load(game)
        assert record is not None
        return record

    def match(self, game: str) -> Match | None:
        record = self.record(game)
        return decode(record.state) if record.state else None

    def hidden(self, game: str | Match | None, seat: int | None) -> set[str]:
        """Tiles ``seat`` (None: a non-player) may not see now: other hands and the boneyard."""
        match = self.match(game) if isinstance(game, str) else game
        if match is None:
            return set()
        hidden = {str(TILES[t]) for t in match.boneyard}
        for other in range(match.players):
            if other != seat:
                hidden.update(str(t) for t in match.hand_of(other))
        return hidden

    def assert_hides(self, game: str | Match | None, seat: int | None, body: Any) -> None:
        leaked = tiles_shown(body) & self.hidden(game, seat)
        assert not leaked, f"seat {seat} was shown hidden tiles {sorted(leaked)}: {body}"


@contextmanager
def requests_to_dynamodb() -> Iterator[Counter[str]]:
    """Count the handlers' DynamoDB operations inside the block, by name."""
    calls: Counter[str] = Counter()
    events = wiring.service().store.client.meta.events

    def count(model: Any, **_: Any) -> None:
        calls[model.name] += 1

    events.register("before-call.dynamodb", count)
    try:
        yield calls
    finally:
        events.unregister("before-call.dynamodb", count)
