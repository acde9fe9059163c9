"""Verifying the identity provider's tokens ourselves, where API Gateway cannot: the WebSocket
API's $connect authorizer. The same checks as the HTTP API's JWT authorizer: a signature by one
of the issuer's keys (its JWKS, fetched once per container and cached by PyJWT), the issuer,
the audience (``aud``, or ``client_id`` for Cognito access tokens), the expiry."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import jwt

from domino.api.settings import settings
from domino.limits import MAX_LOCALE, MAX_NAME, MAX_PLAYER_ID

#: what the issuers we accept sign with
ALGORITHMS = ["RS256"]
LEEWAY_SECONDS = 30

#: a token -> the key that signed it (from the issuer's JWKS)
KeyResolver = Callable[[str], Any]


class Unauthorized(Exception):
    """API Gateway answers 401 to an authorizer that raises this message."""

    def __init__(self) -> None:
        super().__init__("Unauthorized")


@lru_cache(maxsize=1)
def jwks_keys() -> KeyResolver:
    config = settings()
    client = jwt.PyJWKClient(config.jwks_url, cache_keys=True, lifespan=3600, timeout=5)
    return lambda token: client.get_signing_key_from_jwt(token).key


def verify(token: str, issuer: str, audience: str, keys: KeyResolver) -> dict[str, Any]:
    """The token's claims, else ``Unauthorized``."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            keys(token),
            algorithms=ALGORITHMS,
            issuer=issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "sub"], "verify_aud": False},
        )
    except (jwt.PyJWTError, ValueError, KeyError):
        raise Unauthorized() from None
    audiences = claims.get("aud")
    audiences = [audiences] if isinstance(audiences, str) else audiences or []
    if audience not in audiences and claims.get("client_id") != audience:
        raise Unauthorized()
    subject = claims.get("sub")
    if not isinstance(subject, str) or not 0 < len(subject) <= MAX_PLAYER_ID:
        raise Unauthorized()
    return claims


def authorize(event: dict[str, Any], keys: KeyResolver | None = None) -> dict[str, Any]:
    """A REQUEST authorizer's answer for ``?token=<JWT>``: allow, with the caller as context
    (every later event of the connection carries it)."""
    token = (event.get("queryStringParameters") or {}).get("token")
    if not isinstance(token, str) or not token or len(token) > 8192:
        raise Unauthorized()
    config = settings()
    claims = verify(token, config.jwt_issuer, config.jwt_audience, keys or jwks_keys())
    subject = claims["sub"]
    name = claims.get("name") or claims.get("preferred_username") or subject
    context = {"sub": subject, "name": str(name)[:MAX_NAME]}
    # when the token was issued and expires: $connect refuses a deleted account's token, and
    # the socket is closed once the token expires (docs/SECURITY.md)
    for claim in ("iat", "exp"):
        if isinstance(claims.get(claim), int | float) and not isinstance(claims[claim], bool):
            context[claim] = str(int(claims[claim]))
    locale = claims.get("locale")
    if isinstance(locale, str) and locale:
        context["locale"] = locale[:MAX_LOCALE]
    return {
        "principalId": subject,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [
                {"Action": "execute-api:Invoke", "Effect": "Allow", "Resource": event["methodArn"]}
            ],
        },
        "context": context,
    }
