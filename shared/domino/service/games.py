"""Every use case on one store."""

from __future__ import annotations

from domino.service.archive import HandArchive
from domino.service.commands import GameCommands
from domino.service.ports import GameStore
from domino.service.queries import GameQueries


class GameService:
    """Every use case on one store: ``commands``, ``queries`` and ``archive``."""

    def __init__(self, store: GameStore, *, dev_mode: bool) -> None:
        self.store = store
        self.commands = GameCommands(store, dev_mode=dev_mode)
        self.queries = GameQueries(store)
        self.archive = HandArchive(store)
