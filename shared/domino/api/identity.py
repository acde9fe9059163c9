"""Who is calling: the player id and display name from the JWT claims API Gateway verified."""

from __future__ import annotations

from typing import Any

from domino.api.errors import Unauthorized
from domino.limits import MAX_LOCALE, MAX_NAME, MAX_PLAYER_ID
from domino.service.values import Caller


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
    locale = claims.get("locale")
    return Caller(
        player=player,
        name=str(name).strip()[:MAX_NAME] or player,
        locale=locale[:MAX_LOCALE] if isinstance(locale, str) else None,
    )
