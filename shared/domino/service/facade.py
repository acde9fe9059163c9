"""Every use case on one store behind one object, ``GameService``: what the edge's wiring and
the tests build."""

from __future__ import annotations

from domino.engine import DEFAULT_BUDGET_MS
from domino.service.archive import HandArchive
from domino.service.clock import Clock, system_clock
from domino.service.commands import GameCommands
from domino.service.deadlines import Sweeper
from domino.service.history import MatchHistory
from domino.service.invitations import Invitations
from domino.service.ports import (
    AccountStore,
    GameStore,
    LiveGameStore,
    OpponentStore,
    ReplyStore,
)
from domino.service.premoves import PreMoves
from domino.service.queries import GameQueries
from domino.service.writes import PlaysForced


class GameService:
    """Every use case on one store: ``commands``, ``invitations``, ``queries``, ``archive``,
    ``sweeper`` and ``premoves``."""

    def __init__(
        self,
        store: GameStore,
        *,
        dev_mode: bool,
        clock: Clock = system_clock,
        accounts: AccountStore | None = None,
        replies: ReplyStore | None = None,
        bot_budget_ms: float = DEFAULT_BUDGET_MS,
        opponents: OpponentStore | None = None,
        live_games: LiveGameStore | None = None,
    ) -> None:
        self.store = store
        self.commands = GameCommands(
            store,
            dev_mode=dev_mode,
            clock=clock,
            accounts=accounts,
            replies=replies,
            bot_budget_ms=bot_budget_ms,
        )
        self.invitations = Invitations(self.commands)
        self.queries = GameQueries(store, opponents, live_games)
        self.history = MatchHistory(self.queries)
        self.archive = HandArchive(store, opponents, live_games)
        self.sweeper = Sweeper(store, clock, bot_budget_ms)
        self.premoves = PreMoves(store)
        if accounts is not None:  # the forced moves of players who asked (``PATCH /me``)
            plays_forced = _plays_forced(accounts)
            self.commands.writes.plays_forced = plays_forced
            self.sweeper.writes.plays_forced = plays_forced


def _plays_forced(accounts: AccountStore) -> PlaysForced:
    def plays_forced(player: str) -> bool:
        return accounts.notice_settings(player).auto_forced

    return plays_forced
