"""Notifications: what each change tells whom (docs/api.md#notifications), written once per
(player, game, version, type), sent once through the outbox; on in-memory stores."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from domino.engine import decode
from domino.service.facade import GameService
from domino.service.inbox import InboxQueries, Notifier
from domino.service.notices import notices
from domino.service.values import DRAW_TILE, LEAVE, PASS_TURN, Caller, MakeMove, NewGame, TakeSeat
from domino.store.inbox import Note
from domino.store.records import from_item, to_attributes

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryGameStore, MemoryInbox

ALICE, BOB, CAROL = Caller("alice", "Alice"), Caller("bob", "Bob"), Caller("carol", "Carol")


class Table:
    """A game service, its stream and a notifier reading it, as deployed but in memory."""

    def __init__(self, channels: list[Any] | None = None) -> None:
        self.store = MemoryGameStore()
        self.service = GameService(self.store, dev_mode=True)
        self.inbox = MemoryInbox()
        self.notifier = Notifier(self.inbox, channels or [])
        self.read = 0

    def drain(self) -> int:
        """Feed the stream's new records to the notifier, as Lambda would."""
        written = 0
        for old, new in self.store.stream[self.read :]:
            written += self.notifier.on_change(
                to_attributes(old) if old else None, to_attributes(new)
            )
        self.read = len(self.store.stream)
        return written

    def told(self, player: str) -> list[tuple[int, str]]:
        """(version, type) of what ``player`` was told, in the order they were told it."""
        notes = sorted((n for (p, _), n in self.inbox.notes.items() if p == player),
                       key=lambda n: (n.version, n.id))  # fmt: skip
        return [(n.version, n.type) for n in notes]

    def play_on(self, game: str, who: dict[int, Caller]) -> None:
        """One action for the seat on turn: its first legal play, else a draw, else a pass."""
        turn = self.service.queries.get(ALICE, game).view["turn"]
        caller = who[turn]
        mine = self.service.queries.get(caller, game).view["you"]
        if mine["legal"]:
            move = MakeMove("play", mine["legal"][0]["tile"], mine["legal"][0]["end"])
        else:
            move = DRAW_TILE if mine["can_draw"] else PASS_TURN
        self.service.commands.move(caller, game, move, None)


def whole_match() -> tuple[Table, str]:
    """Alice and Bob's dos-jugadores match (seed 9: several hands) played to its end, the
    stream drained after every change."""
    table = Table()
    game = table.service.commands.create(
        ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL, seed=9)
    ).game_id
    table.service.commands.join(BOB, game, TakeSeat(), None)
    who = {0: ALICE, 1: BOB}
    while table.service.queries.get(ALICE, game).view["status"] == "playing":
        table.play_on(game, who)
        table.drain()
    return table, game


def test_a_join_that_deals_tells_the_others_and_never_the_joiner() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    assert table.drain() == 2
    assert table.told("alice") == [(2, "game_started"), (2, "player_joined")]
    assert table.told("bob") == []  # he joined, and he is on turn because he joined
    joined = next(n for n in table.inbox.notes.values() if n.type == "player_joined")
    assert joined.detail == "Bob"


def test_the_deal_tells_the_opener_it_is_their_turn() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("clasico", 3, seed=3)).game_id
    table.service.commands.join(BOB, game, TakeSeat(), None)
    table.service.commands.join(CAROL, game, TakeSeat(), None)
    table.drain()
    opener = table.service.queries.get(ALICE, game).view["turn"]
    players = ["alice", "bob", "carol"]
    assert table.told("alice")[:1] == [(2, "player_joined")]
    for seat, player in enumerate(players[:2]):
        expected = {(3, "player_joined"), (3, "game_started")}
        if seat == opener:
            expected.add((3, "your_turn"))
        assert set(table.told(player)) - {(2, "player_joined")} == expected, player
    assert table.told("carol") == []  # she dealt: her answer told her all, her turn too


def test_a_whole_match_notifies_each_change_once_in_version_order() -> None:
    table, game = whole_match()
    table.drain()  # once more: nothing new
    for player in ("alice", "bob"):
        told = table.told(player)
        assert len(told) == len(set(told)), player  # never twice
        versions = [v for v, _ in told]
        assert versions == sorted(versions), player
        assert Counter(kind for _, kind in told)["your_turn"] > 0, player
    # game_over once, to the player who did not end the match (the other's answer told them)
    ended_by = from_item(table.store.stream[-1][1]).actor
    final_version = table.service.queries.get(ALICE, game).version
    told_over = [p for p in ("alice", "bob") if (final_version, "game_over") in table.told(p)]
    assert told_over == [p for p in ("alice", "bob") if p != ended_by]
    # hand_over for every hand but the last, to the player who did not end it
    hands = table.service.queries.get(ALICE, game).view["result"]["hand_number"]
    assert hands > 1  # seed 9: a match of several hands, so that this means something
    hand_overs = Counter(k for p in ("alice", "bob") for _, k in table.told(p))["hand_over"]
    assert hand_overs == hands - 1
    # nobody is told of their own change: the actor of each version is never its addressee
    actors = {
        record.version: record.actor for record in (from_item(n) for _, n in table.store.stream)
    }
    for (player, _), note in table.inbox.notes.items():
        if note.type != "timeout":
            assert actors[note.version] != player, note


def test_a_turns_notification_names_the_public_move_that_led_to_it() -> None:
    """docs/api.md "What a phone is sent": "Ana played 6-4", never a drawn tile."""
    table, _game = whole_match()
    names = {"alice": "Alice", "bob": "Bob"}
    records = [from_item(n) for _, n in table.store.stream]
    actors = {r.version: r.actor for r in records}
    laid: dict[tuple[str, int], set[str]] = {}  # (reader, actor's seat): the plays they saw
    for record in records:
        for reader, reader_seat in (("alice", 0), ("bob", 1)):
            for m in decode(record.state).moves(reader_seat, 0) if record.state else []:
                if m["action"] == "play":
                    laid.setdefault((reader, m["seat"]), set()).add(m["tile"])
    told = [n for n in table.inbox.notes.values() if n.type in ("your_turn", "hand_over")]
    assert told and all(n.move is not None for n in told)
    kinds = Counter("tile" if n.move not in ("draw", "pass") else n.move for n in told)
    assert kinds["tile"] > 0 and kinds["tile"] + kinds["pass"] == len(told)  # a draw keeps the turn
    for note in told:
        reader = ALICE if note.player == "alice" else BOB
        actor = actors[note.version]
        assert actor is not None and note.by == names[actor], note
        if note.move != "pass":  # a tile the reader saw the actor lay, never one drawn
            assert note.move in laid[note.player, 0 if actor == "alice" else 1], note
    for reader in (ALICE, BOB):  # the inbox tells it too, in the reader's language
        page, _unread = InboxQueries(table.inbox).page(reader, 100, None)
        turns = [v for v in page.items if v["type"] == "your_turn"]
        assert turns and all(v["body"].startswith(("Alice ", "Bob ")) for v in turns)


def test_a_draw_that_keeps_the_turn_tells_nobody() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.service.commands.move(BOB, game.game_id, MakeMove("play", "6-6"), None)
    table.drain()
    assert table.told("alice")[-1] == (3, "your_turn")
    table.service.commands.move(ALICE, game.game_id, DRAW_TILE, None)  # she holds no 6
    assert table.drain() == 0


def test_a_leaver_hears_nothing_more() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.drain()
    before = table.told("alice")
    table.service.commands.leave(ALICE, game.game_id, LEAVE, None)
    table.drain()
    assert table.told("alice") == before


def test_games_against_bots_notify_nobody() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("clasico", 4, bots=3, seed=4)).game_id
    for _ in range(10):
        table.play_on(game, {0: ALICE})
    assert table.drain() == 0


def test_a_timeout_tells_the_late_player() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    old = table.store.load(game.game_id)
    assert old is not None
    new = from_item(table.store.items[game.game_id])
    new.version, new.actor, new.cause = old.version + 1, "bob", "timeout"
    assert [(n.player, n.type) for n in notices(old, new)] == [("bob", "timeout")]


def test_a_redelivered_change_writes_nothing() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    assert table.drain() == 2
    table.read = 0  # the stream delivers everything again
    assert table.drain() == 0
    assert len(table.inbox.notes) == 2


class FlakyChannel:
    """A channel that fails on its first ``failures`` sends, then records what it sends."""

    marks_sent = True

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.sent: list[Note] = []

    def reaches(self, note: Note) -> bool:
        return True

    def send(self, note: Note) -> bool:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the push service did not answer")
        self.sent.append(note)
        return True


def test_a_crash_before_the_push_leaves_nothing_and_the_redelivery_pushes_once() -> None:
    """The outbox, push first: the note is read (absent), the push fails (the function dies)
    before anything is written, the stream delivers the change again: the note is pushed and
    written marked, once; a third delivery reads it marked and sends nothing."""
    channel = FlakyChannel(failures=1)
    table = Table([channel])
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    with pytest.raises(ConnectionError):
        table.drain()
    assert len(table.inbox.notes) == 0 and channel.sent == []
    table.read = 0
    table.drain()  # redelivered: both notes sent now, each written marked after its push
    assert sorted(n.type for n in channel.sent) == ["game_started", "player_joined"]
    assert len(table.inbox.notes) == 2 and all(n.pushed for n in table.inbox.notes.values())
    table.read = 0
    table.drain()
    assert len(channel.sent) == 2


def test_a_note_written_unmarked_before_its_player_had_a_device_is_pushed_then_marked() -> None:
    """Notes written while nobody could be pushed (no device yet) stay unmarked; a delivery
    of the same change once there is a device pushes each once and marks it."""
    table = Table([Nowhere()])
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.drain()
    assert len(table.inbox.notes) == 2 and not any(n.pushed for n in table.inbox.notes.values())
    pushes = Recorded()
    table.notifier.channels = [pushes]  # the player registered a phone
    table.read = 0
    assert table.drain() == 0  # nothing new in the inbox
    assert len(pushes.notes) == 2 and all(n.pushed for n in table.inbox.notes.values())
    table.read = 0
    table.drain()
    assert len(pushes.notes) == 2


def test_reading_the_inbox() -> None:
    table = Table()
    game = table.service.commands.create(ALICE, NewGame("clasico", 3, seed=3)).game_id
    table.service.commands.join(BOB, game, TakeSeat(), None)
    table.service.commands.join(CAROL, game, TakeSeat(), None)
    table.drain()
    queries = InboxQueries(table.inbox)
    page, unread = queries.page(ALICE, 2, None)
    told = len(table.told("alice"))
    assert unread == told and len(page.items) == min(2, told) and not page.items[0]["read"]
    assert page.items[0]["title"] in ("Te toca", "Empieza la partida", "Nuevo jugador")
    queries.mark_read(ALICE, page.items[0]["id"])
    assert queries.page(ALICE, 10, None)[1] == 0  # the newest one read: every older one too
    oldest = queries.page(ALICE, 10, None)[0].items[-1]["id"]
    queries.mark_read(ALICE, oldest)  # never back
    assert queries.page(ALICE, 10, None)[1] == 0
    english = queries.page(Caller("alice", "Alice", "en-US"), 10, None)[0].items
    assert {n["title"] for n in english} <= {"Your turn", "Game on", "New player"}
    with pytest.raises(Exception) as unknown:
        queries.mark_read(ALICE, "2026-01-01T00:00:00Z#nope#0000000001#your_turn")
    assert getattr(unknown.value, "code", None) == "invalid_request"


class Nowhere:
    """A channel whose player has no device and no socket."""

    marks_sent = True

    def reaches(self, note: Note) -> bool:
        return False

    def send(self, note: Note) -> bool:
        return False


def test_a_player_with_nowhere_to_be_sent_costs_no_outbox_write() -> None:
    table = Table([Nowhere()])
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    assert table.drain() == 2
    assert not any(n.pushed for n in table.inbox.notes.values())


class Socketed:
    """A channel like the sockets': its repeats are recognised by the client."""

    marks_sent = False

    def __init__(self) -> None:
        self.sent: list[Note] = []

    def reaches(self, note: Note) -> bool:
        return True

    def send(self, note: Note) -> bool:
        self.sent.append(note)
        return True


def test_a_note_only_sockets_were_sent_costs_no_outbox_write_and_repeats_the_same() -> None:
    sockets = Socketed()
    table = Table([sockets])
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    assert table.drain() == 2 and len(sockets.sent) == 2
    assert not any(n.pushed for n in table.inbox.notes.values())
    table.read = 0  # redelivered: the sockets get the very same notes (ids and versions)
    assert table.drain() == 0
    assert sockets.sent[2:] == sockets.sent[:2]


def test_a_note_pushed_beside_a_socket_is_marked_and_never_pushed_again() -> None:
    sockets, pushes = Socketed(), Recorded()
    table = Table([sockets, pushes])
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.drain()
    assert all(n.pushed for n in table.inbox.notes.values())
    table.read = 0
    table.drain()
    assert len(pushes.notes) == 2 and len(sockets.sent) == 2


class Looking(Socketed):
    """A socket channel that looks for each note it is handed in the inbox."""

    def __init__(self, inbox: Any) -> None:
        super().__init__()
        self.inbox = inbox
        self.in_inbox: list[bool] = []

    def send(self, note: Note) -> bool:
        self.in_inbox.append(self.inbox.get(note.player, note.id) is not None)
        return super().send(note)


def test_a_socket_is_told_of_a_pushed_note_once_the_inbox_holds_it() -> None:
    table = Table()
    sockets, pushes = Looking(table.inbox), Recorded()
    table.notifier.channels = [sockets, pushes]  # the sockets listed first, told last
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    assert table.drain() == 2 and len(pushes.notes) == 2
    assert sockets.in_inbox == [True, True]


class Recorded:
    """A channel that keeps every note it is handed."""

    marks_sent = True

    def __init__(self) -> None:
        self.notes: list[Note] = []

    def reaches(self, note: Note) -> bool:
        return True

    def send(self, note: Note) -> bool:
        self.notes.append(note)
        return True


@pytest.mark.parametrize(("hours", "urgent"), [(None, False), (0.5, True), (1, False), (24, False)])
def test_your_turn_is_urgent_only_in_a_game_of_turns_under_an_hour(
    hours: float | None, urgent: bool
) -> None:
    channel = Recorded()
    table = Table([channel])
    made = NewGame("dos-jugadores", 2, turn_timeout_hours=hours, deal=DOS_DEAL)
    game = table.service.commands.create(ALICE, made).game_id
    table.service.commands.join(BOB, game, TakeSeat(), None)
    table.drain()
    table.play_on(game, {0: ALICE, 1: BOB})
    table.drain()
    turns = [n for n in channel.notes if n.type == "your_turn"]
    assert turns, channel.notes
    assert {n.urgent for n in turns} == {urgent}
    assert not any(n.urgent for n in channel.notes if n.type != "your_turn")
