"""Create, join, play, draw, pass, leave and the reads: the one path every route takes.

Each command loads the game (one strongly consistent GetItem), checks the request in the
contract's order (404, 400, 403, 412, then the engine's rules), applies the engine, lets bots
whose turn it is move, and saves with ``version = :expected``. On a lost race without
``If-Match`` it re-applies the command to the state that won, a bounded number of times.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from domino.api.errors import ApiError, unavailable
from domino.api.identity import Caller
from domino.api.models import CreateGame, JoinGame, PlayTile
from domino.engine import (
    DRAW,
    PASS,
    EngineError,
    Match,
    Move,
    Play,
    Ruleset,
    choose_move,
    decode,
    encode,
    parse_tile,
    resolve_rules,
    validate_move,
)
from domino.service.views import game_view, move_list, summary
from domino.store.games import (
    AlreadyMember,
    GameRecord,
    GameStore,
    Seat,
    Unavailable,
    VersionConflict,
    game_id_of,
    record_from_image,
)

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
MAX_RACE_RETRIES = 4
#: pauses between reads of a hand archive the stream consumer has not written yet (~1 s in all;
#: Lambda's DynamoDB stream delivery usually takes well under a second)
ARCHIVE_WAITS = (0.1, 0.2, 0.3, 0.4)
MAX_BOT_PLIES = 5000  # a whole match of bots after every human forfeited stays bounded


@dataclass
class Outcome:
    """What a command answers: the status, the view, and headers such as ETag and Location."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


@lru_cache(maxsize=256)
def _rules_of(preset: str, players: int, overrides: str) -> Ruleset:
    """A stored game's rules, resolved once per container (Rulesets are immutable)."""
    return resolve_rules(preset, players, json.loads(overrides) if overrides else None)


def now() -> int:
    return int(time.time())


def etag(version: int) -> str:
    return f'"{version}"'


class Game:
    """A loaded game: the stored record, its resolved rules and its decoded engine state."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        overrides = record.config.get("rules")
        self.rules: Ruleset = _rules_of(
            record.preset,
            record.players,
            json.dumps(overrides, sort_keys=True) if overrides else "",
        )
        self.match: Match | None = decode(record.state) if record.state else None

    def view(self, viewer: str | None, drawn: str | None = None) -> dict[str, Any]:
        return game_view(self.record, self.rules, self.match, viewer, drawn)

    @property
    def turn(self) -> int | None:
        return self.match.turn if self.match and self.match.status == "playing" else None


class GameService:
    def __init__(self, store: GameStore, *, dev_mode: bool) -> None:
        self.store = store
        self.dev_mode = dev_mode

    # ------------------------------------------------------------------ reads

    def load(self, game_id: str) -> Game:
        if not GAME_ID.match(game_id or ""):
            raise ApiError("game_not_found", "No such game.")
        record = self._call(self.store.load, game_id)
        if record is None:
            raise ApiError("game_not_found", "No such game.")
        return Game(record)

    def get(self, caller: Caller, game_id: str) -> Outcome:
        game = self.load(game_id)
        return self._answer(200, game, caller)

    def moves(self, caller: Caller, game_id: str, after: int) -> Outcome:
        game = self.load(game_id)
        seat = game.record.seat_of(caller.player)
        held: list[dict[str, Any]] = []
        first_held = 1
        if game.match is not None:
            held = game.match.moves(seat, after)
            first_held = game.match.first_held_n
        archived: list[dict[str, Any]] = []
        if after + 1 < first_held:  # hands older than the item holds live in archive items
            archived = self._archived(game.record.id, after, first_held)
        moves = move_list(archived, seat) + move_list(held, seat)
        return Outcome(200, {"moves": moves, "next": None}, {"ETag": etag(game.record.version)})

    def _archived(self, game_id: str, after: int, first_held: int) -> list[dict[str, Any]]:
        """Moves ``after`` < n < ``first_held`` from the archive items. A hand can leave the
        item before the stream consumer has copied it (when it lags by a whole hand): wait a
        moment for it, then answer 503 rather than a log with a hole in it."""
        wanted = list(range(after + 1, first_held))
        for wait in (*ARCHIVE_WAITS, None):
            moves = [
                m
                for m in self._call(self.store.archived_moves, game_id)
                if after < m["n"] < first_held
            ]
            if [m["n"] for m in moves] == wanted:
                return moves
            if wait is None:
                break
            time.sleep(wait)
        raise unavailable()

    def open_games(self, caller: Caller, limit: int, cursor: str | None) -> Outcome:
        start = _decode_cursor(cursor, ("pk", "sk", "open_list", "updated_at")) if cursor else None
        records, last = self._call(self.store.open_games, limit, start)
        games = [summary(r, None, caller.player) for r in records]
        return Outcome(200, {"games": games, "next": _encode_cursor(last) if last else None}, {})

    def my_games(
        self, caller: Caller, status: str | None, turn_mine: bool, limit: int, cursor: str | None
    ) -> Outcome:
        if turn_mine:
            ids = self._call(self.store.games_on_turn, caller.player)
        else:
            ids = self._call(self.store.member_games, caller.player)
        games = [Game(r) for r in self._call(self.store.load_many, ids)]
        rows = []
        for game in games:
            record = game.record
            if status and record.status != status:
                continue
            row = summary(record, game.turn, caller.player)
            if turn_mine and not row["your_turn"]:
                continue
            rows.append(row)
        rows.sort(key=lambda r: (r["updated_at"] or "", r["id"]), reverse=True)
        if cursor:
            after = _decode_cursor(cursor, ("u", "i"))
            position = (after["u"], after["i"])
            rows = [r for r in rows if (r["updated_at"] or "", r["id"]) < position]
        page, more = rows[:limit], len(rows) > limit
        nxt = _encode_cursor({"u": page[-1]["updated_at"], "i": page[-1]["id"]}) if more else None
        return Outcome(200, {"games": page, "next": nxt}, {})

    def archive_hand(self, image: dict[str, Any]) -> bool:
        """Stream consumer: copy the hand a write marked (``archive``) from the item's image to
        its own item. Idempotent: a redelivered record writes the same item again."""
        record = record_from_image(image)
        if record is None or record.archive_hand is None or record.state is None:
            return False
        match = self._engine(decode, record.state)
        if not match.prev_log or match.hand_number - 1 != record.archive_hand:
            return False  # written by hand, or by an older version: nothing to copy
        self._call(
            self.store.archive_moves, record.id, record.archive_hand, match.previous_hand_moves
        )
        return True

    def forget_game(self, keys: dict[str, Any], old_image: dict[str, Any] | None) -> bool:
        """Stream consumer: a game item was deleted (its TTL expired). Its archived hands and
        its players' membership items go too, so that nothing outlives it and "my games" does
        not fill up with games that no longer exist."""
        game_id = game_id_of(keys)
        if game_id is None:
            return False
        record = record_from_image(old_image) if old_image else None
        # without the old image (another stream view type) only the archives can be found
        players = sorted({s.player for s in record.seats if s.player}) if record else []
        self._call(self.store.delete_satellites, game_id, players)
        return True

    # ------------------------------------------------------------------ commands

    def create(self, caller: Caller, request: CreateGame) -> Outcome:
        if (request.deal is not None or request.seed is not None) and not self.dev_mode:
            raise ApiError("dev_only", "deal and seed exist only in dev mode.")
        players = request.players
        overrides = dict(request.rules or {})
        rules = self._engine(resolve_rules, request.preset, players, overrides or None)
        if request.bots >= players:
            raise ApiError("invalid_request", "bots must leave at least one seat for a person.")
        at = now()
        seats = [Seat(caller.player, request.name_for(caller))]
        seats += [Seat(None, None) for _ in range(players - 1 - request.bots)]
        seats += [Seat(None, f"Bot {i + 1}", request.bot_level) for i in range(request.bots)]
        config: dict[str, Any] = {
            "rules": overrides or None,
            "private": request.private,
            "turn_timeout_hours": request.turn_timeout_hours,
            "on_timeout": request.on_timeout,
            "bot_level": request.bot_level,
        }
        if request.seed is not None:
            config["seed"] = request.seed
        record = GameRecord(
            id=secrets.token_urlsafe(16),
            version=1,
            status="waiting",
            preset=request.preset,
            config=config,
            seats=seats,
            created_at=at,
            updated_at=at,
        )
        game = Game(record)
        if all(s.player or s.bot for s in seats):
            self._deal(game, request.deal_dict(), at)  # the creation fills the last seat
            self._run_bots(game, at)  # bots on turn before the creator move now (no hand ends)
        elif request.deal is not None:
            self._engine(_check_deal_only, rules, request.deal_dict())
            record.config["deal"] = request.deal_dict()
        self._finish(game, None, 0, at)  # version 1, the encoded state, turn and deadline
        self._call(self.store.create, game.record)
        return self._answer(201, game, caller, {"Location": f"/games/{record.id}"})

    def command(
        self, action: str, caller: Caller, game_id: str, raw_body: str | None, if_match: str | None
    ) -> Outcome:
        """The mutating routes on one game: join, leave, play, draw, pass."""
        if action == "join":
            return self.join(caller, game_id, raw_body, if_match)
        if action == "leave":
            return self.leave(caller, game_id, raw_body, if_match)
        return self.move(caller, game_id, action, raw_body, if_match)

    def join(
        self, caller: Caller, game_id: str, raw_body: str | None, if_match: str | None
    ) -> Outcome:
        game = self.load(game_id)
        request = JoinGame.parse(raw_body)
        if request.seat is not None and request.seat >= game.record.players:  # 400 before 403/412
            raise ApiError("invalid_request", f"seat must be 0 to {game.record.players - 1}.")

        def change(game: Game, at: int) -> str | None:
            record = game.record
            if record.seat_of(caller.player) is not None:
                raise ApiError("already_joined", "You already have a seat in this game.")
            if record.status != "waiting":
                raise ApiError("game_full", "The game has already been dealt.")
            free = [i for i, s in enumerate(record.seats) if s.player is None and s.bot is None]
            if request.seat is not None:
                if request.seat not in free:
                    raise ApiError("seat_taken", f"Seat {request.seat} is taken.")
                seat = request.seat
            elif free:
                seat = free[0]
            else:
                raise ApiError("game_full", "Every seat is taken.")
            record.seats[seat] = Seat(caller.player, request.name or caller.name)
            if all(s.player or s.bot for s in record.seats):
                self._deal(game, record.config.pop("deal", None), at)
            return caller.player

        return self._mutate(caller, game, if_match, change, join=True)

    def move(
        self, caller: Caller, game_id: str, action: str, raw_body: str | None, if_match: str | None
    ) -> Outcome:
        game = self.load(game_id)
        move: Move
        if action == "play":
            request = PlayTile.parse(raw_body)
            move = Play(self._engine(parse_tile, request.tile, game.rules.set), request.end)
            self._engine(validate_move, game.rules, move)
        else:
            _empty_body(raw_body)
            move = DRAW if action == "draw" else PASS
        drawn: list[str | None] = [None]

        def change(game: Game, at: int) -> None:
            seat = game.record.seat_of(caller.player)
            if game.match is None:
                raise ApiError("game_not_in_progress", "The game has not started yet.")
            assert seat is not None
            result = self._engine(game.match.apply, seat, move, at)
            drawn[0] = str(result.drawn) if result.drawn is not None else None

        return self._mutate(caller, game, if_match, change, seated=True, drawn=drawn)

    def leave(
        self, caller: Caller, game_id: str, raw_body: str | None, if_match: str | None
    ) -> Outcome:
        game = self.load(game_id)
        _empty_body(raw_body)
        unjoin: list[str | None] = [None]

        def change(game: Game, at: int) -> None:
            record = game.record
            seat = record.seat_of(caller.player)
            assert seat is not None
            if record.status == "finished":
                raise ApiError("game_not_in_progress", "The game is over.")
            if record.status == "waiting":
                record.seats[seat] = Seat(None, None)
                unjoin[0] = caller.player
                if not any(s.player for s in record.seats):
                    record.status = "finished"  # the last person left: abandoned
                return
            assert game.match is not None
            level = record.config.get("bot_level") or "strategist"
            record.seats[seat] = Seat(caller.player, record.seats[seat].name, level)
            self._engine(game.match.forfeit, seat, at)
            unjoin[0] = None

        return self._mutate(caller, game, if_match, change, seated=True, unjoin=unjoin)

    # ------------------------------------------------------------------ the write path

    def _mutate(
        self,
        caller: Caller,
        game: Game,
        if_match: str | None,
        change: Callable[[Game, int], Any],
        *,
        seated: bool = False,
        join: bool = False,
        drawn: list[str | None] | None = None,
        unjoin: list[str | None] | None = None,
    ) -> Outcome:
        expected_tag = _parse_if_match(if_match) if if_match is not None else None
        for attempt in range(MAX_RACE_RETRIES + 1):
            record = game.record
            if seated and record.seat_of(caller.player) is None:
                if unjoin is not None and _left_already(record, caller.player):
                    raise ApiError("not_a_player", "You have left this game.")
                raise ApiError("not_a_player", "You have no seat in this game.")
            if expected_tag is not None and expected_tag != record.version:
                raise ApiError(
                    "version_mismatch",
                    f"The game is at version {record.version}, not {expected_tag}.",
                    extra={"game": game.view(caller.player)},
                    headers={"ETag": etag(record.version)},
                )
            expected = record.version
            at = max(now(), record.updated_at)
            before = game.match.copy() if game.match else None
            joined = change(game, at)
            dropped = _dropped_hand(before, game.match) + self._run_bots(game, at)
            self._finish(game, before, expected, at)
            try:
                for hand_number, hand_moves in _never_stored_as_previous(before, dropped):
                    self._call(self.store.archive_moves, record.id, hand_number, hand_moves)
                self._call(
                    self.store.save,
                    record,
                    expected,
                    join=joined if join else None,
                    unjoin=unjoin[0] if unjoin else None,
                )
            except VersionConflict as lost:
                if lost.current is None:
                    raise ApiError("game_not_found", "No such game.") from None
                if expected_tag is not None:
                    fresh = Game(lost.current)
                    raise ApiError(
                        "version_mismatch",
                        f"The game is at version {fresh.record.version}, not {expected_tag}.",
                        extra={"game": fresh.view(caller.player)},
                        headers={"ETag": etag(fresh.record.version)},
                    ) from None
                game = Game(lost.current)  # re-apply to the state that won the race
                if attempt == MAX_RACE_RETRIES:
                    break
                continue
            except AlreadyMember:
                raise ApiError("already_joined", "You already have a seat in this game.") from None
            return self._answer(200, game, caller, drawn=drawn[0] if drawn else None)
        raise ApiError(
            "conflict",
            "The game changed while your request was applied; try again.",
            extra={"game": game.view(caller.player)},
        )

    def _deal(self, game: Game, deal: Any, at: int) -> None:
        record = game.record
        game.match = self._engine(
            Match.start, game.rules, seed=record.config.get("seed"), deal=deal, at=at
        )
        record.status = "playing"

    def _run_bots(self, game: Game, at: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """Bots on turn move until a person is on turn; returns the hands whose moves left the
        item meanwhile (several when bots play on for seats whose players all left)."""
        match = game.match
        dropped: list[tuple[int, list[dict[str, Any]]]] = []
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
            dropped += _dropped_hand(before, match)
        return dropped

    def _finish(self, game: Game, before: Match | None, expected: int, at: int) -> None:
        """Version, status, timestamps and the indexed attributes after a change."""
        record, match = game.record, game.match
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

    def _answer(
        self,
        status: int,
        game: Game,
        caller: Caller,
        headers: dict[str, str] | None = None,
        drawn: str | None = None,
    ) -> Outcome:
        return Outcome(
            status,
            game.view(caller.player, drawn),
            {"ETag": etag(game.record.version), **(headers or {})},
        )

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _engine(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except EngineError as err:
            raise ApiError(err.code, err.message) from None

    @staticmethod
    def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Unavailable:
            raise unavailable() from None


def _hand_overs(before: Match, after: Match) -> int:
    """hand_over log entries are bookkeeping of the move that ended the hand, not changes
    (one per hand that ended: each later hand began, and the last one if the match is over)."""
    ended = max(0, after.hand_number - before.hand_number)
    if after.status == "finished" and before.status != "finished":
        ended += 1
    return ended


def _dropped_hand(
    before: Match | None, after: Match | None
) -> list[tuple[int, list[dict[str, Any]]]]:
    """The item holds the current and the previous hand's moves: when one change ends a hand,
    the hand before it leaves the item (its moves go to an archive item)."""
    if before is None or after is None or after.hand_number == before.hand_number:
        return []
    if not before.prev_log:
        return []
    return [(before.hand_number - 1, before.previous_hand_moves)]


def _never_stored_as_previous(
    before: Match | None, dropped: list[tuple[int, list[dict[str, Any]]]]
) -> list[tuple[int, list[dict[str, Any]]]]:
    """Of the hands leaving the item in one change, those the stream consumer never saw as the
    item's previous hand: hands that began and ended within the change (bots playing on for
    seats whose players all left). The stored previous hand was archived when it ended."""
    return [(h, moves) for h, moves in dropped if before is None or h >= before.hand_number]


def _left_already(record: GameRecord, player: str) -> bool:
    return any(s.player == player for s in record.seats)


def _check_deal_only(rules: Ruleset, deal: Any) -> None:
    Match.start(rules, deal=deal)


def _empty_body(raw: str | None) -> None:
    if raw is None or not raw.strip():
        return
    try:
        parsed = json.loads(raw)
    except ValueError:
        raise ApiError("invalid_request", "The body is not valid JSON.") from None
    if parsed != {}:
        raise ApiError("invalid_request", "This request takes an empty JSON object: {}.")


def _parse_if_match(value: str) -> int:
    text = value.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not text.isdigit() or len(text) > 12:
        raise ApiError("invalid_request", 'If-Match must be a game version like "4".')
    return int(text)


def _encode_cursor(key: dict[str, Any]) -> str:
    plain = {
        k: (int(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, float) else v)
        for k, v in key.items()
    }
    return base64.urlsafe_b64encode(json.dumps(plain, separators=(",", ":")).encode()).decode()


def _decode_cursor(cursor: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """A ``next`` this API returned: an object of exactly ``fields``, every one a string."""
    try:
        value = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except ValueError:
        value = None
    if (
        not isinstance(value, dict)
        or set(value) != set(fields)
        or not all(isinstance(v, str) for v in value.values())
    ):
        raise ApiError("invalid_request", "cursor is not one this API returned.")
    return value
