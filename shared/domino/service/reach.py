"""The notifier's reads of where a player can be reached: one query per player per change,
shared by the push channel (their devices) and the socket channel (their open sockets).

A change usually notifies one player and tells the others it happened: without this, the
player notified cost a query for devices and another for sockets. ``ChangeReach`` reads both
at once (``ReachStore``) and keeps them until the next change; ``ReachDevices`` and
``ReachConnections`` are the channels' stores, answering ``of_player`` from it and passing
writes through (a write forgets what was read of that player).
"""

from __future__ import annotations

from domino.service.clock import Clock
from domino.service.ports import ConnectionStore, DeviceStore, ReachStore
from domino.store.devices import Device, Owner
from domino.store.reach import Reach


def player_locale(reach: Reach, token_locale: str | None) -> str | None:
    """docs/api.md "One language per player", for the inbox and the sockets alike: the locale
    chosen with ``PATCH /me``, else the latest device's, else the token's; None: Spanish. A
    device's own locale changes only that device's pushes."""
    if reach.locale:
        return reach.locale
    return next((d.locale for d in reach.devices if d.locale), None) or token_locale


class ChangeReach:
    def __init__(self, store: ReachStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._read: dict[str, Reach] = {}

    def reset(self) -> None:
        """A new change: read again (a device or socket may have come or gone since)."""
        self._read.clear()

    def of(self, player: str) -> Reach:
        if player not in self._read:
            self._read[player] = self.store.of_player(player, int(self.clock()))
        return self._read[player]

    def forget(self, player: str) -> None:
        self._read.pop(player, None)


class ReachDevices:
    """A ``DeviceStore`` whose ``of_player`` is the change's read."""

    def __init__(self, devices: DeviceStore, reach: ChangeReach) -> None:
        self.devices = devices
        self.reach = reach

    def put(self, device: Device) -> None:
        self.devices.put(device)
        self.reach.forget(device.player)

    def get(self, player: str, device_id: str) -> Device | None:
        return self.devices.get(player, device_id)

    def delete(self, player: str, device_id: str) -> None:
        self.devices.delete(player, device_id)
        self.reach.forget(player)

    def of_player(self, player: str) -> list[Device]:
        return self.reach.of(player).devices

    def owner(self, platform: str, token: str) -> Owner | None:
        return self.devices.owner(platform, token)

    def claim(self, device: Device, previous: Owner | None, replaced: Device | None) -> None:
        self.devices.claim(device, previous, replaced)
        self.reach.forget(device.player)
        if previous is not None:
            self.reach.forget(previous.player)

    def release(self, device: Device) -> bool:
        released = self.devices.release(device)
        self.reach.forget(device.player)
        return released


class ReachConnections:
    """A ``ConnectionStore`` whose ``of_player`` is the change's read."""

    def __init__(self, connections: ConnectionStore, reach: ChangeReach) -> None:
        self.connections = connections
        self.reach = reach

    def add(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        expires: int | None = None,
    ) -> None:
        self.connections.add(player, connection_id, at, locale, expires)
        self.reach.forget(player)

    def remove(self, player: str, connection_id: str, opened_before: int | None = None) -> None:
        self.connections.remove(player, connection_id, opened_before)
        self.reach.forget(player)

    def of_player(self, player: str, now: int) -> list[tuple[str, str | None]]:
        return self.reach.of(player).sockets

    def expired(self, player: str, now: int) -> list[str]:
        return list(self.reach.of(player).expired)

    def opened(self, player: str, now: int) -> list[tuple[str, int]]:
        return self.connections.opened(player, now)
