"""Opaque page cursors: the ``next`` of a list, read back when a client sends it as ``cursor``.

A cursor is the base64url of a small JSON object of strings (a listing's position). Reading
one checks that it is exactly the object this listing writes: anything else is 400.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from typing import Any

from domino.engine.errors import InvalidInput
from domino.limits import MAX_GAME_ID

#: longer than any cursor this API writes (the lists' query parameter allows 512)
MAX_CURSOR = 512
#: ``updated_at`` as the store writes it (records.iso): ASCII digits only
UPDATED_AT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
#: a game id as the service makes them (``secrets.token_urlsafe(16)``; older ids may be longer)
GAME_ID = re.compile(rf"[A-Za-z0-9_-]{{8,{MAX_GAME_ID}}}")
#: the position the game listings write: (updated_at, game id) of the page's last game
MINE_CURSOR: Mapping[str, re.Pattern[str]] = {"u": UPDATED_AT, "i": GAME_ID}
#: the position the list of games in play writes: the sort key of the page's last game
LIVE_CURSOR: Mapping[str, re.Pattern[str]] = {
    "s": re.compile(
        rf"[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}T[0-9]{{2}}:[0-9]{{2}}:[0-9]{{2}}Z#{GAME_ID.pattern}"
    )
}


class BadCursor(InvalidInput):
    """A ``cursor`` this API did not return."""

    def __init__(self) -> None:
        super().__init__("cursor is not one this API returned.")


def encode_cursor(position: dict[str, Any]) -> str:
    plain = {
        k: (int(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, float) else v)
        for k, v in position.items()
    }
    return base64.urlsafe_b64encode(json.dumps(plain, separators=(",", ":")).encode()).decode()


def decode_cursor(cursor: str, fields: Mapping[str, re.Pattern[str]]) -> dict[str, str]:
    """A ``next`` this API returned: an object of exactly ``fields``, each a string of the shape
    its pattern says (what the store writes there: never empty, bounded, ASCII digits), so that
    no forged position reaches a key condition."""
    value: Any = None
    if len(cursor) <= MAX_CURSOR:
        try:
            value = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        except (ValueError, RecursionError):  # binascii.Error is a ValueError
            value = None
    if (
        not isinstance(value, dict)
        or set(value) != set(fields)
        or not all(
            isinstance(value[name], str) and shape.fullmatch(value[name])
            for name, shape in fields.items()
        )
    ):
        raise BadCursor()
    return value


def games_position(cursor: str | None, updated_after: str | None = None) -> dict[str, str] | None:
    """A game listing's cursor read back (None without one). With ``updated_after`` (the
    listing's own lower bound, ``updated_at``'s form) the position lies above it, as every
    ``next`` of that listing does: one at or below it came from another query, and would turn
    the listing's key bounds upside down."""
    if not cursor:
        return None
    position = decode_cursor(cursor, MINE_CURSOR)
    if updated_after is not None and position["u"] <= updated_after:
        raise BadCursor()
    return position
