"""Bounds on what clients send, in one place: every layer (and the local runtime, which stands
in for API Gateway) reads them from here. A leaf module: it imports nothing of ours."""

import unicodedata

#: request bodies (API.md: over 16 KiB is 413 payload_too_large)
MAX_BODY_BYTES = 16 * 1024
#: a display name, in a token or a request
MAX_NAME = 40
#: a player id (a token's ``sub``): it becomes part of DynamoDB keys, which hold 2,048 bytes of
#: partition key and 1,024 of sort key; 255 characters of UTF-8 (4 bytes at most) fit both
MAX_PLAYER_ID = 255
#: a locale (``es``, ``en-GB``, ``zh-Hant-TW``: BCP 47 tags people use are short)
MAX_LOCALE = 35
#: a game id (``secrets.token_urlsafe(16)`` is 22 characters; the bound leaves room)
MAX_GAME_ID = 64
#: devices one player keeps registered: each notification is pushed to every one of them, so
#: the bound caps what one player's notification costs (a new one replaces the stalest)
MAX_DEVICES = 10
#: WebSocket connections one player keeps open: every change is posted to each (a new one
#: closes the oldest)
MAX_SOCKETS = 10

#: embedding, override and isolate controls: they reorder how the text around them displays
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Unicode categories a display name never holds: control characters (C0, C1, DEL), line and
#: paragraph separators
HIDDEN_CATEGORIES = ("Cc", "Zl", "Zp")


def displayable(name: str) -> bool:
    """Whether ``name`` shows as written beside other players' names: no control characters,
    line or paragraph separators, nor bidi controls (emoji joiners and the like are fine)."""
    return not any(
        unicodedata.category(char) in HIDDEN_CATEGORIES or char in BIDI_CONTROLS for char in name
    )
