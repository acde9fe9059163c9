"""The caller's account: the display name they choose, and deleting the account (app stores
require both).

Deletion undoes what the account made, in an order a retry can resume (``DELETE /me`` is
idempotent; a second one finds less to do):

1. a tombstone replaces the profile: from now on a token issued before this moment takes no
   seat and sets no name (``AccountDeleted``, 401), so nothing below comes back (a create or a
   join racing the deletion checks the tombstone in its own transaction: it commits before the
   tombstone, and step 3 finds it, or not at all; where the transaction's items land after
   its check, as on DynamoDB Local, the writer reads the profile once they are in and leaves
   the seat itself: ``GameCommands._leave_if_deleted``);
2. every open WebSocket of the player is closed (through the management API: API Gateway
   runs its $disconnect; one still connecting never opens), and a $connect with such a token is
   refused in the admission's own transaction;
3. every game the player is a member of is left as ``POST /games/{id}/leave`` leaves it:
   before the deal the seat is freed (and the membership goes with it), during play a bot takes
   the seat and the player forfeits; finished games stay as they are (history); a seat
   reserved for them (an invitation) is declined;
4. each device's SNS endpoint is deleted (unless another account registered the same phone
   since: the device is theirs then);
5. the player's ratings go, each with its count in its pool's histogram (one transaction each),
   so they leave every leaderboard and percentile; then the rest of the player's items:
   memberships, devices, inbox, read marker, connections, stats;
6. last, when the token comes from the stack's own user pool, that user is deleted there
   (``IdentityProvider``); tokens of another issuer have no user here to delete.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from domino.service.clock import Clock
from domino.service.commands import GameCommands
from domino.service.devices import forget
from domino.service.errors import (
    AccountDeleted,
    GameNotFound,
    GameNotInProgress,
    NotAPlayer,
    NotInvited,
)
from domino.service.invitations import Invitations
from domino.service.live import LiveUpdates
from domino.service.ports import (
    AccountStore,
    DeviceStore,
    IdentityProvider,
    PushGateway,
    RatingStore,
)
from domino.service.quiet import QuietHours
from domino.service.values import LEAVE, Caller, ChangeName
from domino.store.accounts import Profile, ProfileDeleted

#: how many times a deletion looks for the games to leave (a second look finds a late one)
VACATE_LOOKS = 3


class Accounts:
    """``GET``, ``PATCH`` and ``DELETE /me``. ``clock`` is the wall clock whatever the games'
    clock is (dev mode moves that one on): a tombstone is compared with tokens' ``iat`` and
    expires by DynamoDB's TTL, both in real time."""

    def __init__(
        self,
        accounts: AccountStore,
        commands: GameCommands,
        devices: DeviceStore,
        push: PushGateway,
        identity: IdentityProvider | None = None,
        clock: Clock = time.time,
        live: LiveUpdates | None = None,
        ratings: RatingStore | None = None,
    ) -> None:
        self.accounts = accounts
        self.commands = commands
        self.devices = devices
        self.push = push
        self.identity = identity  # None: no user pool of our own (another issuer, dev mode)
        self.live = live  # to close the player's open sockets (None: no WebSocket API)
        self.clock = clock
        self.ratings = ratings  # the player's ratings leave the leaderboards with them

    def me(self, caller: Caller) -> dict[str, Any]:
        """``{"player", "name", "mute", "locale", "auto_forced", "quiet_hours"}``: the name the
        player chose, else the token's (as the tables show it: ``Player 1234`` for an offensive
        one), the types not pushed, the language chosen, whether forced moves are made for them
        and their quiet hours (``{"from", "to", "tz"}`` or null)."""
        profile = self._profile(caller)
        return self._answer(caller, profile.name if profile and profile.name else caller.name)

    def _profile(self, caller: Caller) -> Profile | None:
        """The caller's profile; ``AccountDeleted`` when it refuses their token."""
        profile = self.accounts.profile(caller.player)
        if profile is not None and profile.refuses(caller.issued_at):
            raise AccountDeleted()
        return profile

    def _answer(self, caller: Caller, name: str) -> dict[str, Any]:
        settings = self.accounts.notice_settings(caller.player)
        return {
            "player": caller.player,
            "name": name,
            "mute": list(settings.muted),
            "locale": settings.locale,
            "auto_forced": settings.auto_forced,
            "quiet_hours": quiet.json() if (quiet := QuietHours.decoded(settings.quiet)) else None,
        }

    def change_name(self, caller: Caller, command: ChangeName) -> dict[str, Any]:
        """``PATCH /me``: keep ``command.name`` as the caller's display name (seats they take
        from now on show it, and so do their leaderboard rows; seats taken before keep the name
        they were taken with), ``command.mute`` as the types not pushed to their devices and
        ``command.locale`` as their language, ``command.auto_forced``; any may be left out."""
        at = int(self.clock())
        profile = self._profile(caller)
        name = command.name
        if name is not None:
            try:
                self.accounts.set_name(caller.player, name, at, caller.issued_at)
            except ProfileDeleted:
                raise AccountDeleted() from None
            if self.ratings is not None:
                # after the profile: a match counted meanwhile reads the new name or fails
                # its version check against the renamed rating and reads again
                self.ratings.rename(caller.player, name)
        else:
            name = profile.name if profile is not None and profile.name else caller.name
        if command.mute is not None:
            self.accounts.set_muted(caller.player, command.mute, at)
        if command.locale is not None:
            self.accounts.set_locale(caller.player, command.locale or None, at)
        if command.auto_forced is not None:
            self.accounts.set_auto_forced(caller.player, command.auto_forced, at)
        if command.quiet_hours is not None:
            self.accounts.set_quiet_hours(caller.player, command.quiet_hours or None, at)
        return self._answer(caller, name)

    def delete(self, caller: Caller) -> None:
        """Delete the caller's account (the module's docstring says what goes, in what order)."""
        player = caller.player
        try:
            self.accounts.mark_deleted(player, int(self.clock()))
        except ProfileDeleted:  # banned meanwhile: the ban stands, and so does the account
            raise AccountDeleted() from None
        self.vacate(caller)
        for device in self.devices.of_player(player):
            forget(self.devices, self.push, device)  # a phone another account took stays theirs
        if self.ratings is not None:
            self.ratings.forget(player)
        self.accounts.erase(player)
        if self.identity is not None and caller.issuer == self.identity.issuer:
            self.identity.delete_user(caller.username or player)

    def vacate(self, caller: Caller) -> int:
        """Close the player's sockets and leave every game they are in as ``POST .../leave``
        does (steps 2 and 3 of a deletion, and what a ban does): returns how many games."""
        player = caller.player
        if self.live is not None:
            self.live.close_all(player)  # a socket admitted later is refused by the profile
        left = 0
        seen: set[str] = set()
        # a second look for a membership the first did not see: a game whose create passed
        # its alive check just before the tombstone, with its items landing just after the
        # first look (DynamoDB Local applies a transaction's items one at a time:
        # tests/integration/test_account_races.py caught one)
        for _ in range(VACATE_LOOKS):
            found = [g for g in self.accounts.game_ids(player) if g not in seen]
            if not found:
                break
            seen.update(found)
            for game_id in found:
                # gone (expired), finished (history stays), or left already: nothing to leave
                try:
                    self.commands.leave(caller, game_id, LEAVE, None)
                    left += 1
                except NotAPlayer:  # invited, not seated: the reserved seat is freed
                    with contextlib.suppress(GameNotFound, NotInvited):
                        Invitations(self.commands).decline(caller, game_id, LEAVE, None)
                except (GameNotFound, GameNotInProgress):
                    pass
        return left
