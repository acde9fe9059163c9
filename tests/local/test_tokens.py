"""Dev tokens: what the local runtime's stand-in for the JWT authorizer accepts and refuses."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import pytest

from local import tokens

SECRET = b"k" * 32


def claims(**changes: Any) -> dict[str, Any]:
    """Valid claims for now, with ``changes`` (a value of ``...`` removes that claim)."""
    now = int(time.time())
    base: dict[str, Any] = {
        "sub": "alice",
        "iss": tokens.ISSUER,
        "aud": tokens.AUDIENCE,
        "iat": now,
        "exp": now + 3600,
    }
    base.update(changes)
    return {key: value for key, value in base.items() if value is not ...}


def b64(data: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def sign(payload: dict[str, Any], key: bytes = SECRET, algorithm: str = "HS256") -> str:
    """A token signed by hand (PyJWT's encode refuses some of the payloads tested here)."""
    digest = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}
    signing_input = f"{b64({'alg': algorithm, 'typ': 'JWT'})}.{b64(payload)}"
    mac = hmac.new(key, signing_input.encode(), digest[algorithm]).digest()
    return f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def refused(token: str, match: str | None = None) -> None:
    with pytest.raises(tokens.TokenError, match=match):
        tokens.verify(SECRET, f"Bearer {token}")


def test_round_trip_gives_the_claims() -> None:
    token = tokens.issue(SECRET, "alice", "Alice")
    got = tokens.verify(SECRET, f"Bearer {token}")
    assert (got["sub"], got["name"], got["iss"], got["aud"]) == (
        "alice",
        "Alice",
        tokens.ISSUER,
        tokens.AUDIENCE,
    )
    assert got["exp"] - got["iat"] == tokens.LIFETIME_SECONDS
    assert jwt.get_unverified_header(token)["alg"] == "HS256"


def test_a_token_made_elsewhere_with_the_same_key_and_claims_is_accepted() -> None:
    assert tokens.verify(SECRET, f"Bearer {sign(claims())}")["sub"] == "alice"
    assert tokens.verify(SECRET, f"Bearer {jwt.encode(claims(), SECRET)}")["sub"] == "alice"


@pytest.mark.parametrize("header", [None, "", "Bearer", "Bearer ", "Basic abc", "Token x.y.z"])
def test_a_missing_token_or_another_scheme_is_refused(header: str | None) -> None:
    with pytest.raises(tokens.TokenError):
        tokens.verify(SECRET, header)


def test_an_expired_token_is_refused() -> None:
    token = tokens.issue(SECRET, "alice", now=time.time() - tokens.LIFETIME_SECONDS - 60)
    refused(token, "expired")
    refused(sign(claims(exp=int(time.time()) - tokens.LEEWAY_SECONDS - 5)), "expired")


@pytest.mark.parametrize("claim", tokens.REQUIRED_CLAIMS)
def test_each_required_claim_missing_or_null_is_refused(claim: str) -> None:
    refused(sign(claims(**{claim: ...})), claim)
    refused(sign(claims(**{claim: None})), claim)


def test_exp_null_is_refused() -> None:
    refused(sign(claims(exp=None)), "'exp'")


@pytest.mark.parametrize("exp", ["9999999999", "soon", 9999999999.5, True, [9999999999], {}])
def test_exp_that_is_not_an_integer_is_refused(exp: Any) -> None:
    refused(sign(claims(exp=exp)))


@pytest.mark.parametrize("claim", ["iat", "nbf"])
def test_iat_and_nbf_that_are_not_integers_are_refused(claim: str) -> None:
    refused(sign(claims(**{claim: str(int(time.time()))})), claim)


def test_a_future_nbf_is_refused_past_the_leeway() -> None:
    now = int(time.time())
    refused(sign(claims(nbf=now + tokens.LEEWAY_SECONDS + 60)), "not valid yet")
    assert tokens.verify(SECRET, f"Bearer {sign(claims(nbf=now + 5))}")  # clock skew
    assert tokens.verify(SECRET, f"Bearer {sign(claims(nbf=now - 5))}")


def test_a_future_iat_is_refused_past_the_leeway() -> None:
    now = int(time.time())
    refused(sign(claims(iat=now + tokens.LEEWAY_SECONDS + 60)), "not valid yet")
    assert tokens.verify(SECRET, f"Bearer {sign(claims(iat=now + 5))}")


def test_alg_none_is_refused() -> None:
    unsigned = f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(claims())}."
    refused(unsigned, "another algorithm")
    refused(unsigned + "x")


def test_hs512_with_the_same_key_is_refused() -> None:
    refused(sign(claims(), algorithm="HS512"), "another algorithm")
    refused(sign(claims(), algorithm="HS384"), "another algorithm")


def test_a_tampered_payload_is_refused() -> None:
    header, _, signature = tokens.issue(SECRET, "alice").split(".")
    forged = b64(claims(sub="mallory"))
    refused(f"{header}.{forged}.{signature}", "signature")


def test_a_tampered_signature_or_another_key_is_refused() -> None:
    token = tokens.issue(SECRET, "alice")
    head, _, signature = token.rpartition(".")
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    refused(f"{head}.{flipped}", "signature")
    refused(f"{head}.", "signature")
    refused(sign(claims(), key=b"other" * 8), "signature")


@pytest.mark.parametrize("token", ["garbage", "x.y.z", "a.b", "..", "e30.e30.e30"])
def test_malformed_tokens_are_refused(token: str) -> None:
    refused(token)


@pytest.mark.parametrize("sub", [123, ["alice"], {"id": "alice"}, True, ""])
def test_a_subject_that_is_not_a_non_empty_string_is_refused(sub: Any) -> None:
    refused(sign(claims(sub=sub)), "sub")


def test_a_subject_over_255_characters_is_refused() -> None:
    refused(sign(claims(sub="a" * 256)), "subject")
    assert tokens.verify(SECRET, f"Bearer {sign(claims(sub='a' * 255))}")["sub"] == "a" * 255


@pytest.mark.parametrize(
    "changes",
    [{"iss": "someone-else"}, {"aud": "another-app"}, {"aud": ["another-app"]}, {"iss": 7}],
)
def test_another_issuer_or_audience_is_refused(changes: dict[str, Any]) -> None:
    refused(sign(claims(**changes)))


def test_an_audience_list_holding_ours_is_accepted() -> None:
    token = sign(claims(aud=["another-app", tokens.AUDIENCE]))
    assert tokens.verify(SECRET, f"Bearer {token}")["sub"] == "alice"


# ------------------------------------------------------------------------ POST /dev/token


@pytest.mark.parametrize(
    "player", ["alice\n", "alice\r\n", "\nalice", "a b", "", "a" * 65, "ålice", 7, None]
)
def test_dev_token_refuses_a_bad_player_id(player: Any) -> None:
    with pytest.raises(tokens.TokenRequestError):
        tokens.issue(SECRET, player)


@pytest.mark.parametrize(
    "name",
    [
        "Alice\n",
        "Al\x00ice",
        "Al\x1bice",
        "Al\x7fice",
        "Al\x85ice",
        "Alice\u2028",
        "\u202eecilA",  # right-to-left override
        "Alice\u202a",
        "Alice\u202c",
        "\u2066Alice\u2069",  # isolates
        "\u2067Alice",
        "\u2068Alice",
        "",
        "   ",
        "n" * 41,
        7,
        # names that display as nothing (issue 20): one rule with every other name
        "\u200b",
        "\u2060\ufeff",
        "\u3164",  # Hangul filler
        "\u2800",  # braille blank
        "\U000e0041\U000e0042",  # tag characters
        "\ufe0f\u0301",  # a variation selector, a combining mark alone
    ],
)
def test_dev_token_refuses_a_bad_name(name: Any) -> None:
    with pytest.raises(tokens.TokenRequestError):
        tokens.issue(SECRET, "alice", name)


@pytest.mark.parametrize("name", ["Alice", "Zoë Ñúñez", "李雷", "Ali 🎲", "👩\u200d👩\u200d👧"])
def test_dev_token_accepts_names_people_have(name: str) -> None:
    token = tokens.issue(SECRET, "alice", name)
    assert tokens.verify(SECRET, f"Bearer {token}")["name"] == name


def test_claims_are_strings_as_api_gateway_gives_them() -> None:
    claims = tokens.as_gateway_claims({"sub": "a", "iat": 5, "flag": True})
    assert claims == {"sub": "a", "iat": "5", "flag": "true"}


def test_secret_is_kept_across_restarts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    first = tokens.load_secret(tmp_path / "secret")
    assert tokens.load_secret(tmp_path / "secret") == first
    assert len(first) == 32


def test_each_checkout_signs_with_its_own_key_only_its_owner_reads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A dev token leaked from one checkout is worth nothing to another one (nor deployed:
    API Gateway trusts only the stack's issuer), and the key is the owner's file alone."""
    mine = tokens.load_secret(tmp_path / "a" / "secret")
    theirs = tokens.load_secret(tmp_path / "b" / "secret")
    assert mine != theirs
    assert (tmp_path / "a" / "secret").stat().st_mode & 0o777 == 0o600
    with pytest.raises(tokens.TokenError):
        tokens.verify(theirs, f"Bearer {tokens.issue(mine, 'alice')}")
