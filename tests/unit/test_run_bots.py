"""``run_bots``: bots move at their level while a person plays; once nobody is left, expert bots
finish the match at the quick ``UNWATCHED_LEVEL``; the expert thinks for the budget it is given."""

from __future__ import annotations

from typing import Any

import pytest
from domino.engine import Match, resolve_rules
from domino.service import writes
from domino.service.loaded import Game
from domino.store.records import GameRecord, Seat


def game_with(seats: list[Seat]) -> Game:
    record = GameRecord(
        id="g" * 22,
        version=1,
        status="playing",
        preset="dos-jugadores",
        config={"rules": {"target": 60}, "bot_level": "expert"},
        seats=seats,
    )
    game = Game(record)
    game.match = Match.start(resolve_rules("dos-jugadores", 2, {"target": 60}), seed=11)
    return game


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """The (level, budget) of every bot move ``run_bots`` asks the engine for."""
    calls: list[tuple[str, float]] = []
    real = writes.choose_move

    def spy(match: Match, seat: int, level: str, **thinking: Any) -> Any:
        calls.append((level, thinking["budget_ms"]))
        if level == "expert":
            thinking["samples"] = 1  # quick: this test is about who asks, not how well
        return real(match, seat, level, **thinking)

    monkeypatch.setattr(writes, "choose_move", spy)
    return calls


def test_an_expert_bot_facing_a_person_thinks_for_the_budget(
    asked: list[tuple[str, float]],
) -> None:
    game = game_with([Seat("ana", "Ana"), Seat(None, "Bot 1", "expert")])
    assert game.match is not None
    if game.match.turn == 0:  # ana leads: give the bot its turn
        game.match.apply(0, game.match.legal_moves()[0], 0)
    writes.run_bots(game, 0, 12.5)
    assert asked and set(asked) == {("expert", 12.5)}
    assert game.match.turn == 0 or game.match.status == "finished"


def test_with_nobody_left_expert_bots_finish_the_match_quickly(
    asked: list[tuple[str, float]],
) -> None:
    left = [Seat("ana", "Ana", "expert"), Seat(None, "Bot 1", "expert")]  # ana left: a bot
    game = game_with(left)
    writes.run_bots(game, 0)
    assert game.match is not None and game.match.status == "finished"
    assert {level for level, _ in asked} == {writes.UNWATCHED_LEVEL}
    assert len(asked) > 20  # a whole match, every move at the quick level
