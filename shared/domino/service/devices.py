"""Devices and mobile push: a player registers a device's push token; every notification then
reaches each of their devices through SNS, in the device's language.

A token is registered as an SNS platform endpoint on its platform's application; a new token
for the same device id updates the same endpoint (tokens rotate). A device whose endpoint SNS
has disabled (APNs or FCM said the token is no longer valid) is removed when a push finds it so.
Payloads follow SNS's formats: ``APNS``/``APNS_SANDBOX`` (``aps.alert``, ``badge``: the games
awaiting the player's move, ``thread-id``: the game) and ``GCM`` in FCM HTTP v1's shape
(``fcmV1Message``, ``android.collapse_key``: the game); both carry game, version and type as
data. A payload says what the notification's text says and no more: never a tile.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from domino.engine.errors import InvalidInput
from domino.limits import MAX_DEVICES
from domino.service.errors import AccountDeleted
from domino.service.game import Clock, system_clock
from domino.service.ports import AccountStore, DeviceStore, PushGateway
from domino.service.texts import language_of, text
from domino.service.values import Caller, RegisterDevice
from domino.store.devices import Device
from domino.store.inbox import Note

Platform = Literal["apns", "apns_sandbox", "fcm"]
PLATFORMS: tuple[Platform, ...] = ("apns", "apns_sandbox", "fcm")
#: a device id the app chooses (an installation id): letters, digits and _ . : -
DEVICE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
#: SNS's message keys per platform
SNS_KEYS = {"apns": "APNS", "apns_sandbox": "APNS_SANDBOX", "fcm": "GCM"}


class Devices:
    """The player's side: register and remove devices."""

    def __init__(
        self,
        devices: DeviceStore,
        push: PushGateway,
        clock: Clock = system_clock,
        accounts: AccountStore | None = None,
    ) -> None:
        self.devices = devices
        self.push = push
        self.clock = clock
        self.accounts = accounts  # to refuse a token its account's deletion outlived

    def register(self, caller: Caller, device_id: str, command: RegisterDevice) -> None:
        """Create or update the device's endpoint (the same endpoint when the token rotates);
        a token issued before its account was deleted registers nothing (401)."""
        if self.accounts is not None:
            profile = self.accounts.profile(caller.player)
            if profile is not None and profile.refuses(caller.issued_at):
                raise AccountDeleted()
        platform, token, locale = command
        if not DEVICE_ID.fullmatch(device_id):
            raise InvalidInput("device_id is 1-128 letters, digits or _ . : -")
        if not self.push.offered(platform):
            raise InvalidInput(
                "Push to {platform} is not offered by this server.", platform=platform
            )
        known = self.devices.get(caller.player, device_id)
        if known is None:
            self._make_room(caller.player)
        endpoint = known.endpoint if known and known.platform == platform else None
        if known and known.platform != platform:
            self.push.delete(known.endpoint)  # the same device id moved platform
        endpoint = self.push.register(platform, token, caller.player, endpoint)
        device = Device(
            caller.player, device_id, platform, token, endpoint, locale, int(self.clock())
        )
        self.devices.put(device)

    def _make_room(self, player: str) -> None:
        """At MAX_DEVICES, forget the devices updated longest ago (a phone replaced or an app
        reinstalled keeps its old registration until then) so the new one is the last."""
        registered = sorted(self.devices.of_player(player), key=lambda d: d.updated_at)
        for stale in registered[: max(0, len(registered) - MAX_DEVICES + 1)]:
            self.push.delete(stale.endpoint)
            self.devices.delete(player, stale.device_id)

    def remove(self, caller: Caller, device_id: str) -> None:
        """Forget the device and delete its endpoint (nothing to do for an unknown one)."""
        if not DEVICE_ID.fullmatch(device_id):
            raise InvalidInput("device_id is 1-128 letters, digits or _ . : -")
        known = self.devices.get(caller.player, device_id)
        if known is not None:
            self.push.delete(known.endpoint)
            self.devices.delete(caller.player, device_id)


class PushChannel:
    """The notifier's channel to phones: a notification to every device of its player."""

    def __init__(
        self,
        devices: DeviceStore,
        push: PushGateway,
        awaiting: Callable[[str], int],
    ) -> None:
        self.devices = devices
        self.push = push
        self.awaiting = awaiting  # player -> games awaiting their move (the badge)

    def send(self, note: Note) -> bool:
        devices = self.devices.of_player(note.player)
        if not devices:
            return False
        badge = self.awaiting(note.player)
        for device in devices:
            # one notification shown per game: the next replaces it, a repeat shows once
            sent = self.push.publish(device.endpoint, message(note, device, badge), note.game)
            if not sent:
                # SNS disabled the endpoint: APNs or FCM said the token no longer works
                self.devices.delete(device.player, device.device_id)
                self.push.delete(device.endpoint)
        return True


def message(note: Note, device: Device, badge: int) -> dict[str, Any]:
    """The SNS message for ``device``: its platform's payload, in its language."""
    title, body = text(note.type, language_of(device.locale), note.preset, note.detail)
    data = {"game": note.game, "version": str(note.version), "type": note.type}
    if device.platform == "fcm":
        payload: dict[str, Any] = {
            "fcmV1Message": {
                "message": {
                    "notification": {"title": title, "body": body},
                    "data": data,
                    "android": {"collapse_key": note.game, "notification": {"tag": note.game}},
                }
            }
        }
    else:
        payload = {
            "aps": {
                "alert": {"title": title, "body": body},
                "badge": badge,
                "sound": "default",
                "thread-id": note.game,
            },
            **data,
        }
    return {"default": body, SNS_KEYS[device.platform]: payload}
