"""Paging a player's games: one rule for every store (DynamoDB's and the tests' in-memory one)."""

from __future__ import annotations

from domino.store.cursors import encode_cursor, games_position
from domino.store.records import GameRecord, iso


def player_page(
    records: list[GameRecord],
    player: str,
    status: str | None,
    turn_mine: bool,
    limit: int,
    cursor: str | None,
    updated_after: str | None = None,
) -> tuple[list[GameRecord], str | None]:
    """``records`` (a player's games) filtered by ``status`` and, with ``turn_mine``, to those
    awaiting ``player``'s move; most recently updated first; the page after ``cursor`` and the
    cursor of the next one (None on the last)."""
    position = games_position(cursor, updated_after)
    rows = []
    for record in records:
        if status and record.status != status:
            continue
        # the index that found them is eventually consistent: the item read says whose turn
        if turn_mine and not (record.status == "playing" and record.turn_player == player):
            continue
        key = (iso(record.updated_at) or "", record.id)
        if updated_after is not None and key[0] <= updated_after:
            continue  # the same ISO form compares as text
        if position is None or key < (position["u"], position["i"]):
            rows.append((key, record))
    rows.sort(key=lambda row: row[0], reverse=True)
    page = rows[:limit]
    following = None
    if len(rows) > limit:
        (updated, game_id), _ = page[-1]
        following = encode_cursor({"u": updated, "i": game_id})
    return [record for _, record in page], following
