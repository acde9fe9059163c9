"""Bounds on what clients send, in one place: every layer (and the local runtime, which stands
in for API Gateway) reads them from here. A leaf module: it imports nothing."""

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
