"""Hosted sign-in for a deployed stack: Cognito's authorization code flow with PKCE, as native
apps do it (RFC 8252). The browser is sent to the hosted sign-in page, its answer is caught on
a loopback address (``http://localhost:PORT/callback``, which the stack's ``CallbackUrls``
must list), and the code is exchanged for tokens: the ID token is the bearer token the API's
authorizer accepts, and the refresh token renews it when it is about to expire.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

DEFAULT_PORT = 8765
SCOPES = "openid email profile"
#: renew an ID token this long before it expires
RENEW_BEFORE_SECONDS = 60


class SignInFailed(Exception):
    """The hosted sign-in did not give us tokens (the message says why)."""


@dataclass(frozen=True)
class Hosted:
    """The stack's hosted sign-in: its domain (``https://<prefix>.auth.<region>.amazoncognito
    .com``) and the apps' client id (both in the stack's outputs)."""

    domain: str
    client_id: str

    def endpoint(self, path: str) -> str:
        return self.domain.rstrip("/") + path


@dataclass(frozen=True)
class Tokens:
    id_token: str
    refresh_token: str | None


def pkce_pair() -> tuple[str, str]:
    """A code verifier and its S256 challenge (RFC 7636), base64url without padding."""
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize_url(hosted: Hosted, redirect_uri: str, challenge: str, state: str) -> str:
    query = {
        "response_type": "code",
        "client_id": hosted.client_id,
        "redirect_uri": redirect_uri,
        "scope": SCOPES,
        "state": state,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    return hosted.endpoint("/oauth2/authorize") + "?" + urlencode(query)


class _Callback(http.server.BaseHTTPRequestHandler):
    """The one request the browser makes back: ``/callback?code=…&state=…`` (or ``error``)."""

    answer: dict[str, list[str]] | None = None
    arrived = threading.Event()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path != "/callback":
            self.send_error(404)
            return
        type(self).answer = parse_qs(parts.query)
        page = b"<!doctype html><p>Signed in: you may close this window.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)
        type(self).arrived.set()

    def log_message(self, *_args: Any) -> None:  # the code is in the request line
        pass


def post_form(url: str, fields: dict[str, str]) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=urlencode(fields).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            parsed: dict[str, Any] = json.loads(response.read())
            return parsed
    except urllib.error.HTTPError as error:
        try:
            reason = json.loads(error.read()).get("error", "")
        except ValueError:
            reason = ""
        raise SignInFailed(f"the token endpoint answered {error.code} {reason}".strip()) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise SignInFailed(f"the token endpoint could not be reached: {error}") from None


def sign_in(
    hosted: Hosted,
    open_browser: Callable[[str], Any],
    port: int = DEFAULT_PORT,
    timeout: float = 300.0,
) -> Tokens:
    """Send the person to the hosted page (``open_browser(url)``) and return their tokens."""
    redirect_uri = f"http://localhost:{port}/callback"
    verifier, challenge = pkce_pair()
    state = secrets.token_urlsafe(16)

    class Callback(_Callback):
        answer = None
        arrived = threading.Event()

    try:
        server = http.server.HTTPServer(("127.0.0.1", port), Callback)
    except OSError as error:
        raise SignInFailed(f"port {port} is busy ({error}): pass another with --port") from None
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        open_browser(authorize_url(hosted, redirect_uri, challenge, state))
        if not Callback.arrived.wait(timeout):
            raise SignInFailed(f"no answer from the browser within {timeout:.0f} s")
    finally:
        server.shutdown()
        server.server_close()
    answer: dict[str, list[str]] = Callback.answer or {}
    if answer.get("state", [""])[0] != state:
        raise SignInFailed("the answer's state is not ours: sign in again")
    if "error" in answer:
        raise SignInFailed(f"the sign-in page answered {answer['error'][0]}")
    code = answer.get("code", [""])[0]
    if not code:
        raise SignInFailed("the sign-in page answered without a code")
    tokens = post_form(
        hosted.endpoint("/oauth2/token"),
        {
            "grant_type": "authorization_code",
            "client_id": hosted.client_id,
            "code": code,
            "redirect_uri": redirect_uri,
            "code_verifier": verifier,
        },
    )
    if "id_token" not in tokens:
        raise SignInFailed("the token endpoint gave no ID token")
    return Tokens(str(tokens["id_token"]), tokens.get("refresh_token"))


def renew(hosted: Hosted, refresh_token: str) -> str:
    """A new ID token from the refresh token."""
    tokens = post_form(
        hosted.endpoint("/oauth2/token"),
        {
            "grant_type": "refresh_token",
            "client_id": hosted.client_id,
            "refresh_token": refresh_token,
        },
    )
    if "id_token" not in tokens:
        raise SignInFailed("the token endpoint gave no ID token")
    return str(tokens["id_token"])


def expires_soon(token: str, now: float | None = None) -> bool:
    """Whether a JWT's ``exp`` is within ``RENEW_BEFORE_SECONDS`` (read, not verified: the API
    verifies it; this only decides when to renew). A token we cannot read is left alone."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        expires = float(claims["exp"])
    except (IndexError, ValueError, KeyError, TypeError):
        return False
    return expires - (time.time() if now is None else now) < RENEW_BEFORE_SECONDS
