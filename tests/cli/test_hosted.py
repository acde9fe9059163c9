"""``domino login --hosted``: the authorization code flow with PKCE against the stand-in for
Cognito's hosted sign-in (tests/oauth.py), whose ID token is a dev token the local runtime
accepts; and the ID token renewed from the refresh token before it expires."""

from __future__ import annotations

import base64
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from domino_cli import app as cli_app
from domino_cli.app import app
from typer.testing import CliRunner

from local.ddb import free_port
from local.process import Runtime
from tests.cli.conftest import cli_env
from tests.oauth import CLIENT_ID, FakeOAuth


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


def login(runtime: Runtime, tmp_path: Path, domain: str) -> tuple[Any, dict[str, str]]:
    env = cli_env(runtime, tmp_path, None)
    args = ["login", "--hosted", "--auth-domain", domain, "--client-id", CLIENT_ID]
    args += ["--port", str(free_port())]
    return CliRunner().invoke(app, args, env=env, catch_exceptions=False), env


def grants(oauth: FakeOAuth) -> list[str]:
    return [request["grant_type"] for request in oauth.token_requests]


def test_hosted_sign_in_stores_the_id_token_and_renews_it_before_it_expires(
    runtime: Runtime, tmp_path: Path, oauth: FakeOAuth, browser: list[str]
) -> None:
    oauth.id_token = runtime.token("hana", "Hana")
    result, env = login(runtime, tmp_path, oauth.base)
    assert result.exit_code == 0, result.output
    assert "Logged in as Hana (hana)" in result.output
    (url,) = browser
    assert url.startswith(oauth.base + "/oauth2/authorize?")
    assert "redirect_uri=http%3A%2F%2Flocalhost%3A" in url
    assert grants(oauth) == ["authorization_code"] and not oauth.errors
    stored_file = tmp_path / "domino" / "config.json"
    stored = json.loads(stored_file.read_text())
    assert stored["refresh_token"] == "r" and stored["auth_domain"] == oauth.base
    assert oct(stored_file.stat().st_mode & 0o777) == "0o600"
    assert oauth.id_token not in result.output  # never printed

    # an ID token about to expire is renewed with the refresh token before the request
    payload = base64.urlsafe_b64encode(json.dumps({"exp": 1}).encode()).rstrip(b"=").decode()
    stored["token"] = f"e30.{payload}.sig"
    stored_file.write_text(json.dumps(stored))
    games = CliRunner().invoke(app, ["games", "--json"], env=env, catch_exceptions=False)
    assert games.exit_code == 0, games.output
    assert grants(oauth) == ["authorization_code", "refresh_token"]
    assert json.loads(stored_file.read_text())["token"] == oauth.id_token


def test_an_answer_with_another_state_is_refused_and_nothing_is_kept(
    runtime: Runtime, tmp_path: Path, oauth: FakeOAuth, browser: list[str]
) -> None:
    oauth.wrong_state = True
    result, _ = login(runtime, tmp_path, oauth.base)
    assert result.exit_code == 1
    assert "state is not ours" in result.output
    assert oauth.token_requests == []  # the code was never exchanged
    assert not (tmp_path / "domino" / "config.json").exists()


def test_hosted_needs_its_domain_and_client(runtime: Runtime, tmp_path: Path) -> None:
    env = cli_env(runtime, tmp_path, None)
    result = CliRunner().invoke(app, ["login", "--hosted"], env=env, catch_exceptions=False)
    assert result.exit_code == 2 and "--auth-domain and --client-id" in result.output
