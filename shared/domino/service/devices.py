"""Devices and mobile push: a player registers a device's push token; every notification then
reaches each of their devices through SNS, in the device's language.

A token is registered as an SNS platform endpoint on its platform's application; a new token
for the same device id updates the same endpoint (tokens rotate). A token (one phone) belongs to
one player's device at a time, the last to register it (two accounts signed in on one phone):
registering it takes the device from the other player in the same transaction, and removing a
device deletes its endpoint only while it still owned the token (``DeviceStore.release``).
A device whose endpoint SNS has disabled (APNs or FCM said the token is no longer valid) is
removed when a push finds it so. Payloads follow SNS's formats: ``APNS``/``APNS_SANDBOX``
(``aps.alert``, ``badge``: the games awaiting the player's move, ``thread-id``: the game) and
``GCM`` in FCM HTTP v1's shape (``fcmV1Message``, ``android.collapse_key``: the game); both
carry game, version and type as data. A payload says what the notification's text says and no
more: never a tile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from domino.engine.errors import InvalidInput
from domino.limits import DEVICE_ID, MAX_DEVICES
from domino.service.clock import Clock, system_clock
from domino.service.errors import AccountDeleted
from domino.service.ports import AccountStore, DeviceStore, PushGateway
from domino.service.texts import language_of, preset_name, summary_text, text
from domino.service.values import Caller, RegisterDevice
from domino.store.devices import ClaimLost, Device
from domino.store.errors import Unavailable
from domino.store.inbox import Note
from domino.store.quiet import Held

Platform = Literal["apns", "apns_sandbox", "fcm"]
PLATFORMS: tuple[Platform, ...] = ("apns", "apns_sandbox", "fcm")
#: SNS's message keys per platform
SNS_KEYS = {"apns": "APNS", "apns_sandbox": "APNS_SANDBOX", "fcm": "GCM"}
#: how often a registration racing another of the same phone reads and tries again
CLAIM_ATTEMPTS = 4


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
        for _attempt in range(CLAIM_ATTEMPTS):
            try:
                return self._claim(caller.player, device_id, platform, token, locale)
            except ClaimLost:
                continue  # another registration of the phone (or of this device) came between
        raise Unavailable()

    def _claim(
        self, player: str, device_id: str, platform: str, token: str, locale: str | None
    ) -> None:
        """Register ``token`` for the player's device: the phone's endpoint (whoever had it),
        else this device's own (a rotated token keeps it), else a new one; then the device is
        the token's owner (``DeviceStore.claim``), and an endpoint it no longer uses goes."""
        known = self.devices.get(player, device_id)
        if known is None:
            self._make_room(player)
        owner = self.devices.owner(platform, token)
        endpoint = owner.endpoint if owner else None
        if endpoint is None and known and known.platform == platform:
            endpoint = known.endpoint
        endpoint = self.push.register(platform, token, player, endpoint)
        device = Device(player, device_id, platform, token, endpoint, locale, int(self.clock()))
        replaced = None
        if known and (known.platform, known.token) != (platform, token):
            mine = self.devices.owner(known.platform, known.token)
            if mine is None or mine[:2] == (player, device_id):
                replaced = known  # its old token's owner item goes with the claim
        self.devices.claim(device, owner, replaced)
        if replaced is not None and replaced.endpoint != endpoint:
            self.push.delete(replaced.endpoint)  # the device moved platform or phone

    def _make_room(self, player: str) -> None:
        """At MAX_DEVICES, forget the devices updated longest ago (a phone replaced or an app
        reinstalled keeps its old registration until then) so the new one is the last."""
        registered = sorted(self.devices.of_player(player), key=lambda d: d.updated_at)
        for stale in registered[: max(0, len(registered) - MAX_DEVICES + 1)]:
            forget(self.devices, self.push, stale)

    def remove(self, caller: Caller, device_id: str) -> None:
        """Forget the device and delete its endpoint (nothing to do for an unknown one); an
        endpoint another player's registration of the same phone took over stays theirs."""
        if not DEVICE_ID.fullmatch(device_id):
            raise InvalidInput("device_id is 1-128 letters, digits or _ . : -")
        known = self.devices.get(caller.player, device_id)
        if known is not None:
            forget(self.devices, self.push, known)


def forget(devices: DeviceStore, push: PushGateway, device: Device) -> None:
    """Forget ``device``, and its endpoint while the device still owned its token."""
    if devices.release(device):
        push.delete(device.endpoint)


#: the app's category (APNs) and Android channel of each notification type: the actions an
#: app offers, and the channel a user may silence (docs/mobile.md lists them)
PUSH_KINDS: dict[str, tuple[str, str]] = {
    "your_turn": ("YOUR_TURN", "turns"),
    "reminder": ("REMINDER", "turns"),
    "timeout": ("TIMEOUT", "turns"),
    "nudge": ("NUDGE", "turns"),
    "player_joined": ("PLAYER_JOINED", "games"),
    "game_started": ("GAME_STARTED", "games"),
    "hand_over": ("HAND_OVER", "games"),
    "game_over": ("GAME_OVER", "games"),
    "match_found": ("MATCH_FOUND", "matches"),
    "match_expired": ("MATCH_EXPIRED", "matches"),
    "invited": ("INVITED", "invitations"),
    "invite_declined": ("INVITE_DECLINED", "invitations"),
    "rematch": ("REMATCH", "invitations"),
}
#: what must reach the player now: APNs ``time-sensitive`` (through Focus) and FCM ``high``
URGENT = frozenset({"your_turn", "reminder", "timeout"})
TIME_SENSITIVE = frozenset({"reminder", "timeout"})
DEFAULT_URL_SCHEME = "domino"


class PushChannel:
    """The notifier's channel to phones: a notification to every device of its player."""

    marks_sent = True  # a push sent twice shows twice

    def __init__(
        self,
        devices: DeviceStore,
        push: PushGateway,
        awaiting: Callable[[str], int],
        muted: Callable[[str], tuple[str, ...]] | None = None,
        locale: Callable[[str], str | None] | None = None,
        scheme: str = DEFAULT_URL_SCHEME,
        hold: Callable[[str, str], bool] | None = None,
    ) -> None:
        self.devices = devices
        self.push = push
        self.awaiting = awaiting  # player -> games awaiting their move (the badge)
        self.muted = muted  # player -> the notification types they do not want pushed
        #: player -> their locale, for devices that have none of their own (no token here)
        self.locale = locale or (lambda _player: None)
        self.scheme = scheme  # the app's URL scheme (template.yaml AppUrlScheme)
        #: (player, game) -> whether the player's quiet hours hold the push now (holding it)
        self.hold = hold

    def reaches(self, note: Note) -> bool:
        return bool(self.devices.of_player(note.player))

    def send(self, note: Note) -> bool:
        devices = self.devices.of_player(note.player)
        if not devices:
            return False
        if self.muted is not None and note.type in self.muted(note.player):
            return True  # settled: the player chose not to be pushed this type
        if self.hold is not None and self.hold(note.player, note.game):
            return True  # settled: held through quiet hours, summed up when they end
        badge = self.awaiting(note.player)
        for device in devices:
            # one notification shown per game: the next replaces it, a repeat shows once
            sent = self.push.publish(
                device.endpoint, message(note, device, badge, self.locale, self.scheme), note.game
            )
            if sent:
                continue
            if self.push.exists(device.endpoint):
                # SNS disabled the endpoint: APNs or FCM said the token no longer works
                forget(self.devices, self.push, device)
                continue
            # deleted under the device: by another account's registration of the same phone
            # that let it go at the moment this one took it: the device makes it again
            revived = self.revive(device)
            if revived is not None:
                self.push.publish(
                    revived.endpoint,
                    message(note, revived, badge, self.locale, self.scheme),
                    note.game,
                )
        return True

    def summary(self, held: Held) -> None:
        """The push that ends a quiet window: one to each device of the player (none without
        a device), saying how many games await their move now."""
        devices = self.devices.of_player(held.player)
        if not devices:
            return
        awaiting = self.awaiting(held.player)
        for device in devices:
            language = device.locale or self.locale(held.player) or ""
            summary = summary_message(device, awaiting, len(held.games), language, self.scheme)
            self.push.publish(device.endpoint, summary, SUMMARY)

    def revive(self, device: Device) -> Device | None:
        """A new endpoint for a device whose endpoint was deleted, while the device still owns
        its token (else it is no longer the player's: its item goes)."""
        owner = self.devices.owner(device.platform, device.token)
        if owner is not None and owner[:2] != (device.player, device.device_id):
            self.devices.delete(device.player, device.device_id)
            return None
        endpoint = self.push.register(device.platform, device.token, device.player, None)
        revived = device._replace(endpoint=endpoint)
        try:
            self.devices.claim(revived, owner, None)
        except ClaimLost:
            return None  # registered again meanwhile: that registration stands
        return revived


def body_localisation(note: Note, language: str) -> tuple[str, list[str]]:
    """The body's localisation key and arguments, for an app that has its own strings:
    ``YOUR_TURN_BODY`` [game], or after a move ``YOUR_TURN_AFTER_PLAY_BODY`` [game, by, tile]
    (``_AFTER_DRAW_``, ``_AFTER_PASS_``: [game, by]); ``detail`` (a name, a hand) after the
    game when the type has one. docs/mobile.md lists them."""
    key = note.type.upper()
    args = [preset_name(note.preset, language), *([note.detail] if note.detail else [])]
    if note.by is None or note.move is None:
        return f"{key}_BODY", args
    kind = note.move if note.move in ("draw", "pass") else "play"
    args.append(note.by)
    if kind == "play":
        args.append(note.move)
    return f"{key}_AFTER_{kind.upper()}_BODY", args


def message(
    note: Note,
    device: Device,
    badge: int,
    locale: Callable[[str], str | None] | None = None,
    scheme: str = DEFAULT_URL_SCHEME,
) -> dict[str, Any]:
    """The SNS message for ``device``: its platform's payload, in the device's own language,
    else the player's (``locale``), with what an app keys on: the category or channel of the
    type, the game's thread, the localisation keys beside the text, the badge, and the URL
    the app opens (``scheme``: the template's ``AppUrlScheme``)."""
    chosen = device.locale or (locale(note.player) if locale is not None else None)
    language = language_of(chosen)
    title, body = text(note.type, language, note.preset, note.detail, note.by, note.move)
    category, channel = PUSH_KINDS.get(note.type, (note.type.upper(), "games"))
    key = note.type.upper()
    body_key, args = body_localisation(note, language)
    data = {
        "game": note.game,
        "version": str(note.version),
        "type": note.type,
        "url": f"{scheme}://games/{note.game}",
    }
    shown = Shown(title, body, f"{key}_TITLE", body_key, args, category, channel, note.game)
    return payload(
        device, shown, badge, data, note.type in TIME_SENSITIVE or note.urgent, note.type in URGENT
    )


#: the summary push of a quiet window: its type, category and channel
SUMMARY = "quiet_summary"


def summary_message(
    device: Device, awaiting: int, games: int, language: str, scheme: str = DEFAULT_URL_SCHEME
) -> dict[str, Any]:
    """The SNS message that sums up a quiet window for ``device``: the games awaiting the
    player's move (the badge too), else how many games had news; it opens the app's list."""
    title, body = summary_text(language_of(language), awaiting, games)
    kind = "await" if awaiting else "news"
    count = awaiting or games
    key = SUMMARY.upper()
    body_key = f"{key}_{kind.upper()}_BODY"
    shown = Shown(title, body, f"{key}_TITLE", body_key, [str(count)], key, "turns", SUMMARY)
    data = {"type": SUMMARY, "url": f"{scheme}://games"}
    return payload(device, shown, awaiting, data, False, False)


class Shown(NamedTuple):
    """What a push shows: its text, localisation keys, category and channel, and the thread
    (and Android tag) that groups it."""

    title: str
    body: str
    title_key: str
    body_key: str
    args: list[str]
    category: str
    channel: str
    thread: str


def payload(
    device: Device,
    shown: Shown,
    badge: int,
    data: dict[str, str],
    time_sensitive: bool,
    urgent: bool,
) -> dict[str, Any]:
    """The SNS message of ``shown`` in ``device``'s platform's format (APNs ``aps`` or FCM HTTP
    v1), with ``data`` beside it."""
    aps = {
        "alert": {
            "title": shown.title,
            "body": shown.body,
            "title-loc-key": shown.title_key,
            "loc-key": shown.body_key,
            "loc-args": shown.args,
        },
        "badge": badge,
        "sound": "default",
        "thread-id": shown.thread,
        "category": shown.category,
        # your_turn too in a game of turns under an hour (``urgent``)
        "interruption-level": "time-sensitive" if time_sensitive else "active",
    }
    if device.platform == "fcm":
        body: dict[str, Any] = {
            "fcmV1Message": {
                "message": {
                    "notification": {"title": shown.title, "body": shown.body},
                    "data": data,
                    "android": {
                        "collapse_key": shown.thread,
                        "priority": "high" if urgent else "normal",
                        "notification": {
                            "tag": shown.thread,
                            "channel_id": shown.channel,
                            "notification_count": badge,
                            "title_loc_key": shown.title_key,
                            "body_loc_key": shown.body_key,
                            "body_loc_args": shown.args,
                        },
                    },
                    "apns": {
                        "headers": {"apns-priority": "10" if urgent else "5"},
                        "payload": {"aps": aps, **data},
                    },
                }
            }
        }
    else:
        body = {"aps": aps, **data}
    return {"default": shown.body, SNS_KEYS[device.platform]: body}
