"""Dev tokens: HS256 JWTs that the local runtime signs and verifies itself.

Deployed, API Gateway's JWT authorizer verifies the identity provider's tokens; locally this
module stands in for it and hands the handlers the same claims.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from pathlib import Path
from typing import Any

from local.paths import local_dir

ISSUER = "domino-local"
AUDIENCE = "domino-local"
LIFETIME_SECONDS = 7 * 24 * 3600
PLAYER_ID = re.compile(r"^[A-Za-z0-9_.@:-]{1,64}$")
MAX_NAME = 40


class TokenError(ValueError):
    """The token is missing, malformed, badly signed or expired."""


class TokenRequestError(ValueError):
    """The body of POST /dev/token is not acceptable."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


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


def issue(secret: bytes, player: Any, name: Any = None, now: float | None = None) -> str:
    if not isinstance(player, str) or not PLAYER_ID.match(player):
        raise TokenRequestError("player must be 1-64 characters of letters, digits and _ . @ : -")
    if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME):
        raise TokenRequestError(f"name must be a non-empty string of at most {MAX_NAME} characters")
    issued = int(now if now is not None else time.time())
    claims = {
        "sub": player,
        "iss": ISSUER,
        "aud": AUDIENCE,
        "iat": issued,
        "exp": issued + LIFETIME_SECONDS,
        "token_use": "id",
    }
    if name:
        claims["name"] = name.strip()
    header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
    signature = hmac.new(secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{_b64(signature)}"


def verify(secret: bytes, authorization: str | None, now: float | None = None) -> dict[str, Any]:
    """Claims of a valid ``Bearer`` token, else TokenError (the runtime answers 401)."""
    if not authorization:
        raise TokenError("missing Authorization header")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise TokenError("Authorization must be 'Bearer <token>'")
    parts = token.strip().split(".")
    if len(parts) != 3:
        raise TokenError("malformed token")
    expected = hmac.new(secret, f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest()
    try:
        signature = _unb64(parts[2])
        header = json.loads(_unb64(parts[0]))
        claims = json.loads(_unb64(parts[1]))
    except (ValueError, UnicodeDecodeError) as err:
        raise TokenError("malformed token") from err
    if header.get("alg") != "HS256" or not hmac.compare_digest(signature, expected):
        raise TokenError("bad token signature")
    if not isinstance(claims, dict) or claims.get("iss") != ISSUER or claims.get("aud") != AUDIENCE:
        raise TokenError("token issued for another audience")
    if int(claims.get("exp", 0)) < (now if now is not None else time.time()):
        raise TokenError("token expired")
    return claims


def as_gateway_claims(claims: dict[str, Any]) -> dict[str, str]:
    """API Gateway hands JWT claims to Lambda as strings; so do we."""
    return {
        key: value if isinstance(value, str) else json.dumps(value) for key, value in claims.items()
    }
