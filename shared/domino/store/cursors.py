"""Opaque page cursors: the ``next`` of a list, read back when a client sends it as ``cursor``.

A cursor is the base64url of a small JSON object of strings (a listing's position). Reading
one checks that it is exactly the object this listing writes: anything else is 400.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from domino.engine.errors import InvalidInput

#: longer than any cursor this API writes (the lists' query parameter allows 512)
MAX_CURSOR = 512
#: the position the game listings write: (updated_at, game id) of the page's last game
MINE_CURSOR = ("u", "i")


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


def decode_cursor(cursor: str, fields: tuple[str, ...]) -> dict[str, str]:
    """A ``next`` this API returned: an object of exactly ``fields``, every one a string."""
    value: Any = None
    if len(cursor) <= MAX_CURSOR:
        try:
            value = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        except (ValueError, RecursionError):  # binascii.Error is a ValueError
            value = None
    if (
        not isinstance(value, dict)
        or set(value) != set(fields)
        or not all(isinstance(v, str) for v in value.values())
    ):
        raise BadCursor()
    return value
