"""Bounds on what clients send, in one place: every layer (and the local runtime, which stands
in for API Gateway) reads them from here. A leaf module: it imports nothing of ours."""

import re
import unicodedata

#: request bodies (docs/api.md#errors: over 16 KiB is 413 payload_too_large)
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
#: a device id the app chooses (an installation id): 1-128 letters, digits and _ . : -, but
#: not the dot segments ``.`` and ``..`` (a client that normalises them would send
#: DELETE /me/devices/.. as DELETE /me)
DEVICE_ID = re.compile(r"(?!\.\.?\Z)[A-Za-z0-9_.:-]{1,128}")
#: devices one player keeps registered: each notification is pushed to every one of them, so
#: the bound caps what one player's notification costs (a new one replaces the stalest)
MAX_DEVICES = 10
#: a report's note for the operator (docs/api.md: at most 500 characters)
MAX_NOTE = 500
#: players one player blocks at most: each block is an item of the blocker's partition, and a
#: quick match or an invitation reads the blocks between two people (never the whole list)
MAX_BLOCKS = 1000
#: WebSocket connections one player keeps open: every change is posted to each (a new one
#: closes the oldest)
MAX_SOCKETS = 10
#: the sockets that may watch one game, and the games one socket may watch (docs/api.md
#: "Watching"): a change of a watched game is posted to each of its watchers
MAX_WATCHERS = 100
MAX_WATCHED = 10

#: embedding, override and isolate controls: they reorder how the text around them displays
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: the direction marks (LRM, RLM): harmless inside a name, never part of a locale
BIDI_MARKS = frozenset("\u200e\u200f")
#: Unicode categories a display name never holds: control characters (C0, C1, DEL), lone
#: surrogates, line and paragraph separators
HIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
#: categories of characters that show nothing by themselves: those above, format characters
#: (U+200B, U+2060, U+FEFF, tag characters), unassigned code points, spaces, combining marks
#: (variation selectors among them) and enclosing marks
BLANK_CATEGORIES = HIDDEN_CATEGORIES | {"Cf", "Cn", "Zs", "Mn", "Me"}
#: letters and symbols drawn as empty space: the Hangul fillers and the braille blank
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: a locale as BCP 47 shapes it (``es``, ``en-GB``, ``zh-Hant-TW``; ``en_GB`` as phones write
#: it): ASCII letters, then subtags of letters and digits, at most MAX_LOCALE characters
LOCALE_TAG = r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*"
_LOCALE = re.compile(LOCALE_TAG)


def hidden(char: str) -> bool:
    """Whether ``char`` changes how the names around it display (a control character, a line
    or paragraph separator, a lone surrogate, a bidi embedding, override or isolate)."""
    return unicodedata.category(char) in HIDDEN_CATEGORIES or char in BIDI_CONTROLS


def visible(char: str) -> bool:
    """Whether ``char`` shows something by itself (a space or a mark alone does not)."""
    return unicodedata.category(char) not in BLANK_CATEGORIES and char not in FILLERS


def display_name(text: str, *, leave_out: bool = False) -> str | None:
    """``text`` as it is shown beside other players' names (trimmed), or None when it cannot
    be a name: the one rule for every name (a join's, a new game's, ``PATCH /me``'s, a dev
    token's, a token's claims).

    None for a name holding a ``hidden`` character, and for one with no ``visible`` character
    at all (only spaces, ``\u200b``, ``\u2060``, ``\ufeff``, tag characters, variation
    selectors, combining marks alone, Hangul fillers, the braille blank), which would show an
    empty seat. ``leave_out`` (a name an identity provider holds, which nobody can correct
    here) takes the hidden characters out instead and keeps MAX_NAME characters; length is
    otherwise the caller's check."""
    if leave_out:
        text = "".join(char for char in text if not hidden(char)).strip()[:MAX_NAME]
    elif any(hidden(char) for char in text):
        return None
    shown = text.strip()
    return shown if any(visible(char) for char in shown) else None


def locale_tag(text: str) -> bool:
    """Whether ``text`` is a locale as BCP 47 shapes it, within MAX_LOCALE characters."""
    return len(text) <= MAX_LOCALE and _LOCALE.fullmatch(text) is not None
