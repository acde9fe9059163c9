"""``domino login --hosted``: the authorization code flow with PKCE against a stand-in for
Cognito's hosted sign-in (its /oauth2/authorize and /oauth2/token), whose ID token is a dev
token the local runtime accepts; and the ID token renewed from the refresh token."""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from domino_cli import app as cli_app
from domino_cli.app import app
from typer.testing import CliRunner

from local.ddb import free_port
from tests.cli.conftest import cli_env
from tests.conftest import Runtime

CLIENT = "apps-client"


class HostedSignIn:
    """The stand-in: checks what a public client must send, and answers as Cognito does."""

    def __init__(self, id_token: str, renewed: str, state_override: str | None = None) -> None:
        self.id_token, self.renewed, self.state_override = id_token, renewed, state_override
        self.challenge = ""
        self.grants: list[str] = []
        self.refused: list[str] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                expected = {"response_type": "code", "client_id": CLIENT}
                if (
                    any(query.get(k) != v for k, v in expected.items())
                    or query.get("code_challenge_method") != "S256"
                ):
                    owner.refused.append(self.path)
                    self.send_error(400)
                    return
                owner.challenge = query["code_challenge"]
                state = owner.state_override or query["state"]
                back = query["redirect_uri"] + "?" + urlencode({"code": "c-1", "state": state})
                self.send_response(302)
                self.send_header("Location", back)
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                owner.grants.append(form["grant_type"])
                if form["grant_type"] == "authorization_code":
                    digest = hashlib.sha256(form["code_verifier"].encode()).digest()
                    proof = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
                    ok = form["code"] == "c-1" and proof == owner.challenge
                    body = {"id_token": owner.id_token, "refresh_token": "r-1"} if ok else None
                else:
                    ok = form["refresh_token"] == "r-1"
                    body = {"id_token": owner.renewed} if ok else None
                data = json.dumps(body or {"error": "invalid_grant"}).encode()
                self.send_response(200 if ok else 400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.domain = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The person's browser: follows the sign-in page's redirect back to the loopback."""
    opened: list[str] = []

    def open_url(url: str) -> bool:
        opened.append(url)
        urllib.request.urlopen(url, timeout=10).read()
        return True

    monkeypatch.setattr(cli_app.webbrowser, "open", open_url)
    return opened


@pytest.fixture
def hosted(runtime: Runtime) -> Iterator[HostedSignIn]:
    signed_in = HostedSignIn(runtime.token("hana", "Hana"), runtime.token("hana", "Hana"))
    yield signed_in
    signed_in.close()


def login(runtime: Runtime, tmp_path: Path, domain: str) -> Any:
    env = cli_env(runtime, tmp_path, None)
    args = ["login", "--hosted", "--auth-domain", domain, "--client-id", CLIENT]
    args += ["--port", str(free_port())]
    return CliRunner().invoke(app, args, env=env, catch_exceptions=False), env


def test_hosted_sign_in_stores_the_id_token_and_renews_it_before_it_expires(
    runtime: Runtime, tmp_path: Path, hosted: HostedSignIn, browser: list[str]
) -> None:
    result, env = login(runtime, tmp_path, hosted.domain)
    assert result.exit_code == 0, result.output
    assert "Logged in as Hana (hana)" in result.output
    (url,) = browser
    assert url.startswith(hosted.domain + "/oauth2/authorize?") and "scope=openid" in url
    assert hosted.grants == ["authorization_code"] and not hosted.refused
    stored_file = tmp_path / "domino" / "config.json"
    stored = json.loads(stored_file.read_text())
    assert stored["refresh_token"] == "r-1" and stored["auth_domain"] == hosted.domain
    assert oct(stored_file.stat().st_mode & 0o777) == "0o600"
    assert hosted.id_token not in result.output  # never printed

    # an ID token about to expire is renewed with the refresh token before the request
    payload = base64.urlsafe_b64encode(json.dumps({"exp": 1}).encode()).rstrip(b"=").decode()
    stored["token"] = f"e30.{payload}.sig"
    stored_file.write_text(json.dumps(stored))
    games = CliRunner().invoke(app, ["games", "--json"], env=env, catch_exceptions=False)
    assert games.exit_code == 0, games.output
    assert hosted.grants == ["authorization_code", "refresh_token"]
    assert json.loads(stored_file.read_text())["token"] == hosted.renewed


def test_an_answer_with_another_state_is_refused_and_nothing_is_kept(
    runtime: Runtime, tmp_path: Path, browser: list[str]
) -> None:
    forged = HostedSignIn("unused", "unused", state_override="someone-elses")
    try:
        result, _ = login(runtime, tmp_path, forged.domain)
    finally:
        forged.close()
    assert result.exit_code == 1
    assert "state is not ours" in result.output
    assert forged.grants == []  # the code was never exchanged
    assert not (tmp_path / "domino" / "config.json").exists()


def test_hosted_needs_its_domain_and_client(runtime: Runtime, tmp_path: Path) -> None:
    env = cli_env(runtime, tmp_path, None)
    result = CliRunner().invoke(app, ["login", "--hosted"], env=env, catch_exceptions=False)
    assert result.exit_code == 2 and "--auth-domain and --client-id" in result.output
