"""Who is calling: the player id and display name from the JWT claims API Gateway verified."""

from __future__ import annotations

from typing import Any

from domino.api.errors import Unauthorized
from domino.limits import MAX_PLAYER_ID, display_name, locale_tag
from domino.service.names import shown_name
from domino.service.values import Caller

#: the longest issuer URL or identity provider user name kept (Cognito's are far shorter)
MAX_CLAIM = 512


def caller_from_event(event: dict[str, Any]) -> Caller:
    """The authenticated caller; 401 when the authorizer put no usable subject in the event
    (an identity provider may send any ``sub``: one longer than a key holds is refused)."""
    claims = (((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt") or {}).get(
        "claims"
    ) or {}
    player = claims.get("sub")
    if not isinstance(player, str) or not player or len(player) > MAX_PLAYER_ID:
        raise Unauthorized()
    # a name the identity provider holds was typed by someone: what would not display as
    # written beside other names (control characters, bidi overrides) is left out, and a name
    # that shows nothing (only spaces, U+200B, fillers...) is no name: the next one is used
    shown = None
    for claim in ("name", "preferred_username"):
        value = claims.get(claim)
        if value and (shown := display_name(str(value), leave_out=True)):
            break
    locale = claims.get("locale")
    return Caller(
        player=player,
        # a name nobody can correct here that fails the word filter shows as "Player 1234"
        name=shown_name(player, shown or player),
        locale=locale if isinstance(locale, str) and locale_tag(locale) else None,
        issuer=_text(claims.get("iss")),
        issued_at=_seconds(claims.get("iat")),
        username=_text(claims.get("cognito:username")),
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= MAX_CLAIM else None


def _seconds(value: Any) -> int | None:
    """A time claim (API Gateway hands every claim over as a string)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    return None
