"""Safety among strangers (docs/api.md): blocks and reports, and ``blocked_between``, the one
question every feature that brings two people together asks.

``Safety.blocked_between(a, b)`` is True when either of ``a`` and ``b`` blocks the other: one
strongly consistent BatchGetItem of two keys (``PLAYER#a / BLOCK#<b>`` and ``PLAYER#b /
BLOCK#<a>``), so a block made a moment ago is honoured. Quick match (never seat them at one
table), invitations and rematch (403 ``blocked``: raise ``domino.service.errors.Blocked``, whose
message names nobody) call it; emotes ask ``blockers_of`` (which of a table's players block the
sender: their sockets are not sent the sender's emotes). Blocking is silent: the blocked player
is told nothing, and no answer to them says who blocked whom.

A player blocks at most ``MAX_BLOCKS`` players (400 past it: lifting one makes room). A
report is kept once per reporter, player and reason within 24 hours (store/safety.py); reporting
a player no account has used is 404 (``SafetyStore.known``: nothing in their partition, or a
deleted account's tombstone).
"""

from __future__ import annotations

from typing import Any

from domino.engine.errors import InvalidInput
from domino.limits import MAX_BLOCKS, MAX_PLAYER_ID
from domino.service.clock import Clock, system_clock
from domino.service.errors import PlayerNotFound
from domino.service.ports import AccountStore, SafetyStore
from domino.service.values import Caller, Page, ReportPlayer
from domino.store.records import iso
from domino.store.safety import BlockLimit, Report, new_report_id


def check_player_id(player: str) -> str:
    """A ``{player}`` or ``{id}`` path parameter that can be a player id (400 naming
    ``player`` otherwise)."""
    if not player or len(player) > MAX_PLAYER_ID:
        raise InvalidInput("player is not a player id.")
    return player


class Safety:
    def __init__(
        self,
        store: SafetyStore,
        accounts: AccountStore | None = None,
        clock: Clock = system_clock,
    ) -> None:
        self.store = store
        self.accounts = accounts  # the blocked player's chosen name (None: their id)
        self.clock = clock

    # ------------------------------------------------------------------ what others ask

    def blocked_between(self, a: str, b: str) -> bool:
        """Whether ``a`` blocks ``b`` or ``b`` blocks ``a`` (one BatchGetItem)."""
        if a == b:
            return False
        return bool(self.store.blocks_among([(a, b), (b, a)]))

    def blockers_of(self, sender: str, players: list[str]) -> set[str]:
        """Those of ``players`` who block ``sender`` (one BatchGetItem for up to 100)."""
        others = [p for p in dict.fromkeys(players) if p != sender]
        return {blocker for blocker, _ in self.store.blocks_among([(p, sender) for p in others])}

    # ------------------------------------------------------------------ blocks

    def block(self, caller: Caller, player: str) -> None:
        """``PUT /me/blocks/{player}``: idempotent (blocking again keeps the first ``since``)."""
        check_player_id(player)
        if player == caller.player:
            raise InvalidInput("You cannot block yourself.")
        profile = self.accounts.profile(player) if self.accounts is not None else None
        name = profile.name if profile is not None and profile.name else player
        try:
            self.store.block(caller.player, player, name, int(self.clock()), MAX_BLOCKS)
        except BlockLimit:
            raise InvalidInput("You block at most {max} players.", max=MAX_BLOCKS) from None

    def unblock(self, caller: Caller, player: str) -> None:
        """``DELETE /me/blocks/{player}``: idempotent."""
        check_player_id(player)
        self.store.unblock(caller.player, player)

    def blocks(self, caller: Caller, limit: int, cursor: str | None) -> Page:
        """``GET /me/blocks``: a page of ``{"player", "name", "since"}``."""
        found, following = self.store.blocks(caller.player, limit, cursor)
        items: list[dict[str, Any]] = [
            {"player": b.player, "name": b.name, "since": iso(b.since)} for b in found
        ]
        return Page(items, following)

    # ------------------------------------------------------------------ reports

    def report(self, caller: Caller, player: str, command: ReportPlayer) -> None:
        """``POST /players/{id}/reports``: kept for the operator, once per reporter, player and
        reason within 24 hours (202 either way)."""
        check_player_id(player)
        if player == caller.player:
            raise InvalidInput("You cannot report yourself.")
        if not self.store.known(player):
            raise PlayerNotFound()
        note = command.note.strip() if command.note else None
        self.store.report(
            Report(
                id=new_report_id(),
                reporter=caller.player,
                player=player,
                reason=command.reason,
                at=int(self.clock()),
                game=command.game,
                note=note or None,
            )
        )
