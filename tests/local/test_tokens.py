"""Dev tokens: what the local runtime's stand-in for the JWT authorizer accepts and refuses."""

from __future__ import annotations

import pytest

from local import tokens

SECRET = b"k" * 32


def test_round_trip_gives_the_claims() -> None:
    token = tokens.issue(SECRET, "alice", "Alice", now=1000)
    claims = tokens.verify(SECRET, f"Bearer {token}", now=1001)
    assert claims["sub"] == "alice"
    assert claims["name"] == "Alice"


def test_expired_wrong_key_and_wrong_scheme_are_refused() -> None:
    token = tokens.issue(SECRET, "alice", now=1000)
    with pytest.raises(tokens.TokenError, match="expired"):
        tokens.verify(SECRET, f"Bearer {token}", now=1000 + tokens.LIFETIME_SECONDS + 1)
    with pytest.raises(tokens.TokenError, match="signature"):
        tokens.verify(b"other" * 8, f"Bearer {token}", now=1001)
    with pytest.raises(tokens.TokenError):
        tokens.verify(SECRET, f"Basic {token}", now=1001)
    with pytest.raises(tokens.TokenError):
        tokens.verify(SECRET, None)


def test_claims_are_strings_as_api_gateway_gives_them() -> None:
    claims = tokens.as_gateway_claims({"sub": "a", "iat": 5, "flag": True})
    assert claims == {"sub": "a", "iat": "5", "flag": "true"}


def test_secret_is_kept_across_restarts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    first = tokens.load_secret(tmp_path / "secret")
    assert tokens.load_secret(tmp_path / "secret") == first
    assert len(first) == 32
