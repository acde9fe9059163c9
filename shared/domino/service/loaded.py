"""A loaded game: the stored record, its resolved rules and its decoded engine state."""

from __future__ import annotations

import json
import re
import secrets
from functools import lru_cache
from typing import Any

from domino.engine import Match, Ruleset, decode, resolve_rules
from domino.limits import MAX_GAME_ID
from domino.service.errors import GameNotFound
from domino.service.ports import GameStore
from domino.service.values import GameSeen
from domino.service.views import game_view
from domino.store.records import GameRecord, Seat

#: what a game id looks like (``secrets.token_urlsafe(16)``; older ids may be longer): anything
#: else is not a game, and never reaches a key
GAME_ID = re.compile(rf"[A-Za-z0-9_-]{{8,{MAX_GAME_ID}}}")


@lru_cache(maxsize=256)
def _rules_of(preset: str, players: int, overrides: str) -> Ruleset:
    """A stored game's rules, resolved once per container (Rulesets are immutable)."""
    return resolve_rules(preset, players, json.loads(overrides) if overrides else None)


class Game:
    """A loaded game: ``record`` as stored, ``rules`` resolved, ``match`` once dealt."""

    __slots__ = ("match", "record", "rules")

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        overrides = record.config.get("rules")
        self.rules: Ruleset = _rules_of(
            record.preset,
            record.players,
            json.dumps(overrides, sort_keys=True) if overrides else "",
        )
        self.match: Match | None = decode(record.state) if record.state else None

    @property
    def turn(self) -> int | None:
        """The seat on turn while the match is being played."""
        return self.match.turn if self.match and self.match.status == "playing" else None

    def seen_by(self, player: str | None, drawn: str | None = None) -> GameSeen:
        """The game as ``player`` may see it (``you`` only for a seated player)."""
        view: dict[str, Any] = game_view(self.record, self.rules, self.match, player, drawn)
        return GameSeen(self.record.id, self.record.version, view)


def new_game(preset: str, config: dict[str, Any], seats: list[Seat], at: int) -> Game:
    """A game not stored yet, with an unguessable id (``secrets``), waiting at version 1."""
    record = GameRecord(
        id=secrets.token_urlsafe(16),
        version=1,
        status="waiting",
        preset=preset,
        config=config,
        seats=seats,
        created_at=at,
        updated_at=at,
        marks=[(1, 1)],  # no move yet: the first will be n 1
    )
    return Game(record)


def load_game(store: GameStore, game_id: str) -> Game:
    """The game, read strongly consistent; ``GameNotFound`` for an id that is not a game's."""
    if not GAME_ID.fullmatch(game_id or ""):
        raise GameNotFound()
    record = store.load(game_id)
    if record is None:
        raise GameNotFound()
    return Game(record)
