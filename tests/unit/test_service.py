"""The use cases on an in-memory store: the write path's checks, races and retries, bots, the
hand archive and the listings, fast and without DynamoDB (tests/integration runs the same
service on DynamoDB Local)."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from domino.engine import decode
from domino.engine.errors import DominoError
from domino.service.errors import (
    AlreadyJoined,
    Conflict,
    DevOnly,
    GameFull,
    GameNotFound,
    NotAPlayer,
    SeatTaken,
    VersionMismatch,
)
from domino.service.facade import GameService
from domino.service.values import (
    DRAW_TILE,
    LEAVE,
    PASS_TURN,
    Caller,
    MakeMove,
    NewGame,
    TakeSeat,
)
from domino.service.writes import MAX_RACE_RETRIES
from domino.store.cursors import BadCursor
from domino.store.records import to_attributes, to_item

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryGameStore

ALICE, BOB, CAROL = Caller("alice", "Alice"), Caller("bob", "Bob"), Caller("carol", "Carol")
SIX_SIX = MakeMove("play", "6-6")


@pytest.fixture
def store() -> MemoryGameStore:
    return MemoryGameStore()


@pytest.fixture
def service(store: MemoryGameStore) -> GameService:
    return GameService(store, dev_mode=True)


def duel(service: GameService) -> str:
    """dos-jugadores dealt DOS_DEAL at version 2: bob (seat 1) must lead 6-6."""
    created = service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    joined = service.commands.join(BOB, created.game_id, TakeSeat(), None)
    assert joined.version == 2
    return created.game_id


def test_a_game_is_created_joined_and_played(service: GameService) -> None:
    created = service.commands.create(ALICE, NewGame("dos-jugadores", 2, name="Ali"))
    assert (created.version, created.view["status"]) == (1, "waiting")
    assert created.view["seats"][0]["name"] == "Ali" and created.view["you"]["seat"] == 0
    game = created.game_id
    service.commands.join(BOB, game, TakeSeat(), None)
    seen = service.queries.get(BOB, game)
    assert seen.view["status"] == "playing" and seen.version == 2
    mover = ALICE if seen.view["turn"] == 0 else BOB
    legal = service.queries.get(mover, game).view["you"]["legal"][0]
    played = service.commands.move(mover, game, MakeMove("play", legal["tile"]), None)
    assert played.version == 3 and played.view["board"]["tiles"][0]["tile"] == legal["tile"]


def test_the_checks_run_in_the_contracts_order(service: GameService) -> None:
    game = duel(service)
    with pytest.raises(GameNotFound):
        service.commands.move(BOB, "no-such-game", SIX_SIX, None)
    with pytest.raises(GameNotFound):
        service.commands.move(BOB, "../../etc", SIX_SIX, None)
    with pytest.raises(DominoError) as bad_tile:  # 400 before 403 and 412
        service.commands.move(CAROL, game, MakeMove("play", "7-7"), 1)
    assert bad_tile.value.code == "invalid_request"
    with pytest.raises(NotAPlayer):  # 403 before 412
        service.commands.move(CAROL, game, SIX_SIX, 1)
    with pytest.raises(VersionMismatch) as stale:  # 412 before the rules
        service.commands.move(ALICE, game, MakeMove("play", "0-0"), 1)
    assert stale.value.current.version == 2 and stale.value.current.view["you"]["seat"] == 0
    with pytest.raises(DominoError) as rules:
        service.commands.move(ALICE, game, MakeMove("play", "0-0"), None)
    assert rules.value.code == "not_your_turn"


def test_join_refusals(service: GameService) -> None:
    created = service.commands.create(ALICE, NewGame("clasico", 3))
    game = created.game_id
    with pytest.raises(DominoError) as out_of_range:
        service.commands.join(BOB, game, TakeSeat(seat=3), None)
    assert out_of_range.value.code == "invalid_request"
    with pytest.raises(AlreadyJoined):
        service.commands.join(ALICE, game, TakeSeat(), None)
    with pytest.raises(SeatTaken):
        service.commands.join(BOB, game, TakeSeat(seat=0), None)
    service.commands.join(BOB, game, TakeSeat(seat=2), None)
    service.commands.join(CAROL, game, TakeSeat(), None)
    with pytest.raises(GameFull):
        service.commands.join(Caller("dave", "Dave"), game, TakeSeat(), None)


def test_dev_inputs_need_dev_mode(store: MemoryGameStore) -> None:
    deployed = GameService(store, dev_mode=False)
    with pytest.raises(DevOnly):
        deployed.commands.create(ALICE, NewGame("dos-jugadores", 2, seed=1))
    assert not store.items


def test_a_lost_race_is_reapplied_to_the_state_that_won(
    service: GameService, store: MemoryGameStore
) -> None:
    """A rival change lands before our save: our draw is applied again on top of it."""
    game = duel(service)
    service.commands.move(BOB, game, SIX_SIX, None)  # alice must draw: she holds no 6
    rivals = store.lose_races(1)  # a change that touches nothing the draw needs
    drawn = service.commands.move(ALICE, game, DRAW_TILE, None)
    assert rivals == [4] and drawn.version == 5
    assert drawn.view["you"]["drawn"] is not None and drawn.view["boneyard"] == 13


def test_every_retry_lost_is_a_conflict_with_the_current_game(
    service: GameService, store: MemoryGameStore
) -> None:
    game = duel(service)
    losses = store.lose_races()
    with pytest.raises(Conflict) as lost:
        service.commands.move(BOB, game, SIX_SIX, None)
    assert len(losses) == MAX_RACE_RETRIES + 1
    assert lost.value.current is not None and lost.value.current.version == losses[-1]
    store.before_save = None
    assert "6-6" in service.queries.get(BOB, game).view["you"]["hand"]  # never landed


def test_a_lost_race_with_if_match_is_412_at_once(
    service: GameService, store: MemoryGameStore
) -> None:
    game = duel(service)
    rivals = store.lose_races()
    with pytest.raises(VersionMismatch) as stale:
        service.commands.move(BOB, game, SIX_SIX, 2)
    assert rivals == [3] and stale.value.current.version == 3  # no retry after a 412


def test_a_game_deleted_under_a_change_is_not_found(
    service: GameService, store: MemoryGameStore
) -> None:
    game = duel(service)
    store.before_save = lambda record, expected: store.delete(record.id)
    with pytest.raises(GameNotFound):
        service.commands.move(BOB, game, SIX_SIX, None)


def test_twenty_threads_one_play(service: GameService, store: MemoryGameStore) -> None:
    """The same play from 20 threads at once: exactly one lands, the others find it is no
    longer their turn (or lost every retry)."""
    game = duel(service)
    barrier = threading.Barrier(20)

    def play(_: int) -> str:
        barrier.wait(10)
        try:
            service.commands.move(BOB, game, SIX_SIX, None)
            return "ok"
        except DominoError as err:
            return err.code

    with ThreadPoolExecutor(20) as pool:
        tally = Counter(pool.map(play, range(20)))
    assert tally["ok"] == 1, tally
    assert set(tally) <= {"ok", "not_your_turn", "conflict"}, tally
    assert service.queries.get(BOB, game).version == 3 and store.saves == 2


def test_bots_move_inside_the_command(service: GameService) -> None:
    created = service.commands.create(ALICE, NewGame("clasico", 4, bots=3, seed=5))
    game = created.game_id
    assert created.view["status"] == "playing" and created.view["turn"] == 0  # bots moved
    assert created.version == 1  # a creation is one change, whoever moved in it
    seen = created
    while True:  # alice draws (or passes) until she can play
        mine = seen.view["you"]
        if not mine["legal"]:
            move = DRAW_TILE if mine["can_draw"] else PASS_TURN
            seen = service.commands.move(ALICE, game, move, None)
            continue
        before = seen.version
        seen = service.commands.move(
            ALICE, game, MakeMove("play", mine["legal"][0]["tile"], mine["legal"][0]["end"]), None
        )
        break
    # seed 5: the hand goes on after alice's play (checked, so that the test means something)
    assert seen.view["status"] == "playing" and seen.view["hand_number"] == 1
    assert seen.view["turn"] == 0  # the three bots moved in the same command
    log = service.queries.moves(ALICE, game, before).moves
    assert log[0]["seat"] == 0 and {1, 2, 3} <= {m["seat"] for m in log}
    assert seen.version == before + len(log)  # every accepted change adds one


def test_leaving_hands_the_seat_to_a_bot_that_plays_the_match_out(
    service: GameService, store: MemoryGameStore
) -> None:
    """The last person leaves: bots play every remaining hand inside the command; hands that
    began and ended within it are archived by the command itself."""
    created = service.commands.create(ALICE, NewGame("dos-jugadores", 2, bots=1, seed=11))
    game = created.game_id
    left = service.commands.leave(ALICE, game, LEAVE, None)
    assert left.view["status"] == "finished" and left.view["result"]["forfeits"] == [0]
    with pytest.raises(NotAPlayer) as again:
        service.commands.leave(ALICE, game, LEAVE, None)
    assert again.value.message == "You have left this game."
    record = store.load(game)
    assert record is not None and record.state is not None
    match = decode(record.state)
    archived = {m["hand_number"] for m in store.archived_moves(game)}
    # every hand but the two the item holds was written by the command
    assert archived == set(range(1, match.hand_number - 1))


def test_the_archive_copies_the_hand_a_write_marked(service: GameService) -> None:
    game = duel(service)
    store: Any = service.store
    hands = 1
    while hands < 3:
        view = service.queries.get(ALICE, game).view
        who = ALICE if view["turn"] == 0 else BOB
        mine = service.queries.get(who, game).view["you"]
        if mine["legal"]:
            move = MakeMove("play", mine["legal"][0]["tile"], mine["legal"][0]["end"])
        else:
            move = DRAW_TILE if mine["can_draw"] else PASS_TURN
        service.commands.move(who, game, move, None)
        record = store.load(game)
        if record.archive_hand is not None:  # the stream delivers this write's new image
            assert service.archive.archive_hand(to_attributes(to_item(record)))
            hands += 1
    version, moves, _, _ = service.queries.moves(BOB, game, 0)
    assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
    assert version == service.queries.get(BOB, game).version


def test_my_games_pages_newest_first(service: GameService) -> None:
    made = [service.commands.create(ALICE, NewGame("clasico", 3)).game_id for _ in range(5)]
    first = service.queries.my_games(ALICE, None, False, 2, None)
    assert len(first.items) == 2 and first.next
    seen = [g["id"] for g in first.items]
    page = first
    while page.next:
        page = service.queries.my_games(ALICE, None, False, 2, page.next)
        seen += [g["id"] for g in page.items]
    assert sorted(seen) == sorted(made) and len(set(seen)) == 5
    with pytest.raises(BadCursor):
        service.queries.my_games(ALICE, None, False, 2, "bm90IGpzb24")


def test_open_games_lists_public_waiting_games(service: GameService) -> None:
    public = service.commands.create(ALICE, NewGame("clasico", 3)).game_id
    service.commands.create(ALICE, NewGame("clasico", 3, private=True))
    listed = service.queries.open_games(BOB, 10, None)
    assert [g["id"] for g in listed.items] == [public] and listed.next is None
