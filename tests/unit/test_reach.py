"""The notifier reads where a player can be reached once per change (service/reach.py): the
push channel's devices and the socket channel's connections come from one read of the player,
which the next change reads again and a write forgets."""

from __future__ import annotations

from collections import Counter

from domino.service.devices import PushChannel
from domino.service.inbox import Notifier
from domino.service.live import LiveChannel
from domino.service.reach import ChangeReach, ReachConnections, ReachDevices
from domino.service.values import Caller, MakeMove, NewGame, TakeSeat
from domino.store.devices import Device
from domino.store.reach import Reach

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryInbox
from tests.unit.test_live import Connections, Sockets
from tests.unit.test_notices import Table
from tests.unit.test_push import Devices_, Gateway

ALICE, BOB = Caller("alice", "Alice"), Caller("bob", "Bob")


class CountingReach:
    """A ReachStore over the in-memory devices and connections, counting its reads."""

    def __init__(self, devices: Devices_, connections: Connections) -> None:
        self.devices, self.connections = devices, connections
        self.reads: Counter[str] = Counter()

    def of_player(self, player: str, now: int) -> Reach:
        self.reads[player] += 1
        return Reach(self.devices.of_player(player), self.connections.of_player(player, now))


def wired() -> tuple[Table, CountingReach, Devices_, Connections, Sockets, Gateway]:
    devices, connections, sockets, push = Devices_(), Connections(), Sockets(), Gateway()
    store = CountingReach(devices, connections)
    reach = ChangeReach(store, lambda: 1000.0)
    table = Table()
    live = LiveChannel(ReachConnections(connections, reach), sockets)
    channels = [PushChannel(ReachDevices(devices, reach), push, lambda _p: 1), live]
    table.notifier = Notifier(MemoryInbox(), channels, live, reach)
    return table, store, devices, connections, sockets, push


def test_each_player_is_read_once_a_change_for_both_channels() -> None:
    table, store, devices, connections, sockets, push = wired()
    devices.put(Device("alice", "phone", "fcm", "tok", "arn:alice-phone", "en", 1))
    connections.add("alice", "a-web", 0, "en")
    connections.add("bob", "b-web", 0, None)
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.drain()
    store.reads.clear()
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.drain()  # alice: player_joined and game_started, pushed and posted; bob: the change
    assert store.reads == Counter({"alice": 1, "bob": 1})
    assert [m["notification"]["type"] for m in sockets.sent["a-web"]] == [
        "player_joined",
        "game_started",
    ]
    assert len(push.sent) == 2 and sockets.sent["b-web"][0]["notification"] is None
    store.reads.clear()
    table.service.commands.move(BOB, game.game_id, MakeMove("play", "6-6"), None)
    table.drain()  # a new change: read again
    assert store.reads == Counter({"alice": 1, "bob": 1})
    assert sockets.sent["a-web"][-1]["notification"]["type"] == "your_turn"


def test_what_a_channel_removes_is_read_again() -> None:
    """A socket gone (410) is forgotten, and the player's next read within the same change
    does not offer it again."""
    devices, connections = Devices_(), Connections()
    store = CountingReach(devices, connections)
    reach = ChangeReach(store, lambda: 1000.0)
    stored = ReachConnections(connections, reach)
    connections.add("alice", "a-1", 0, None)
    assert stored.of_player("alice", 1000) == [("a-1", None)]
    assert stored.of_player("alice", 1000) == [("a-1", None)]
    assert store.reads["alice"] == 1
    stored.remove("alice", "a-1")
    assert stored.of_player("alice", 1000) == []
    assert store.reads["alice"] == 2
    reach.reset()
    ReachDevices(devices, reach).of_player("alice")
    assert store.reads["alice"] == 3
