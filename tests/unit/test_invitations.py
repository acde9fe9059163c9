"""Invitations, declines and rematches as use cases on in-memory stores: reserved seats, what
each change notifies, the rematch's seats, and opponents counted once per game."""

from __future__ import annotations

import pytest
from domino.service.errors import (
    AlreadyJoined,
    GameFull,
    InvalidInvite,
    MatchNotOver,
    NotAPlayer,
    NotInvited,
    SeatTaken,
    VersionMismatch,
)
from domino.service.facade import GameService
from domino.service.invitations import check_invites
from domino.service.notices import notices
from domino.service.texts import text
from domino.service.values import LEAVE, Caller, NewGame, TakeSeat
from domino.store.records import Seat, from_item, to_attributes, to_item

from tests.unit.memory_store import MemoryGameStore, MemoryOpponents
from tests.unit.test_notices import ALICE, BOB, CAROL, Table

DAN = Caller("dan", "Dan")


def finished(table: Table, players: list[Caller]) -> str:
    """A one-hand match of ``players`` played to its end."""
    create = NewGame("dos-jugadores", len(players), {"match": "single"})
    game = table.service.commands.create(players[0], create).game_id
    for caller in players[1:]:
        table.service.commands.join(caller, game, TakeSeat(), None)
    while table.service.queries.get(ALICE, game).view["status"] == "playing":
        table.play_on(game, dict(enumerate(players)))
    return game


def test_check_invites_refuses_the_creator_repeats_and_too_many() -> None:
    assert check_invites("alice", ["bob", "carol"], 2) == ["bob", "carol"]
    for invite, room in ((["alice"], 1), (["bob", "bob"], 2), (["bob", "carol"], 1)):
        with pytest.raises(InvalidInvite) as refused:
            check_invites("alice", invite, room)
        assert refused.value.fields == ["invite"] and refused.value.params["fields"] == ["invite"]


def test_a_seat_keeps_its_invitation_through_the_item() -> None:
    seat = Seat("bob", "Bob", invited=True)
    assert Seat.from_json(seat.to_json()) == seat and not seat.taken and not seat.free
    assert Seat.from_json(["bob", "Bob", None]) == Seat("bob", "Bob")  # older items
    table = Table()
    view = table.service.commands.create(ALICE, NewGame("clasico", 3, invite=["bob"])).view
    record = table.store.load(view["id"])
    assert record is not None and from_item(to_item(record)).seats == record.seats
    item = to_item(record)
    assert "open_list" in item  # seat 2 is still free
    assert record.seat_of("bob") is None and record.invited_seat("bob") == 1


def test_invitees_are_told_and_strangers_kept_off_their_seats() -> None:
    table = Table()
    commands = table.service.commands
    game = commands.create(ALICE, NewGame("clasico", 3, invite=["bob", "carol"])).game_id
    assert table.drain() == 2
    assert table.told("bob") == [(1, "invited")] and table.told("carol") == [(1, "invited")]
    note = next(n for n in table.inbox.notes.values() if n.player == "bob")
    assert note.detail == "Alice" and "Alice" in text("invited", "en", note.preset, note.detail)[1]
    record = table.store.load(game)
    assert record is not None and "open_list" not in to_item(record)  # no free seat left
    with pytest.raises(GameFull):
        commands.join(DAN, game, TakeSeat(), None)
    with pytest.raises(SeatTaken):
        commands.join(DAN, game, TakeSeat(seat=1), None)
    seen = commands.join(BOB, game, TakeSeat(), None).view
    assert seen["you"]["seat"] == 1 and seen["status"] == "waiting"  # carol's seat waits
    with pytest.raises(AlreadyJoined):
        commands.join(BOB, game, TakeSeat(), None)
    assert commands.join(CAROL, game, TakeSeat(), None).view["status"] == "playing"
    table.drain()
    assert (3, "game_started") in table.told("alice")


def test_a_decline_frees_the_seat_and_tells_the_host_only() -> None:
    table = Table()
    service = table.service
    game = service.commands.create(ALICE, NewGame("dos-jugadores", 2, invite=["bob"])).game_id
    table.drain()
    for who in (CAROL, ALICE):
        with pytest.raises(NotInvited):
            service.invitations.decline(who, game, LEAVE, None)
    with pytest.raises(VersionMismatch):
        service.invitations.decline(BOB, game, LEAVE, 7)
    view = service.invitations.decline(BOB, game, LEAVE, 1).view
    assert view["seats"][1] == {**view["seats"][1], "player": None, "invited": False}
    assert game not in table.store.members["bob"]
    table.drain()
    assert table.told("alice") == [(2, "invite_declined")]
    assert table.told("bob") == [(1, "invited")]
    with pytest.raises(NotInvited):
        service.invitations.decline(BOB, game, LEAVE, None)


def test_the_creator_leaving_abandons_a_game_of_invitees_only() -> None:
    table = Table()
    commands = table.service.commands
    game = commands.create(ALICE, NewGame("dos-jugadores", 2, invite=["bob"])).game_id
    view = commands.leave(ALICE, game, LEAVE, None).view
    assert view["status"] == "finished" and view["result"]["reason"] == "abandoned"


def test_a_rematch_moves_the_seats_on_and_invites_the_others() -> None:
    table = Table()
    service = table.service
    running = service.commands.create(ALICE, NewGame("dos-jugadores", 2)).game_id
    service.commands.join(BOB, running, TakeSeat(), None)
    with pytest.raises(MatchNotOver):
        service.invitations.rematch(ALICE, running)
    with pytest.raises(NotAPlayer):
        service.invitations.rematch(CAROL, running)

    game = finished(table, [ALICE, BOB])
    table.drain()
    with pytest.raises(NotAPlayer):
        service.invitations.rematch(CAROL, game)
    with pytest.raises(VersionMismatch):
        service.invitations.rematch(ALICE, game, 1)
    made = service.invitations.rematch(BOB, game)
    assert made.created
    seats = made.game.view["seats"]
    assert [(s["player"], s["invited"]) for s in seats] == [("bob", False), ("alice", True)]
    assert service.queries.get(ALICE, game).view["rematch"] == made.game.game_id
    table.drain()
    new = made.game.game_id
    assert [t for t in table.told("alice") if t[1] == "rematch"] == [(1, "rematch")]
    assert not [t for t in table.told("bob") if t[1] in ("rematch", "invited")]
    note = next(n for n in table.inbox.notes.values() if n.type == "rematch")
    assert (note.game, note.detail) == (new, "Bob")

    same = service.invitations.rematch(BOB, game)
    assert (same.created, same.game.game_id) == (False, new)
    joined = service.invitations.rematch(ALICE, game)
    assert (joined.created, joined.game.game_id) == (False, new)
    assert joined.game.view["status"] == "playing" and joined.game.view["you"]["seat"] == 1


def test_the_finished_game_marked_with_its_rematch_notifies_nobody() -> None:
    table = Table()
    game = finished(table, [ALICE, BOB])
    made = len(table.store.stream)
    new_game = table.service.invitations.rematch(ALICE, game).game.game_id
    (old, marked), (none, created) = table.store.stream[made:]
    assert marked["rematch"] == new_game and marked["version"] == old["version"] + 1
    assert marked["updated_at"] == old["updated_at"]  # the finish time stays (filed by it)
    assert notices(from_item(old), from_item(marked)) == []
    assert none is None
    told = [(n.player, n.type, n.game, n.detail) for n in notices(None, from_item(created))]
    assert told == [("bob", "rematch", new_game, "Alice")]
    table.drain()
    assert [t for t in table.told("alice") if t[1] in ("rematch", "invited")] == []


def test_opponents_are_counted_once_per_game() -> None:
    opponents = MemoryOpponents()
    store = MemoryGameStore()
    service = GameService(store, dev_mode=True, opponents=opponents)
    table = Table()
    table.service, table.store = service, store
    game = finished(table, [ALICE, BOB])
    for old, new in store.stream:
        service.archive.record_opponents(to_attributes(old) if old else None, to_attributes(new))
    finished_pair = [(o, n) for o, n in store.stream if n["status"] == "finished"]
    old, new = finished_pair[0]
    assert not service.archive.record_opponents(to_attributes(old), to_attributes(new))
    rows = service.queries.opponents_of(ALICE, 10, None).items
    assert [(r["player"], r["matches"]) for r in rows] == [("bob", 1)]
    service.invitations.rematch(ALICE, game)  # a write of the finished game: counts nothing
    old, new = store.stream[-2]
    assert not service.archive.record_opponents(to_attributes(old), to_attributes(new))
    assert service.queries.opponents_of(BOB, 10, None).items[0]["matches"] == 1
