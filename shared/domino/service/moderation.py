"""The operator's actions on players (``domino-admin``, with AWS credentials; no HTTP route
reaches them, docs/api.md "Safety among strangers"): read the reports of a day, rename a
player whose name slipped past the filter, ban and unban.

A ban, in an order a rerun resumes (banning twice is banning once):

1. the profile is marked ``banned``: from now on every request with any of the player's tokens
   is 401 (``domino.api.request.caller`` reads the mark), and a join, a create or a socket
   racing the ban checks it in its own transaction (``store.accounts.alive_since``);
2. their searching ticket is cancelled (quick match never seats them);
3. their sockets are closed and every game they sit in is left as ``POST .../leave`` leaves it
   (a bot takes a seat in play, a seat before the deal is freed, an invitation is declined):
   the other players' games go on.

Ratings, stats and reports stay (the player is not deleted: ``unban`` gives the account back).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import NamedTuple

from domino.engine.errors import InvalidInput
from domino.limits import MAX_NAME, display_name
from domino.service.accounts import Accounts
from domino.service.clock import Clock, system_clock
from domino.service.errors import PlayerNotFound
from domino.service.names import offensive
from domino.service.ports import RatingStore, SafetyStore
from domino.service.safety import check_player_id
from domino.service.values import Caller
from domino.store.accounts import ProfileDeleted
from domino.store.safety import Report

#: the longest reason kept with a ban (the operator's note to themselves)
MAX_BAN_REASON = 500


class Banned(NamedTuple):
    """What a ban did: the games left (a bot in the seat, or the seat freed) and whether a
    searching ticket was cancelled."""

    player: str
    games_left: int
    ticket_cancelled: bool


class Moderation:
    def __init__(
        self,
        accounts: Accounts,
        safety: SafetyStore,
        ratings: RatingStore | None = None,
        cancel_search: Callable[[str], bool] = lambda _player: False,
        clock: Clock = system_clock,
    ) -> None:
        self.accounts = accounts
        self.safety = safety
        self.ratings = ratings  # renamed with the profile, as PATCH /me does
        self.cancel_search = cancel_search  # the player's searching ticket (True: one was)
        self.clock = clock

    def reports(self, day: datetime.date) -> list[Report]:
        """Every report made on ``day`` (UTC), oldest first."""
        return self.safety.reports_of_day(day.isoformat())

    def rename(self, player: str, name: str) -> str:
        """Set ``player``'s display name (their next seats and leaderboard rows show it); the
        name is held to the same rules as ``PATCH /me``'s. Returns it as kept."""
        check_player_id(player)
        shown = display_name(name)
        if shown is None or len(shown) > MAX_NAME or offensive(shown):
            raise InvalidInput("name is not a name that can be shown.")
        if self.accounts.accounts.profile(player) is None and not self.safety.known(player):
            raise PlayerNotFound()
        try:
            self.accounts.accounts.rename(player, shown, int(self.clock()))
        except ProfileDeleted:  # deleted meanwhile: no such player any more
            raise PlayerNotFound() from None
        if self.ratings is not None:
            self.ratings.rename(player, shown)
        return shown

    def ban(self, player: str, reason: str) -> Banned:
        check_player_id(player)
        if len(reason) > MAX_BAN_REASON:
            raise InvalidInput("reason is at most {max} characters.", max=MAX_BAN_REASON)
        profile = self.accounts.accounts.profile(player)
        if profile is None and not self.safety.known(player):
            raise PlayerNotFound()
        at = int(self.clock())
        self.accounts.accounts.ban(player, at, reason)
        cancelled = self.cancel_search(player)
        name = profile.name if profile is not None and profile.name else player
        left = self.accounts.vacate(Caller(player=player, name=name))
        return Banned(player, left, cancelled)

    def unban(self, player: str) -> bool:
        """Lift the ban (False: there was none). The games left stay left."""
        return self.accounts.accounts.unban(check_player_id(player))
