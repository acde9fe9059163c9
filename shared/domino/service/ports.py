"""What the use cases need from storage: ``GameStore``. ``domino.store.DynamoGameStore`` is the
DynamoDB one; tests also run the use cases on an in-memory one (tests/unit/memory_store.py)."""

from __future__ import annotations

from typing import Any, Protocol

from domino.store.records import GameRecord


class GameStore(Protocol):
    """Versioned games, their memberships, archived hands and the player-scoped listings.

    ``save`` writes only if the stored version is still ``expected``, else raises
    ``VersionConflict`` holding the record that won; a membership that exists already on
    ``join`` raises ``AlreadyMember``; a busy database raises ``Unavailable``.
    """

    def load(self, game_id: str) -> GameRecord | None: ...

    def create(self, record: GameRecord) -> None: ...

    def save(
        self,
        record: GameRecord,
        expected: int,
        *,
        join: str | None = None,
        unjoin: str | None = None,
    ) -> None: ...

    def archive_moves(
        self, game_id: str, hand_number: int, moves: list[dict[str, Any]]
    ) -> None: ...

    def archived_moves(self, game_id: str) -> list[dict[str, Any]]: ...

    def delete_satellites(self, game_id: str, players: list[str]) -> int: ...

    def open_games(self, limit: int, cursor: str | None) -> tuple[list[GameRecord], str | None]: ...

    def player_games(
        self, player: str, *, status: str | None, turn_mine: bool, limit: int, cursor: str | None
    ) -> tuple[list[GameRecord], str | None]: ...
