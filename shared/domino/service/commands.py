"""The commands: create, join, play, draw, pass, leave.

Each loads the game (one strongly consistent GetItem), checks the command in the contract's
order (404, 400, then in the write path 403 and 412, then the rules), and hands the change to
the write path (``writes.WritePath``), which lets bots move and saves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from domino.engine import (
    CEDE,
    DEFAULT_BUDGET_MS,
    DEFAULT_LEVEL,
    DRAW,
    PASS,
    GameNotInProgress,
    InvalidInput,
    Match,
    Move,
    Play,
    Ruleset,
    parse_tile,
    resolve_rules,
    validate_move,
)
from domino.service.clock import Clock, system_clock
from domino.service.errors import (
    AccountDeleted,
    AlreadyJoined,
    DevOnly,
    GameFull,
    GameNotFound,
    NotAPlayer,
    SeatTaken,
    TurnTimedOut,
)
from domino.service.invitations import check_invites, refuse_blocked
from domino.service.loaded import Game, load_game, new_game
from domino.service.ports import AccountStore, GameStore, ReplyStore
from domino.service.values import (
    LEAVE,
    Caller,
    GameSeen,
    Keyed,
    LeaveSeat,
    MakeMove,
    NewGame,
    TakeSeat,
)
from domino.service.writes import NO_EFFECT, Effect, WritePath, deal, finish, run_bots
from domino.store.errors import AccountGone
from domino.store.records import Seat


class GameCommands:
    def __init__(
        self,
        store: GameStore,
        *,
        dev_mode: bool,
        clock: Clock = system_clock,
        accounts: AccountStore | None = None,
        replies: ReplyStore | None = None,
        bot_budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        self.store = store
        self.dev_mode = dev_mode
        self.writes = WritePath(store, clock, replies, bot_budget_ms)
        self.accounts = accounts  # None: no profiles (the token's name is the name)
        #: whether one of two players blocks the other (set by the wiring: safety's reads)
        self.blocked: Callable[[str, str], bool] = lambda _a, _b: False
        self.writes.accounts_checked = accounts is not None

    def name_of(self, caller: Caller, given: str | None = None) -> str:
        """The caller's name at a table: ``given`` (the request's), else the one they chose
        (``PATCH /me``), else the token's. A token issued before its account was deleted takes
        no seat (401)."""
        profile = self.accounts.profile(caller.player) if self.accounts is not None else None
        if profile is not None and profile.refuses(caller.issued_at):
            raise AccountDeleted()
        return given or (profile.name if profile is not None else None) or caller.name

    def create(self, caller: Caller, command: NewGame) -> GameSeen:
        name = self.name_of(caller, command.name)  # 401 before 400
        if (command.deal is not None or command.seed is not None) and not self.dev_mode:
            raise DevOnly("deal and seed exist only in dev mode.")
        players = command.players
        overrides = dict(command.rules or {})
        resolve_rules(command.preset, players, overrides or None)  # 400 for impossible rules
        if command.bots >= players:
            raise InvalidInput("bots must leave at least one seat for a person.")
        invited = check_invites(caller.player, command.invite or [], players - 1 - command.bots)
        at = int(self.writes.clock())
        seats = [Seat(caller.player, name)]
        seats += [Seat(p, self._name_of_player(p), invited=True) for p in invited]
        seats += [Seat(None, None) for _ in range(players - 1 - command.bots - len(invited))]
        seats += [Seat(None, f"Bot {i + 1}", command.bot_level) for i in range(command.bots)]
        config: dict[str, Any] = {
            "rules": overrides or None,
            "private": command.private,
            "turn_timeout_hours": command.turn_timeout_hours,
            "on_timeout": command.on_timeout,
            "bot_level": command.bot_level,
        }
        if command.seed is not None:
            config["seed"] = command.seed
        if invited:
            refuse_blocked(caller.player, invited, self.blocked)
        game = new_game(command.preset, config, seats, at)
        self.start_if_full(game, command.deal, at)
        finish(game, None, 0, at, caller.player)  # version 1, the state, turn and deadline
        issued = self.writes.token_issued(caller)
        try:
            # the write checks the tombstone again: DELETE /me may have begun since name_of
            self.store.create(game.record, token_issued=issued)
        except AccountGone:
            raise AccountDeleted() from None
        self._leave_if_deleted(caller, game.record.id, issued)
        return game.seen_by(caller.player)

    def _leave_if_deleted(self, caller: Caller, game_id: str, issued: int | None) -> None:
        """A seat just written, looked at from the writer's side of a ``DELETE /me`` race. The
        write's alive check passed before the tombstone, but its items may land after the
        deletion's last look for memberships: DynamoDB Local applies a transaction's items
        one at a time, where DynamoDB makes the check and the items one step. Each side writes,
        then reads the other's item, so whichever reads last sees the other: a deleted (or
        banned) account seen here leaves the seat as the deletion would, and is refused."""
        if issued is None or self.accounts is None:
            return
        profile = self.accounts.profile(caller.player)
        if profile is None or not profile.refuses(issued):
            return
        with contextlib.suppress(GameNotFound, GameNotInProgress, NotAPlayer):
            self.leave(caller, game_id, LEAVE, None)
        raise AccountDeleted()

    def start_if_full(self, game: Game, fixed: dict[str, Any] | None, at: int) -> None:
        """A new game: deal when its creation took the last seat (every other a bot), else
        keep a dev deal for the last join."""
        if all(s.taken for s in game.record.seats):
            deal(game, fixed, at)  # the creation fills the last seat
            # bots on turn before the creator move now (no hand ends)
            run_bots(game, at, self.writes.bot_budget_ms, self.writes.plays_forced)
        elif fixed is not None:
            _check_deal_only(game.rules, fixed)
            game.record.config["deal"] = fixed

    def _name_of_player(self, player: str) -> str:
        """An invitee's name on their reserved seat: the one they chose, else their id."""
        profile = self.accounts.profile(player) if self.accounts is not None else None
        return (profile.name if profile is not None else None) or player

    def join(
        self,
        caller: Caller,
        game_id: str,
        command: TakeSeat,
        expected_version: int | None,
        keyed: Keyed | None = None,
    ) -> GameSeen:
        name = self.name_of(caller, command.name)  # 401 before 404
        game = load_game(self.store, game_id)
        wanted = command.seat
        if wanted is not None and wanted >= game.record.players:  # 400 before 403/412
            raise InvalidInput("seat must be 0 to {max}.", max=game.record.players - 1)
        if replay := self.writes.replies.earlier(caller, game, keyed):
            return replay

        def take_seat(game: Game, at: int) -> Effect:
            record = game.record
            if record.seat_of(caller.player) is not None:
                raise AlreadyJoined()
            if record.status != "waiting":
                raise GameFull("The game has already been dealt.")
            free = [i for i, s in enumerate(record.seats) if s.free]
            reserved = record.invited_seat(caller.player)  # the invitee's own seat
            if reserved is not None and wanted in (None, reserved):
                seat = reserved
            elif wanted is not None:
                if wanted not in free:
                    raise SeatTaken("Seat {seat} is taken.", seat=wanted)
                seat = wanted
            elif free:
                seat = free[0]
            elif any(s.invited for s in record.seats):
                raise GameFull("Every free seat is reserved for an invited player.")
            else:
                raise GameFull("Every seat is taken.")
            if reserved is not None and reserved != seat:
                record.seats[reserved] = Seat(None, None)  # an invitee who chose another seat
            record.seats[seat] = Seat(caller.player, name)
            if all(s.taken for s in record.seats):
                deal(game, record.config.pop("deal", None), at)
            # an invitee's membership was written with the invitation
            return Effect(join=caller.player, invited=reserved is not None)

        seen = self.writes.write(caller, game, expected_version, take_seat, keyed=keyed)
        self._leave_if_deleted(caller, game_id, self.writes.token_issued(caller))
        return seen

    def move(
        self,
        caller: Caller,
        game_id: str,
        command: MakeMove,
        expected_version: int | None,
        keyed: Keyed | None = None,
    ) -> GameSeen:
        """Play, draw, pass or cede the lead for the caller's seat."""
        game = load_game(self.store, game_id)
        move = move_of(game, command)  # 400 before 403/412
        if replay := self.writes.replies.earlier(caller, game, keyed):
            return replay

        def apply(game: Game, at: int) -> Effect:
            seat = game.record.seat_of(caller.player)
            if game.match is None:
                raise GameNotInProgress("The game has not started yet.")
            assert seat is not None
            if _timed_out_under_forfeit(game, seat, at):
                raise TurnTimedOut("Your turn timed out; it is being finished for you.")
            result = game.match.apply(seat, move, at)
            return Effect(drawn=str(result.drawn)) if result.drawn is not None else NO_EFFECT

        return self.writes.write(caller, game, expected_version, apply, seated=True, keyed=keyed)

    def leave(
        self,
        caller: Caller,
        game_id: str,
        _command: LeaveSeat,
        expected_version: int | None,
        keyed: Keyed | None = None,
    ) -> GameSeen:
        """Before the deal, free the seat; during play, a bot takes it and the leaver forfeits."""
        game = load_game(self.store, game_id)
        if replay := self.writes.replies.earlier(caller, game, keyed):
            return replay

        def leave(game: Game, at: int) -> Effect:
            record = game.record
            seat = record.seat_of(caller.player)
            assert seat is not None
            if record.status == "finished":
                raise GameNotInProgress("The game is over.")
            if record.status == "waiting":
                record.seats[seat] = Seat(None, None)
                if not any(s.taken and s.bot is None for s in record.seats):
                    record.status = "finished"  # the last person left: abandoned
                return Effect(unjoin=caller.player)
            assert game.match is not None
            level = record.config.get("bot_level") or DEFAULT_LEVEL
            record.seats[seat] = Seat(caller.player, record.seats[seat].name, level)
            game.match.forfeit(seat, at)
            return NO_EFFECT

        return self.writes.write(
            caller, game, expected_version, leave, seated=True, leaving=True, keyed=keyed
        )


def _timed_out_under_forfeit(game: Game, seat: int, at: int) -> bool:
    """The caller's own turn is past its deadline in a game that forfeits late turns: the
    timeout (its timer, within seconds) wins over the late move (docs/api.md#turn-deadlines);
    under ``auto`` the late move is still taken."""
    record, match = game.record, game.match
    return (
        match is not None
        and match.status == "playing"
        and match.turn == seat
        and record.deadline is not None
        and record.deadline <= at
        and record.config.get("on_timeout") == "forfeit"
    )


def _check_deal_only(rules: Ruleset, fixed: dict[str, Any]) -> None:
    """A dev deal given before every seat is taken: checked now, dealt when the last joins."""
    Match.start(rules, deal=fixed)


#: the moves without a tile, by ``MakeMove.kind``
_NO_TILE: dict[str, Move] = {"draw": DRAW, "pass": PASS, "cede": CEDE}


def move_of(game: Game, command: MakeMove) -> Move:
    """The engine's move for ``command``; ``InvalidInput`` (400) for one no game of these rules
    could accept (a tile outside the set, an end the layout never has)."""
    if command.kind != "play":
        return _NO_TILE[command.kind]
    assert command.tile is not None
    move = Play(parse_tile(command.tile, game.rules.set), command.end)
    validate_move(game.rules, move)
    return move
