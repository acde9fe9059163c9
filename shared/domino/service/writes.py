"""The write path every change of a game takes: check → apply → bots → save, retried on a lost
race.

A change loads nothing itself: it gets the loaded game and the time, changes it in memory (the
engine checks the rules) and says what else the save must do (a membership to write or delete,
the tile drawn). The path then lets bots on turn move, stamps version, status and the indexed
attributes, and saves with ``version = :expected``. On a lost race without an expected version
(``If-Match``) it re-applies the change to the state that won, a bounded number of times.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from domino.engine import Match, choose_move, encode
from domino.service.errors import AlreadyJoined, Conflict, GameNotFound, NotAPlayer, VersionMismatch
from domino.service.game import Clock, Game, system_clock
from domino.service.ports import GameStore
from domino.service.values import Caller, GameSeen
from domino.store.errors import AlreadyMember, VersionConflict

MAX_RACE_RETRIES = 4
MAX_BOT_PLIES = 5000  # a whole match of bots after every human forfeited stays bounded

#: a hand that left the game item: its number and its full move records
DroppedHand = tuple[int, list[dict[str, Any]]]


class Effect(NamedTuple):
    """What a change asks of the save besides the game item, and what its caller sees."""

    join: str | None = None  # a player whose membership item the save writes
    unjoin: str | None = None  # a player whose membership item the save deletes
    drawn: str | None = None  # the tile drawn (shown to the drawer only)
    actor: str | None = None  # who the change is stamped as made by (default: the caller)
    cause: str | None = None  # "timeout": the sweeper moved for ``actor``


NO_EFFECT = Effect()

#: a change: the loaded game and the time in, the game changed in memory, its effect out
Change = Callable[[Game, int], Effect]


class WritePath:
    def __init__(self, store: GameStore, clock: Clock = system_clock) -> None:
        self.store = store
        self.clock = clock

    def write(
        self,
        caller: Caller,
        game: Game,
        expected_version: int | None,
        change: Change,
        *,
        seated: bool = False,
        leaving: bool = False,
    ) -> GameSeen:
        """Apply ``change`` to ``game`` and save it; ``seated``: only a player with a seat may
        ask (``leaving``: the player's own leave, told apart from never having had a seat)."""
        for attempt in range(MAX_RACE_RETRIES + 1):
            record = game.record
            if seated and record.seat_of(caller.player) is None:
                if leaving and any(s.player == caller.player for s in record.seats):
                    raise NotAPlayer("You have left this game.")
                raise NotAPlayer("You have no seat in this game.")
            if expected_version is not None and expected_version != record.version:
                raise VersionMismatch(game.seen_by(caller.player), expected_version)
            expected = record.version
            at = max(int(self.clock()), record.updated_at)
            before = game.match.copy() if game.match else None
            effect = change(game, at)
            dropped = dropped_hand(before, game.match) + run_bots(game, at)
            finish(game, before, expected, at, effect.actor or caller.player, effect.cause)
            try:
                for hand_number, hand_moves in never_stored_as_previous(before, dropped):
                    self.store.archive_moves(record.id, hand_number, hand_moves)
                self.store.save(record, expected, join=effect.join, unjoin=effect.unjoin)
            except VersionConflict as lost:
                if lost.current is None:
                    raise GameNotFound() from None
                game = Game(lost.current)
                if expected_version is not None:
                    raise VersionMismatch(game.seen_by(caller.player), expected_version) from None
                if attempt == MAX_RACE_RETRIES:
                    break
                continue  # re-apply to the state that won the race
            except AlreadyMember:
                raise AlreadyJoined() from None
            return game.seen_by(caller.player, effect.drawn)
        raise Conflict(
            "The game changed while your request was applied; try again.",
            game.seen_by(caller.player),
        )


def deal(game: Game, fixed: Any, at: int) -> None:
    """Deal the first hand: every seat is taken."""
    record = game.record
    game.match = Match.start(game.rules, seed=record.config.get("seed"), deal=fixed, at=at)
    record.status = "playing"


def run_bots(game: Game, at: int) -> list[DroppedHand]:
    """Bots on turn move until a person is on turn; returns the hands whose moves left the
    item meanwhile (several when bots play on for seats whose players all left)."""
    match = game.match
    dropped: list[DroppedHand] = []
    if match is None:
        return dropped
    for _ in range(MAX_BOT_PLIES):
        if match.status != "playing" or match.turn is None:
            break
        seat = game.record.seats[match.turn]
        if seat.bot is None:
            break
        move = choose_move(match, match.turn, seat.bot)
        before = match.copy()
        match.apply(match.turn, move, at)
        dropped += dropped_hand(before, match)
    return dropped


def finish(
    game: Game,
    before: Match | None,
    expected: int,
    at: int,
    actor: str | None,
    cause: str | None = None,
) -> None:
    """Version, status, timestamps, who caused the change and the indexed attributes."""
    record, match = game.record, game.match
    record.actor, record.cause = actor, cause
    record.reminded = record.reminded_at = None  # a reminder is of one version's turn
    changes = 1
    if match is not None and before is not None:
        changes = max(1, match.next_n - before.next_n - _hand_overs(before, match))
    record.version = expected + changes
    record.updated_at = at
    record.archive_hand = None
    if match is not None and before is not None and match.hand_number > before.hand_number:
        # the hand that ended last is now the item's previous hand: the stream consumer
        # copies it to its own item long before it leaves the item (when the next one ends)
        record.archive_hand = match.hand_number - 1 if match.prev_log else None
    if match is not None:
        record.state = encode(match)
        if match.status == "finished":
            record.status = "finished"
    turn = game.turn
    human = record.seats[turn] if turn is not None else None
    record.turn_player = human.player if human and human.bot is None else None
    hours = record.config.get("turn_timeout_hours")
    record.deadline = int(at + hours * 3600) if hours and record.turn_player else None


def _hand_overs(before: Match, after: Match) -> int:
    """hand_over log entries are bookkeeping of the move that ended the hand, not changes
    (one per hand that ended: each later hand began, and the last one if the match is over)."""
    ended = max(0, after.hand_number - before.hand_number)
    if after.status == "finished" and before.status != "finished":
        ended += 1
    return ended


def dropped_hand(before: Match | None, after: Match | None) -> list[DroppedHand]:
    """The item holds the current and the previous hand's moves: when one change ends a hand,
    the hand before it leaves the item (its moves go to an archive item)."""
    if before is None or after is None or after.hand_number == before.hand_number:
        return []
    if not before.prev_log:
        return []
    return [(before.hand_number - 1, before.previous_hand_moves)]


def never_stored_as_previous(before: Match | None, dropped: list[DroppedHand]) -> list[DroppedHand]:
    """Of the hands leaving the item in one change, those the stream consumer never saw as the
    item's previous hand: hands that began and ended within the change (bots playing on for
    seats whose players all left). The stored previous hand was archived when it ended."""
    return [(h, moves) for h, moves in dropped if before is None or h >= before.hand_number]
