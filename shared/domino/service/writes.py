"""The write path every change of a game takes: check → apply → bots → save, retried on a lost
race.

A change loads nothing itself: it gets the loaded game and the time, changes it in memory (the
engine checks the rules) and says what else the save must do (a membership to write or delete,
the tile drawn). The path then lets bots on turn move, stamps version, status and the indexed
attributes, and saves with ``version = :expected``. On a lost race without an expected version
(``If-Match``) it re-applies the change to the state that won, a bounded number of times.

A keyed change (``Idempotency-Key``) is remembered in the game item it writes (the key, the
request, the version it made: ``ReplyEntry``), and its answer is kept afterwards in a record of
its own for 24 hours (``ReplyStore``). A retry is answered from the record, or from the item
while the record is not there yet: a duplicate that lost the race to the first, or a retry
after the function died between its write and keeping the answer. So a keyed change costs one
write of the game item, as an unkeyed one does, and one of its record.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, NamedTuple

from domino.engine import DEFAULT_BUDGET_MS, Match, choose_move, encode, only_move
from domino.engine.premoves import reply as premove_reply
from domino.service.clock import Clock, system_clock
from domino.service.errors import (
    AccountDeleted,
    AlreadyJoined,
    Conflict,
    GameNotFound,
    IdempotencyKeyReused,
    NotAPlayer,
    RequestInProgress,
    VersionMismatch,
)
from domino.service.loaded import Game
from domino.service.ports import GameStore, ReplyStore
from domino.service.values import Caller, GameSeen, Keyed
from domino.store.errors import AccountGone, AlreadyMember, Unavailable, VersionConflict
from domino.store.records import ReplyEntry

logger = logging.getLogger(__name__)

MAX_RACE_RETRIES = 4
#: saves refused by writes that leave the version (pre-moves, watchers) tried again besides
MAX_UNVERSIONED_RETRIES = 50
#: the bits of a match's secret seed (its shuffles are SHAKE-256 of it: engine/deal.py)
SEED_BITS = 128
#: a vacation stops the clock of turns this long or longer (docs/api.md "Vacation")
FREEZES_HOURS = 24
#: how long after a keyed change its request may still be running (keeping its answer): the
#: command functions' timeout (template.yaml, 10 s) with room
IN_FLIGHT_SECONDS = 30
MAX_BOT_PLIES = 5000  # a whole match of bots after every human forfeited stays bounded
#: the level expert bots play at once no person is left in the game (a quick one)
UNWATCHED_LEVEL = "strategist"

#: a hand that left the game item: its number and its full move records
DroppedHand = tuple[int, list[dict[str, Any]]]


class Effect(NamedTuple):
    """What a change asks of the save besides the game item, and what its caller sees."""

    join: str | None = None  # a player whose membership item the save writes
    unjoin: str | None = None  # a player whose membership item the save deletes
    drawn: str | None = None  # the tile drawn (shown to the drawer only)
    actor: str | None = None  # who the change is stamped as made by (default: the caller)
    cause: str | None = None  # "timeout": the sweeper moved for ``actor``
    invited: bool = False  # ``join`` is an invitee's: their membership exists already
    #: the change is not a move: the turn's clock (deadline, frozen time, its reminder and
    #: nudge) stays as the change left it (a vacation starting or ending)
    keeps_clock: bool = False


NO_EFFECT = Effect()

#: a change: the loaded game and the time in, the game changed in memory, its effect out
Change = Callable[[Game, int], Effect]
#: whether a player has the turns with one thing to do played for them (``auto_forced``)
PlaysForced = Callable[[str], bool]


class Replies:
    """The answers of keyed changes: found again for a retry, kept after a change."""

    def __init__(self, store: ReplyStore | None, clock: Clock = system_clock) -> None:
        self.store = store  # None: keys are not kept (unit tests of other things)
        self.clock = clock

    def earlier(self, caller: Caller, game: Game, keyed: Keyed | None) -> GameSeen | None:
        """The answer a request with ``keyed``'s key got before (None: it never ran or failed,
        so it runs now); ``IdempotencyKeyReused`` if the key answered another request."""
        if keyed is None or self.store is None:
            return None
        stored = self.store.get(keyed.record)
        if stored is not None:
            if stored.payload != keyed.payload or stored.view is None or stored.version is None:
                raise IdempotencyKeyReused()
            return GameSeen(game.record.id, stored.version, stored.view, replayed=True)
        entry = game.record.reply_entry(keyed.short)
        return self.from_entry(caller, game, entry, keyed) if entry is not None else None

    def from_entry(
        self, caller: Caller, game: Game, entry: ReplyEntry, keyed: Keyed, *, look: bool = False
    ) -> GameSeen:
        """The answer of the change ``entry`` remembers, its record not found (or, ``look``,
        not looked for yet): the game as the caller saw it then while the game is still at that
        version (kept now, for later retries). Once the game moved on, the answer is the
        record: while the first request may still be keeping it, ``RequestInProgress`` (409,
        Retry-After); after that, it died before keeping it, so the game as it is now (the
        change was applied once)."""
        if entry.payload != keyed.short_payload:
            raise IdempotencyKeyReused()
        if entry.version == game.record.version:
            seen = game.seen_by(caller.player, entry.drawn)
            self.keep(keyed, seen)
            return seen._replace(replayed=True)
        stored = self.store.get(keyed.record) if look and self.store is not None else None
        if stored is not None and stored.view is not None and stored.version is not None:
            return GameSeen(game.record.id, stored.version, stored.view, replayed=True)
        if self.clock() - entry.at < IN_FLIGHT_SECONDS:
            raise RequestInProgress()
        return game.seen_by(caller.player, entry.drawn)._replace(replayed=True)

    def keep(self, keyed: Keyed | None, seen: GameSeen) -> None:
        """Keep a keyed change's answer; if that fails the change stands (the item remembers
        it for the next few changes), so the caller still gets its answer."""
        if keyed is None or self.store is None:
            return
        try:
            self.store.put(keyed.record, keyed.payload, seen.version, seen.view)
        except Unavailable:
            logger.warning("the answer of a keyed change was not kept", exc_info=True)


class WritePath:
    def __init__(
        self,
        store: GameStore,
        clock: Clock = system_clock,
        replies: ReplyStore | None = None,
        bot_budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        self.store = store
        self.clock = clock
        self.replies = Replies(replies, clock)
        self.bot_budget_ms = bot_budget_ms
        #: whether accounts can be deleted (profiles kept): seating a player then checks, in
        #: the write itself, that their account was not deleted since their token was issued
        self.accounts_checked = False
        #: who has forced moves made for them (None: nobody; set by the wiring: profiles' reads)
        self.plays_forced: PlaysForced | None = None

    def token_issued(self, caller: Caller) -> int | None:
        """What a write seating ``caller`` checks the account against (None: nothing)."""
        return (caller.issued_at or 0) if self.accounts_checked else None

    def write(
        self,
        caller: Caller,
        game: Game,
        expected_version: int | None,
        change: Change,
        *,
        seated: bool = False,
        leaving: bool = False,
        keyed: Keyed | None = None,
    ) -> GameSeen:
        """Apply ``change`` to ``game`` and save it; ``seated``: only a player with a seat may
        ask (``leaving``: the player's own leave, told apart from never having had a seat).
        ``keyed``: the change's Idempotency-Key; the caller has checked it is new
        (``Replies.earlier``). A save refused only because the item was touched without a new
        version (pre-moves stored, a watcher come or gone: its ``writer`` changed) is applied
        again without counting as a lost race (up to MAX_UNVERSIONED_RETRIES)."""
        attempt = unversioned = 0
        while attempt <= MAX_RACE_RETRIES:
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
            dropped = dropped_hand(before, game.match) + run_bots(
                game, at, self.bot_budget_ms, self.plays_forced
            )
            finish(
                game,
                before,
                expected,
                at,
                effect.actor or caller.player,
                effect.cause,
                keeps_clock=effect.keeps_clock,
            )
            if keyed is not None:
                record.remember(
                    ReplyEntry(keyed.short, keyed.short_payload, record.version, effect.drawn, at)
                )
            try:
                for hand_number, hand_moves in never_stored_as_previous(before, dropped):
                    self.store.archive_moves(record.id, hand_number, hand_moves)
                self.store.save(
                    record,
                    expected,
                    join=effect.join,
                    unjoin=effect.unjoin,
                    token_issued=self.token_issued(caller) if effect.join else None,
                    invited=effect.invited,
                )
            except VersionConflict as lost:
                if lost.current is None:
                    raise GameNotFound() from None
                game = Game(lost.current)
                won = game.record.reply_entry(keyed.short) if keyed is not None else None
                if won is not None and keyed is not None:
                    # a request with the same key won the race: its answer is this one's
                    return self.replies.from_entry(caller, game, won, keyed, look=True)
                if lost.current.version == expected and unversioned < MAX_UNVERSIONED_RETRIES:
                    unversioned += 1
                    continue  # the same version, touched meanwhile: the change still applies
                if expected_version is not None:
                    raise VersionMismatch(game.seen_by(caller.player), expected_version) from None
                attempt += 1
                continue  # re-apply to the state that won the race
            except AlreadyMember:
                raise AlreadyJoined() from None
            except AccountGone:
                raise AccountDeleted() from None
            seen = game.seen_by(caller.player, effect.drawn)
            self.replies.keep(keyed, seen)
            return seen
        raise Conflict(
            "The game changed while your request was applied; try again.",
            game.seen_by(caller.player),
        )


def deal(game: Game, fixed: Any, at: int) -> None:
    """Deal the first hand: every seat is taken. Every shuffle of the match comes from one
    secret seed (a dev game's own, else ``secrets``'), kept in its state only: once the match
    is over its record shows every deal (``domino.service.history``). A dev deal is kept in the
    config for that record."""
    record = game.record
    seed = record.config.get("seed")
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    game.match = Match.start(game.rules, seed=seed, deal=fixed, at=at)
    if fixed is not None:
        record.config["dealt"] = fixed
    record.status = "playing"


def run_bots(
    game: Game,
    at: int,
    budget_ms: float = DEFAULT_BUDGET_MS,
    plays_forced: PlaysForced | None = None,
) -> list[DroppedHand]:
    """Bots on turn move until a person is on turn; returns the hands whose moves left the
    item meanwhile (several when bots play on for seats whose players all left). ``budget_ms``:
    the expert's thinking time a move. With nobody left to play against, expert bots play the
    rest of the match at ``UNWATCHED_LEVEL``: a whole match of searches would outlast the
    request. A person who comes on turn with pre-moves stored has the first line that matches
    played (``Match.apply_premove``, logged ``premove``) and every line cleared. A person with
    one thing to do whom ``plays_forced`` names has it made for them (``Match.apply_forced``,
    logged ``auto``); after either the chain goes on. Whether they asked for forced moves is
    read once a write, and only when such a turn comes."""
    match = game.match
    dropped: list[DroppedHand] = []
    if match is None:
        return dropped
    seats = game.record.seats
    watched = any(s.player is not None and s.bot is None for s in seats)
    asked: dict[str, bool] = {}
    for _ in range(MAX_BOT_PLIES):
        if match.status != "playing" or match.turn is None:
            break
        seat = seats[match.turn]
        if seat.bot is None:
            player = seat.player
            stored = game.record.premoves
            if player is not None and player in stored and play_premove(game, player, at, dropped):
                continue
            if plays_forced is None or player is None or only_move(match) is None:
                break
            if player not in asked:
                asked[player] = plays_forced(player)
            if not asked[player]:
                break
            before = match.copy()
            match.apply_forced(match.turn, at)
            dropped += dropped_hand(before, match)
            continue
        level = seat.bot if watched or seat.bot != "expert" else UNWATCHED_LEVEL
        move = choose_move(match, match.turn, level, budget_ms=budget_ms)
        before = match.copy()
        match.apply(match.turn, move, at)
        dropped += dropped_hand(before, match)
    return dropped


def play_premove(game: Game, player: str, at: int, dropped: list[DroppedHand]) -> bool:
    """``player`` is on turn with pre-moves stored: play the first line whose ``if`` is the
    moves made since they were stored and whose ``then`` is legal; clear them all. Whether one
    was played (its hand, if that ended one, joins ``dropped``)."""
    match = game.match
    assert match is not None and match.turn is not None
    seat = match.turn
    entry = game.record.premoves[player]
    after = int(entry["after"])
    made = match.moves(seat, after)
    if all(r["seat"] == seat for r in made):
        return False  # stored on their own turn, which goes on: it has not come back yet
    kept = dict(game.record.premoves)
    del kept[player]
    game.record.premoves = kept
    if match.first_held_n > after + 1:  # moves left the item since: a hand ended between
        return False
    play = premove_reply(entry["lines"], made, match.legal_moves())
    if play is None:
        return False
    before = match.copy()
    match.apply_premove(match.turn, play, at)
    dropped += dropped_hand(before, match)
    return True


def finish(
    game: Game,
    before: Match | None,
    expected: int,
    at: int,
    actor: str | None,
    cause: str | None = None,
    *,
    keeps_clock: bool = False,
) -> None:
    """Version, status, timestamps, who caused the change and the indexed attributes; the turn's
    clock starts again unless ``keeps_clock``. A turn of an away seat (its player on vacation)
    in a game of turns of a day or more has no deadline: its time stands still (``frozen``)."""
    record, match = game.record, game.match
    record.actor, record.cause = actor, cause
    if keeps_clock:
        # the same turn goes on: its reminder and nudge marks follow it to the new version
        if record.reminded == expected:
            record.reminded = expected + 1
        if record.nudged == expected:
            record.nudged = expected + 1
    else:
        record.reminded = record.reminded_at = None  # a reminder is of one version's turn
        record.nudged = record.nudged_at = record.nudger = None  # and so is a nudge
    changes = 1
    if match is not None and before is not None:
        changes = max(1, match.next_n - before.next_n - _hand_overs(before, match))
    record.version = expected + changes
    record.mark(match.next_n if match is not None else 1)
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
    if keeps_clock:
        return
    hours = float(record.config.get("turn_timeout_hours") or 0)
    if not hours or record.turn_player is None:
        record.deadline = record.frozen = None
    elif human is not None and human.away and hours >= FREEZES_HOURS:
        record.deadline, record.frozen = None, int(hours * 3600)
    else:
        record.deadline, record.frozen = int(at + hours * 3600), None


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
