"""Dev tokens: HS256 JWTs that the local runtime signs and verifies itself, with PyJWT.

Deployed, API Gateway's JWT authorizer verifies the identity provider's tokens; locally this
module stands in for it and hands the handlers the same claims. What it accepts:

- the signature: HS256 with the runtime's key, and no other algorithm (not ``none``, not
  HS512 with the same key): PyJWT checks the header's ``alg`` against the one allowed;
- the claims ``exp``, ``iat``, ``iss``, ``aud`` and ``sub``, all required; ``iss`` and ``aud``
  this runtime's; ``exp``, ``iat`` and ``nbf`` (when present) integers, not expired and not in
  the future, give or take ``LEEWAY_SECONDS`` of clock skew;
- ``sub``: a string of 1 to ``MAX_PLAYER_ID`` characters (a player id as the handlers take it).

Anything else raises TokenError, which the runtime answers with 401 ``unauthorized``.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path
from typing import Any

import jwt
from domino.limits import MAX_LOCALE, MAX_NAME, MAX_PLAYER_ID, display_name, hidden, locale_tag

from local.paths import local_dir

ISSUER = "domino-local"
AUDIENCE = "domino-local"
ALGORITHM = "HS256"
LIFETIME_SECONDS = 7 * 24 * 3600
LEEWAY_SECONDS = 30  # clock skew allowed on exp, iat and nbf
REQUIRED_CLAIMS = ("exp", "iat", "iss", "aud", "sub")
TIME_CLAIMS = ("exp", "iat", "nbf")
PLAYER_ID = re.compile(r"[A-Za-z0-9_.@:-]{1,64}")  # used with fullmatch: no trailing newline


class TokenError(ValueError):
    """The token is missing, malformed, badly signed, expired or not for this runtime."""


class TokenRequestError(ValueError):
    """The body of POST /dev/token is not acceptable: ``template`` and ``params`` make the
    message (api/messages.py translates the template)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params


def load_secret(path: Path | None = None) -> bytes:
    """The signing key, kept under .local so tokens survive a restart of ``make run``."""
    path = path or local_dir() / "dev-token-secret"
    if path.exists():
        return bytes.fromhex(path.read_text().strip())
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    path.write_text(key.hex())
    path.chmod(0o600)
    return key


def issue(
    secret: bytes, player: Any, name: Any = None, now: float | None = None, locale: Any = None
) -> str:
    """A token for ``player`` (and a display ``name``, and a ``locale`` claim as an identity
    provider may give one: the language of last resort), valid for ``LIFETIME_SECONDS``."""
    if not isinstance(player, str) or not PLAYER_ID.fullmatch(player):
        raise TokenRequestError("player must be 1-64 letters, digits or _ . @ : -")
    if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME):
        raise TokenRequestError("name must be 1 to {max} characters.", max=MAX_NAME)
    if name is not None and display_name(name) is None:  # the rule of every name
        if any(hidden(char) for char in name):
            raise TokenRequestError(
                "name must not hold control characters or direction overrides.", fields=["name"]
            )
        raise TokenRequestError("name must show at least one visible character.", fields=["name"])
    if locale is not None and (not isinstance(locale, str) or not locale_tag(locale)):
        raise TokenRequestError(
            "locale must be a language tag (es, en-GB) of at most {max} characters.",
            max=MAX_LOCALE,
            fields=["locale"],
        )
    issued = int(now if now is not None else time.time())
    claims: dict[str, Any] = {
        "sub": player,
        "iss": ISSUER,
        "aud": AUDIENCE,
        "iat": issued,
        "exp": issued + LIFETIME_SECONDS,
        "token_use": "id",
    }
    if name:
        claims["name"] = name.strip()
    if locale is not None:
        claims["locale"] = locale
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def verify(secret: bytes, authorization: str | None) -> dict[str, Any]:
    """Claims of a valid ``Bearer`` token, else TokenError (the runtime answers 401)."""
    if not authorization:
        raise TokenError("missing Authorization header")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenError("Authorization must be 'Bearer <token>'")
    return verify_token(secret, token.strip())


def verify_token(secret: bytes, token: str) -> dict[str, Any]:
    """Claims of a valid token itself (a WebSocket's ``?token=``), else TokenError."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            audience=AUDIENCE,
            issuer=ISSUER,
            leeway=LEEWAY_SECONDS,
            options={"require": list(REQUIRED_CLAIMS), "enforce_minimum_key_length": True},
        )
    except jwt.ExpiredSignatureError as err:
        raise TokenError("token expired") from err
    except jwt.MissingRequiredClaimError as err:
        raise TokenError(f"token lacks the {err.claim!r} claim") from err
    except jwt.InvalidAlgorithmError as err:
        raise TokenError("token signed with another algorithm than HS256") from err
    except (jwt.InvalidIssuerError, jwt.InvalidAudienceError) as err:
        raise TokenError("token issued for another issuer or audience") from err
    except jwt.ImmatureSignatureError as err:
        raise TokenError("token not valid yet") from err
    except jwt.InvalidSignatureError as err:
        raise TokenError("bad token signature") from err
    except jwt.exceptions.InvalidSubjectError as err:
        raise TokenError(f"token subject must be a string of 1-{MAX_PLAYER_ID} characters") from err
    except (jwt.InvalidTokenError, TypeError, ValueError, OverflowError) as err:
        raise TokenError("malformed token") from err
    # PyJWT takes ``int(claim)``, so "123" or 1.5 would pass: a NumericDate here is an integer
    for claim in TIME_CLAIMS:
        value = claims.get(claim)
        if claim in claims and (not isinstance(value, int) or isinstance(value, bool)):
            raise TokenError(f"token claim {claim!r} is not an integer")
    subject = claims["sub"]
    if not isinstance(subject, str) or not 0 < len(subject) <= MAX_PLAYER_ID:
        raise TokenError(f"token subject must be a string of 1-{MAX_PLAYER_ID} characters")
    return claims


def as_gateway_claims(claims: dict[str, Any]) -> dict[str, str]:
    """API Gateway hands JWT claims to Lambda as strings; so do we."""
    return {
        key: value if isinstance(value, str) else json.dumps(value) for key, value in claims.items()
    }
