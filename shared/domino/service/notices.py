"""What a change tells whom: notifications derived from a game item's old and new images.

docs/api.md#notifications: ``player_joined`` to the seated players already there; ``game_started``
to the seated players when the deal is made; ``your_turn`` to the person whose turn it now is;
``hand_over`` to the seated players when a hand ends and the match goes on, ``game_over`` (not
``hand_over``) when it ends the match; ``timeout`` to the player the sweeper moved for;
``reminder`` to the player on turn when the sweeper marks the game at 80 % of their time;
``match_found`` to every person of a game quick match made (and ``your_turn`` to the one on
turn), from the game's creation; ``match_expired`` to a ticket's holder when it expires; ``nudge``
to the player on turn when a seated player marks the game (``POST /games/{id}/nudge``);
``invited`` to each invitee of a new game (``rematch`` instead when the new game is the rematch of
a finished one), ``invite_declined`` to the game's host when an invitee declines. Nobody is
told of what they did themselves (the answer to their request told them). A seated player is a
person playing a seat: one who left during play (a bot plays for them) hears nothing more.

Pure: the same images give the same notices, in a fixed order, whatever delivers them.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from domino.engine import Match, decode
from domino.store.records import GameRecord, Seat
from domino.store.tickets import Ticket

NoticeType = Literal[
    "player_joined",
    "game_started",
    "your_turn",
    "hand_over",
    "game_over",
    "reminder",
    "timeout",
    "match_found",
    "match_expired",
    "nudge",
    "invited",
    "invite_declined",
    "rematch",
]
NOTICE_TYPES: tuple[NoticeType, ...] = get_args(NoticeType)
#: every notification type the contract names (docs/api.md, "Notifications" and "Strangers and
#: friends"), also those sent from outside this module (an invitation, a rematch): what
#: ``PATCH /me {"mute"}`` takes
NOTIFICATION_TYPES: tuple[str, ...] = tuple(
    dict.fromkeys((*NOTICE_TYPES, "invited", "invite_declined", "rematch"))
)


class Notice(NamedTuple):
    """One notification: ``player`` is told ``type`` about ``game`` at ``version`` (the change's
    time ``at``); ``detail`` is what its text says beyond that (a name, a hand number)."""

    player: str
    type: NoticeType
    game: str
    version: int
    at: int
    preset: str
    detail: str | None = None
    #: a turn of a game whose turns last under an hour: pushed time-sensitive (docs/api.md)
    urgent: bool = False
    #: the public move that led to it, for ``your_turn``, ``hand_over`` and ``game_over``: who
    #: made it (their name at the table) and what (``6-4``, a play; ``draw``; ``pass``)
    by: str | None = None
    move: str | None = None


#: the types whose text names the move that led to them ("Ana played 6-4.")
MOVE_TOLD: frozenset[str] = frozenset(("your_turn", "hand_over", "game_over"))
#: turns shorter than this make ``your_turn`` time-sensitive on iOS (through Focus)
URGENT_TURN_HOURS = 1


def short_turns(record: GameRecord) -> bool:
    hours = record.config.get("turn_timeout_hours")
    return hours is not None and float(hours) < URGENT_TURN_HOURS


def seated(record: GameRecord) -> list[str]:
    """The people playing a seat, in seat order."""
    return [
        s.player for s in record.seats if s.player is not None and s.bot is None and not s.invited
    ]


def _name_of(record: GameRecord, player: str | None) -> str | None:
    return next((s.name for s in record.seats if s.player == player), None)


def created(new: GameRecord) -> list[Notice]:
    """A creation tells each invitee of their reserved seat: ``invited``, or ``rematch`` for
    the next match of a finished one (the players who did not ask for it yet)."""
    kind: NoticeType = "rematch" if new.config.get("rematch_of") else "invited"
    host = new.host
    detail = _name_of(new, host)
    return [
        Notice(s.player, kind, new.id, new.version, new.updated_at, new.preset, detail)
        for s in new.seats
        if s.player is not None and s.invited and s.player != host
    ]


def declined(old: GameRecord, new: GameRecord) -> list[str]:
    """The names of the invitees whose reserved seat the change freed by their own decline."""
    names = []
    for index, seat in enumerate(old.seats):
        if not seat.invited or seat.player is None or index >= new.players:
            continue
        gone = new.invited_seat(seat.player) is None and new.seat_of(seat.player) is None
        if new.seats[index].free and seat.player == new.actor and gone:
            names.append(seat.name or seat.player)
    return names


def _decoded(record: GameRecord) -> Match | None:
    return decode(record.state) if record.state else None


#: the move records that name a move another player saw (a leave or a hand's end does not)
_NAMED_MOVES = ("play", "draw", "pass", "timeout")


def last_move(
    old: Match | None, new: Match | None, seats: list[Seat]
) -> tuple[str | None, str | None]:
    """The last public move of the change from ``old`` to ``new``: who (their name at the
    table) and what (``6-4``, ``draw`` or ``pass``), as anyone may see it (a drawn tile is
    never named); (None, None) when the change made none."""
    if new is None:
        return None, None
    after = old.next_n - 1 if old is not None else 0
    for record in reversed(new.moves(None, after)):
        if record["action"] not in _NAMED_MOVES or record["seat"] is None:
            continue
        kind = record.get("move", record["action"])
        seat = seats[record["seat"]]
        move = record["tile"] if kind == "play" and "tile" in record else kind
        return seat.name or seat.player, move
    return None, None


def notices(old: GameRecord | None, new: GameRecord) -> list[Notice]:
    """The notifications the change from ``old`` to ``new`` sends (for a creation: quick
    match's ``match_found``, or the invitations; the creator made it)."""
    if old is None:
        return _matched(new) if new.config.get("matched") else created(new)
    if new.version == old.version:  # no change of the game: the reminder or a nudge mark
        if new.turn_player is None or new.status != "playing":
            return []
        marks: list[Notice] = []
        if new.reminded == new.version and old.reminded != new.version:
            at = new.reminded_at or new.updated_at
            marks.append(Notice(new.turn_player, "reminder", new.id, new.version, at, new.preset))
        if new.nudged == new.version and old.nudged != new.version:
            at = new.nudged_at or new.updated_at
            by = new.seats[new.nudger].name if new.nudger is not None else None
            marks.append(Notice(new.turn_player, "nudge", new.id, new.version, at, new.preset, by))
        return marks
    if new.version < old.version:
        return []
    actor = new.actor

    old_match, new_match = _decoded(old), _decoded(new)
    by, move = last_move(old_match, new_match, new.seats)

    def notice(player: str, kind: NoticeType, detail: str | None = None) -> Notice:
        urgent = kind == "your_turn" and short_turns(new)
        told = (by, move) if kind in MOVE_TOLD and by is not None else (None, None)
        return Notice(
            player, kind, new.id, new.version, new.updated_at, new.preset, detail, urgent, *told
        )

    found: list[Notice] = []
    before, now = seated(old), seated(new)
    others = [p for p in now if p != actor]
    for joined in (p for p in now if p not in before):
        name = next(s.name for s in new.seats if s.player == joined)
        found += [notice(p, "player_joined", name) for p in others if p != joined]
    host = new.host
    if host is not None and host != actor and new.seat_of(host) is not None:
        found += [notice(host, "invite_declined", name) for name in declined(old, new)]
    if old.status == "waiting" and new.status == "playing":
        found += [notice(p, "game_started") for p in others]
    if new.cause == "timeout" and actor is not None:
        found.append(notice(actor, "timeout"))
    old_hand = old_match.hand_number if old_match is not None else 0
    new_hand = new_match.hand_number if new_match is not None else 0
    if old.status == "playing" and new.status == "finished":
        found += [notice(p, "game_over") for p in others]
    elif old.status == "playing" and new_hand > old_hand:
        found += [notice(p, "hand_over", str(new_hand - 1)) for p in others]
    on_turn = new.turn_player if new.status == "playing" else None
    if (
        on_turn is not None
        and on_turn != actor
        and (on_turn != old.turn_player or new_hand != old_hand or old.status != "playing")
    ):
        found.append(notice(on_turn, "your_turn"))
    return found


def _matched(new: GameRecord) -> list[Notice]:
    """A game quick match made: each of its people is told, and the one on turn that it is."""
    found = [
        Notice(p, "match_found", new.id, new.version, new.updated_at, new.preset)
        for p in seated(new)
    ]
    if new.status == "playing" and new.turn_player is not None:
        found.append(
            Notice(
                new.turn_player,
                "your_turn",
                new.id,
                new.version,
                new.updated_at,
                new.preset,
                urgent=short_turns(new),
            )
        )
    return found


def ticket_notices(old: Ticket | None, new: Ticket) -> list[Notice]:
    """``match_expired`` when a searching ticket expires. Its ``game`` is the ticket's id (no
    game exists; docs/api.md#quick-match) and its version the ticket's."""
    if old is None or old.status != "searching" or new.status != "expired":
        return []
    at = new.ended_at or new.expires_at
    return [Notice(new.player, "match_expired", new.id, new.version, at, new.preset)]
