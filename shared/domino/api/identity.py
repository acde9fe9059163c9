"""Who is calling: the player id and display name from the JWT claims API Gateway verified."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domino.api.errors import ApiError

MAX_NAME = 40


@dataclass(frozen=True)
class Caller:
    player: str  # the token's sub
    name: str  # name, else preferred_username, else the id


def caller_from_event(event: dict[str, Any]) -> Caller:
    """The authenticated caller; 401 when the authorizer put no subject in the event."""
    claims = (((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt") or {}).get(
        "claims"
    ) or {}
    player = claims.get("sub")
    if not isinstance(player, str) or not player:
        raise ApiError("unauthorized", "A valid bearer token is required.")
    name = claims.get("name") or claims.get("preferred_username") or player
    return Caller(player=player, name=str(name).strip()[:MAX_NAME] or player)
