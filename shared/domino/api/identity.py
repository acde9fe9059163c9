"""Who is calling: the player id and display name from the JWT claims API Gateway verified."""

from __future__ import annotations

from typing import Any

from domino.api.errors import Unauthorized
from domino.limits import MAX_LOCALE, MAX_NAME, MAX_PLAYER_ID, displayable
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
    name = claims.get("name") or claims.get("preferred_username") or player
    # a name the identity provider holds was typed by someone: what would not display as
    # written beside other names (control characters, bidi overrides) is left out
    shown = "".join(char for char in str(name) if displayable(char)).strip()[:MAX_NAME]
    locale = claims.get("locale")
    return Caller(
        player=player,
        name=shown or player,
        locale=locale[:MAX_LOCALE] if isinstance(locale, str) else None,
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
