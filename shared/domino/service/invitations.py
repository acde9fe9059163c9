"""Invitations and rematches: seats reserved for named players.

``POST /games`` with ``invite`` reserves a seat for each invitee (``Seat.invited``) until they
join it (``GameCommands.join`` seats them there) or decline it (``Invitations.decline`` frees
it). A reserved seat is not taken: the game waits for its invitee, and nobody else may join it.

``POST /games/{id}/rematch`` of a finished match makes the next one once, whoever asks and
however many ask at once: the new game is created in the same transaction that names it in the
finished game's ``rematch`` (``GameStore.create_rematch``, conditional on ``rematch`` not being
there yet); the loser of a race reads the winner's game and takes its own seat there.

``refuse_blocked`` is where an invitation or a rematch offered to a player who blocked the
inviter (or whom the inviter blocked) is refused (403 ``blocked``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from domino.service.errors import (
    AccountDeleted,
    AlreadyJoined,
    Blocked,
    Conflict,
    GameFull,
    InvalidInvite,
    MatchNotOver,
    NotAPlayer,
    NotInvited,
    SeatTaken,
    VersionMismatch,
)
from domino.service.loaded import Game, load_game, new_game
from domino.service.values import Caller, GameSeen, Keyed, LeaveSeat, TakeSeat
from domino.service.writes import Effect, finish
from domino.store.errors import AccountGone, VersionConflict
from domino.store.records import GameRecord, Seat

if TYPE_CHECKING:
    from domino.service.commands import GameCommands

#: lost races of a rematch (another write of the finished game between its read and the
#: transaction) before it gives up (409 conflict)
REMATCH_ATTEMPTS = 5
#: what a rematch keeps of the finished game's configuration (never its seed or dev deal)
REMATCH_CONFIG = ("rules", "private", "turn_timeout_hours", "on_timeout", "bot_level")


def check_invites(creator: str, invite: Sequence[str], room: int) -> list[str]:
    """The invitees of a new game with ``room`` seats for people besides its creator: distinct
    people, never the creator (400 ``invalid_request`` naming ``invite`` otherwise)."""
    if creator in invite:
        raise InvalidInvite("You cannot invite yourself.")
    if len(set(invite)) != len(invite):
        raise InvalidInvite("Each player can be invited once.")
    if len(invite) > room:
        raise InvalidInvite("This game has seats for at most {max} invited players.", max=room)
    return list(invite)


def refuse_blocked(
    inviter: str, invitees: Sequence[str], blocked: Callable[[str, str], bool]
) -> None:
    """403 ``blocked`` when ``inviter`` and one of ``invitees`` block each other
    (``blocked``: safety's ``blocked_between``, one read a pair). Every invitation
    (``POST /games`` with ``invite``) and every rematch offer passes here before anything is
    written."""
    if any(blocked(inviter, invitee) for invitee in invitees):
        raise Blocked()


class Rematched(NamedTuple):
    """The rematch as the asker sees it, and whether this request created it (201)."""

    game: GameSeen
    created: bool


class Invitations:
    def __init__(self, commands: GameCommands) -> None:
        self.commands = commands
        self.store = commands.store
        self.writes = commands.writes

    def decline(
        self,
        caller: Caller,
        game_id: str,
        _command: LeaveSeat,
        expected_version: int | None,
        keyed: Keyed | None = None,
    ) -> GameSeen:
        """An invitee turns down their reserved seat: it is free again (their membership goes);
        anyone without a reserved seat is 403 ``not_invited``."""
        game = load_game(self.store, game_id)
        if replay := self.writes.replies.earlier(caller, game, keyed):
            return replay

        def decline(game: Game, _at: int) -> Effect:
            record = game.record
            seat = record.invited_seat(caller.player)
            if seat is None or record.status != "waiting":
                raise NotInvited()
            record.seats[seat] = Seat(None, None)
            return Effect(unjoin=caller.player)

        return self.writes.write(caller, game, expected_version, decline, keyed=keyed)

    def rematch(
        self, caller: Caller, game_id: str, expected_version: int | None = None
    ) -> Rematched:
        """The next match of a finished one: created by the first to ask (seats moved one
        place on, every other person invited, the asker seated), joined by the others.
        ``expected_version``: If-Match, the finished game's version as the caller saw it."""
        name = self.commands.name_of(caller)  # 401 before 404
        finished = load_game(self.store, game_id).record
        for attempt in range(REMATCH_ATTEMPTS):
            if finished.seat_of(caller.player) is None:
                raise NotAPlayer("You have no seat in this game.")
            if attempt == 0 and expected_version not in (None, finished.version):
                assert expected_version is not None
                raise VersionMismatch(Game(finished).seen_by(caller.player), expected_version)
            if finished.status != "finished":
                raise MatchNotOver()
            if finished.rematch is not None:
                return Rematched(self._take_seat(caller, finished.rematch), created=False)
            others = [s.player for s in finished.seats if s.player and s.player != caller.player]
            refuse_blocked(caller.player, others, self.commands.blocked)
            game = self._next_match(finished, caller, name)
            marked = _marked(finished, game.record.id, caller.player)
            try:
                self.store.create_rematch(
                    game.record,
                    marked,
                    finished.version,
                    token_issued=self.writes.token_issued(caller),
                )
            except AccountGone:
                raise AccountDeleted() from None
            except VersionConflict as lost:
                if lost.current is None:
                    finished = load_game(self.store, game_id).record  # 404 if it went
                else:
                    finished = lost.current
                continue  # another asker won: their game is in ``rematch`` now
            return Rematched(game.seen_by(caller.player), created=True)
        raise Conflict("The game changed while your request was applied; try again.")

    def _next_match(self, finished: GameRecord, caller: Caller, name: str) -> Game:
        """The rematch of ``finished`` as ``caller`` creates it: the same preset, rules, player
        count, bot levels and timeout; seat i moves to seat i + 1 (another player leads); the
        asker seated, every other person's seat reserved for them."""
        count = finished.players
        seats: list[Seat] = [Seat(None, None)] * count
        for index, seat in enumerate(finished.seats):
            moved = (index + 1) % count
            if seat.player is None:  # a bot from the start: the same level
                seats[moved] = Seat(None, seat.name, seat.bot)
            elif seat.player == caller.player:
                seats[moved] = Seat(caller.player, name)
            else:  # a person (one who left too: a bot played for them)
                seats[moved] = Seat(seat.player, seat.name, invited=True)
        config: dict[str, Any] = {
            key: finished.config[key] for key in REMATCH_CONFIG if key in finished.config
        }
        config.update(host=caller.player, rematch_of=finished.id)
        at = max(int(self.writes.clock()), finished.updated_at)
        game = new_game(finished.preset, config, seats, at)
        self.commands.start_if_full(game, None, at)
        finish(game, None, 0, at, caller.player)
        return game

    def _take_seat(self, caller: Caller, game_id: str) -> GameSeen:
        """The asker's seat in a rematch made already: joined now if reserved for them; the
        game as it is when they hold one, or when it cannot seat them (full, or dealt)."""
        try:
            return self.commands.join(caller, game_id, TakeSeat(), None)
        except (AlreadyJoined, GameFull, SeatTaken):
            return load_game(self.store, game_id).seen_by(caller.player)


def _marked(finished: GameRecord, rematch: str, asker: str) -> GameRecord:
    """The finished game naming its rematch: one version on, its finish time kept (its
    players' finished games are filed by it), made by the asker (the stream tells nobody)."""
    return GameRecord(
        **{
            **vars(finished),
            "version": finished.version + 1,
            "rematch": rematch,
            "actor": asker,
            "cause": None,
            "archive_hand": None,
        }
    )
