"""A stand-in for Cognito's hosted sign-in (``/oauth2/authorize``, ``/oauth2/token``,
``/logout``), for the web client's and the terminal client's sign-in tests, without AWS. It
checks what a public client must send (PKCE with S256, the scopes, a loopback redirect URI, the
verifier against the challenge) and answers as Cognito does, with ``id_token`` (a dev token of
the local runtime, so that the API accepts it) as the ID token; the refresh token is ``"r"``.
``wrong_state`` sends the browser back with another state, as a forged link would."""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

CLIENT_ID = "test-client"


@dataclass
class FakeOAuth:
    """What the fake server saw and what it answers; ``errors`` collects broken requests."""

    id_token: str = ""
    base: str = ""
    wrong_state: bool = False  # send the browser back with another state
    challenges: dict[str, str] = field(default_factory=dict)  # code -> code_challenge
    redirects: dict[str, str] = field(default_factory=dict)  # code -> redirect_uri
    token_requests: list[dict[str, str]] = field(default_factory=list)
    logouts: list[dict[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def make_handler(fake: FakeOAuth) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def cors(self) -> None:
            self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
            self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")
            self.send_header("Access-Control-Allow-Headers", "Content-Type")

        def answer(self, status: int, body: dict[str, Any]) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.cors()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def redirect(self, location: str) -> None:
            self.send_response(302)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/oauth2/authorize":
                expected = {
                    "response_type": "code",
                    "client_id": CLIENT_ID,
                    "code_challenge_method": "S256",
                }
                wrong = {k: query.get(k) for k, v in expected.items() if query.get(k) != v}
                redirect_uri = query.get("redirect_uri", "")
                scopes = set(query.get("scope", "").split())
                if not {"openid", "email", "profile"} <= scopes:
                    wrong["scope"] = query.get("scope")
                if len(query.get("code_challenge", "")) != 43 or not query.get("state"):
                    wrong["code_challenge/state"] = query.get("code_challenge")
                loopback = urlsplit(redirect_uri).hostname in ("127.0.0.1", "localhost")
                if urlsplit(redirect_uri).query or not loopback:
                    wrong["redirect_uri"] = redirect_uri
                if wrong:
                    fake.errors.append(f"authorize: {wrong}")
                    self.answer(400, {"error": "invalid_request"})
                    return
                code = f"code{len(fake.challenges) + 1}"
                fake.challenges[code] = query["code_challenge"]
                fake.redirects[code] = redirect_uri
                state = "not-the-state" if fake.wrong_state else query["state"]
                self.redirect(redirect_uri + "?" + urlencode({"code": code, "state": state}))
            elif url.path == "/logout":
                fake.logouts.append(query)
                self.redirect(query.get("logout_uri", "/"))
            else:
                self.answer(404, {"error": "not_found"})

        def do_OPTIONS(self) -> None:  # the CORS preflight
            self.send_response(204)
            self.cors()
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self) -> None:
            if urlsplit(self.path).path != "/oauth2/token":
                self.answer(404, {"error": "not_found"})
                return
            if self.headers.get("Content-Type", "").split(";")[0] != (
                "application/x-www-form-urlencoded"
            ):
                fake.errors.append(f"token: Content-Type {self.headers.get('Content-Type')}")
            length = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            fake.token_requests.append(form)
            if form.get("grant_type") == "refresh_token":
                if form.get("refresh_token") != "r" or form.get("client_id") != CLIENT_ID:
                    self.answer(400, {"error": "invalid_grant"})
                    return
                self.answer(200, {"id_token": fake.id_token, "expires_in": 3600})
                return
            code = form.get("code", "")
            if (
                form.get("grant_type") != "authorization_code"
                or form.get("client_id") != CLIENT_ID
                or code not in fake.challenges
                or form.get("redirect_uri") != fake.redirects.get(code)
            ):
                fake.errors.append(f"token: {form}")
                self.answer(400, {"error": "invalid_request"})
                return
            if s256(form.get("code_verifier", "")) != fake.challenges.pop(code):
                self.answer(
                    400, {"error": "invalid_grant", "error_description": "PKCE check failed"}
                )
                return
            self.answer(
                200,
                {
                    "id_token": fake.id_token,
                    "access_token": "a",
                    "refresh_token": "r",
                    "expires_in": 3600,
                    "token_type": "Bearer",
                },
            )

    return Handler


@contextmanager
def serving() -> Iterator[FakeOAuth]:
    fake = FakeOAuth()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(fake))
    fake.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
