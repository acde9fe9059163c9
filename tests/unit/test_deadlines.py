"""Turn deadlines on in-memory stores and an injected clock (never slept): reminders at 80 %,
``on_timeout`` auto and forfeit, the sweeper racing a move, and games nobody plays ending."""

from __future__ import annotations

from typing import Any

import pytest
from domino.engine.errors import DominoError
from domino.service.facade import GameService
from domino.service.inbox import Notifier
from domino.service.values import LEAVE, Caller, MakeMove, NewGame, TakeSeat
from domino.store.records import from_item, to_attributes

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryGameStore, MemoryInbox

ALICE, BOB = Caller("alice", "Alice"), Caller("bob", "Bob")
HOUR = 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Table:
    """A service on an in-memory store with a clock the test moves, and a notifier."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.store = MemoryGameStore()
        self.service = GameService(self.store, dev_mode=True, clock=self.clock)
        self.inbox = MemoryInbox()
        self.notifier = Notifier(self.inbox)
        self.read = 0

    def duel(self, **options: Any) -> str:
        """dos-jugadores, DOS_DEAL, 1 h turns: bob (seat 1) leads 6-6, then alice must draw."""
        new = NewGame("dos-jugadores", 2, deal=DOS_DEAL, seed=3, turn_timeout_hours=1, **options)
        game = self.service.commands.create(ALICE, new).game_id
        self.service.commands.join(BOB, game, TakeSeat(), None)
        return game

    def view(self, game: str, who: Caller = ALICE) -> dict[str, Any]:
        return self.service.queries.get(who, game).view

    def drain(self) -> None:
        for old, new in self.store.stream[self.read :]:
            self.notifier.on_change(to_attributes(old) if old else None, to_attributes(new))
        self.read = len(self.store.stream)

    def told(self, player: str) -> list[str]:
        notes = sorted((n for (p, _), n in self.inbox.notes.items() if p == player),
                       key=lambda n: (n.version, n.id))  # fmt: skip
        return [n.type for n in notes]


def test_nothing_is_due_before_its_time() -> None:
    table = Table()
    game = table.duel()
    assert table.view(game)["deadline"] is not None
    table.clock.advance(0.79 * HOUR)
    assert table.service.sweeper.sweep() == (0, 0, 0, 0, 0)


def test_the_player_on_turn_is_reminded_once_at_80_percent() -> None:
    table = Table()
    game = table.duel()  # bob is on turn
    table.clock.advance(0.8 * HOUR)
    assert table.service.sweeper.sweep() == (1, 1, 0, 0, 0)
    assert table.service.sweeper.sweep() == (0, 0, 0, 0, 0)  # due again only at the deadline
    table.drain()
    assert table.told("bob") == ["reminder"] and "reminder" not in table.told("alice")
    record = table.store.load(game)
    assert record is not None and record.reminded == record.version == 2  # the version stays


def test_auto_plays_the_turn_for_the_late_player() -> None:
    table = Table()
    game = table.duel()
    table.clock.advance(HOUR + 1)
    assert table.service.sweeper.sweep() == (1, 0, 1, 0, 0)
    view = table.view(game)
    assert view["board"]["tiles"][0] == {"tile": "6-6", "seat": 1, "end": None}
    assert view["turn"] == 0 and not view["seats"][1]["bot"]  # the seat stays bob's
    moves = table.service.queries.moves(ALICE, game, 0).moves
    assert moves[-1] == {**moves[-1], "action": "timeout", "move": "play", "tile": "6-6"}
    assert "forfeit" not in moves[-1]
    table.drain()
    assert table.told("bob")[-1] == "timeout" and table.told("alice")[-1] == "your_turn"
    # alice's clock starts now: her deadline is an hour after the timeout
    record = table.store.load(game)
    assert record is not None and record.deadline == int(table.clock.now) + HOUR


def test_auto_finishes_the_whole_turn_draws_included() -> None:
    """Alice holds no 6 after 6-6: the rules make her draw until she can play (each draw a
    timeout move, the tile shown to her alone), then she plays."""
    table = Table()
    game = table.duel()
    table.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)
    table.clock.advance(HOUR + 1)
    assert table.service.sweeper.sweep().timed_out == 1
    bobs = table.service.queries.moves(BOB, game, 1).moves
    alices = table.service.queries.moves(ALICE, game, 1).moves
    assert [m["move"] for m in bobs] == ["draw", "play"]
    assert "tile" not in bobs[0] and alices[0]["tile"] == "4-6"  # a drawn tile: hers only
    assert table.view(game)["turn"] == 1


def test_forfeit_hands_the_seat_to_a_bot() -> None:
    table = Table()
    game = table.duel(on_timeout="forfeit", bot_level="greedy")
    table.clock.advance(HOUR + 1)
    table.service.sweeper.sweep()
    view = table.view(game)
    assert view["seats"][1]["bot"] and view["seats"][1]["player"] == "bob"
    moves = table.service.queries.moves(ALICE, game, 0).moves
    assert moves[0] == {**moves[0], "action": "timeout", "move": "play", "forfeit": True}
    with pytest.raises(DominoError) as gone:
        table.service.commands.move(BOB, game, MakeMove("play", "0-6"), None)
    assert gone.value.code == "not_a_player"
    # the bot plays bob's later turns at once, inside alice's commands
    assert view["turn"] == 0


def test_a_move_racing_the_sweeper_exactly_one_wins() -> None:
    """The sweeper loaded the game; bob plays before its save: the sweeper's change is re-applied
    to the game that won, finds bob's new turn not due, and does nothing."""
    table = Table()
    game = table.duel()
    table.clock.advance(HOUR + 1)

    def bob_first(record: Any, expected: int) -> None:
        table.store.before_save = None
        table.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)

    table.store.before_save = bob_first
    assert table.service.sweeper.sweep() == (1, 0, 0, 0, 0)
    moves = table.service.queries.moves(ALICE, game, 0).moves
    assert [m["action"] for m in moves] == ["play"]  # bob's own play, no timeout


def test_the_sweeper_first_then_the_late_move_is_refused() -> None:
    table = Table()
    game = table.duel()
    table.clock.advance(HOUR + 1)
    table.service.sweeper.sweep()
    with pytest.raises(DominoError) as late:
        table.service.commands.move(BOB, game, MakeMove("play", "6-6"), None)
    assert late.value.code == "not_your_turn"


def test_a_game_nobody_plays_ends_by_deadlines() -> None:
    for mode in ("auto", "forfeit"):
        table = Table()
        game = table.duel(on_timeout=mode)
        for _ in range(2000):
            if table.view(game)["status"] == "finished":
                break
            table.clock.advance(HOUR + 1)
            table.service.sweeper.sweep()
        view = table.view(game)
        assert view["status"] == "finished" and view["result"]["match_over"], mode
        table.drain()
        told = table.told("alice") + table.told("bob")
        assert told.count("timeout") >= 1, mode
        # auto: the seats stay theirs, so the end reaches them; forfeit: bots took both seats,
        # and a player whose seat a bot plays hears nothing more of that game
        assert ("game_over" in told) == (mode == "auto"), (mode, told)
        final = from_item(table.store.items[game])
        assert final.deadline is None or final.status == "finished"


def test_bot_turns_and_finished_games_are_never_due() -> None:
    table = Table()
    new = NewGame("dos-jugadores", 2, bots=1, turn_timeout_hours=1, seed=4)
    game = table.service.commands.create(ALICE, new).game_id
    assert table.view(game)["turn"] == 0  # the bot moved already if it led
    table.service.commands.leave(ALICE, game, LEAVE, None)  # bots play the match out
    table.clock.advance(10 * HOUR)
    assert table.service.sweeper.sweep().due == 0
