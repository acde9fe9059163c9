"""The web client's hosted sign-in (the authorization code flow with PKCE, as Cognito's hosted
UI does it) against a fake OAuth server in this file, without AWS: the page is pointed at it
with ``?auth_domain=<url>&client_id=<id>``. The fake's token endpoint answers with a dev token
of the local runtime as the ID token, so after sign-in the lobby works as with the deployed
stack. Screenshots of each stage go to the test's tmp_path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from local.process import Runtime
from tests.browser.test_play import DESKTOP, create_game
from tests.oauth import CLIENT_ID, FakeOAuth

pytestmark = pytest.mark.e2e


def page_url(runtime: Runtime, oauth: FakeOAuth) -> str:
    return runtime.base + "/?" + urlencode({"auth_domain": oauth.base, "client_id": CLIENT_ID})


def stored_tokens(page: Any) -> list[str]:
    return list(
        page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('domino.session.'))"
            ".map(k => localStorage.getItem(k))"
        )
    )


def test_hosted_sign_in_then_play_against_bots(
    runtime: Runtime, browser: Any, oauth: FakeOAuth, tmp_path: Path
) -> None:
    oauth.id_token = runtime.token("hosted-dora", "Dora")
    context = browser.new_context(viewport=DESKTOP, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(page_url(runtime, oauth))
        page.wait_for_selector("#hosted-signin")
        assert page.locator("#name").count() == 0  # no dev-token form with hosted sign-in
        assert page.text_content("#hosted-signin") == "Entrar"
        page.screenshot(path=tmp_path / "01-hosted-signin.png")

        page.click("#hosted-signin")
        page.wait_for_selector("#header .who")
        assert page.text_content("#header .who") == "Dora"
        assert oauth.errors == []
        assert [r["grant_type"] for r in oauth.token_requests] == ["authorization_code"]
        # the code and state are gone from the address; the page's own query is back
        query = parse_qs(urlsplit(page.url).query)
        assert "code" not in query and "state" not in query
        assert query["auth_domain"] == [oauth.base] and query["client_id"] == [CLIENT_ID]
        assert page.evaluate("sessionStorage.length") == 0  # the verifier is used up
        page.wait_for_selector("#create")
        page.screenshot(path=tmp_path / "02-hosted-lobby.png")

        game_id = create_game(page, "dos-jugadores", players=2, bots=1, single=True)
        page.wait_for_selector("#game #hand")
        status, _, game = runtime.request("GET", f"/games/{game_id}", token=oauth.id_token)
        assert status == 200, game
        assert game["seats"][0]["player"] == "hosted-dora"
        page.screenshot(path=tmp_path / "03-hosted-game.png")

        # a reload keeps the session; signing out clears it and passes by /logout
        page.reload()
        page.wait_for_selector("#game #hand")
        page.click("#signout")
        # back at the logout URI: the page's origin and path, without the query that named
        # the fake server (web/config.js's auth would show "Sign in" again)
        page.wait_for_url(runtime.base + "/")
        page.wait_for_selector("#signin")
        assert stored_tokens(page) == []
        assert oauth.logouts and oauth.logouts[0]["client_id"] == CLIENT_ID
        assert urlsplit(oauth.logouts[0]["logout_uri"]).query == ""
        page.screenshot(path=tmp_path / "04-signed-out.png")
    finally:
        context.close()


def test_a_wrong_state_is_refused(
    runtime: Runtime, browser: Any, oauth: FakeOAuth, tmp_path: Path
) -> None:
    oauth.id_token = runtime.token("hosted-eva", "Eva")
    oauth.wrong_state = True
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        page.goto(page_url(runtime, oauth))
        page.click("#hosted-signin")
        page.wait_for_selector("#error:not([hidden])")
        assert "Sign-in refused" in (page.text_content("#error") or "")
        assert page.locator("#hosted-signin").count() == 1
        assert oauth.token_requests == []  # the code was never traded
        assert stored_tokens(page) == []
        assert "code=" not in page.url and "state=" not in page.url
        page.screenshot(path=tmp_path / "01-wrong-state.png")
    finally:
        context.close()


def test_the_token_endpoint_refusal_is_shown(
    runtime: Runtime, browser: Any, oauth: FakeOAuth, tmp_path: Path
) -> None:
    """A tampered verifier fails the PKCE check: the server's error is shown, nothing stored."""
    oauth.id_token = runtime.token("hosted-fede", "Fede")
    context = browser.new_context(viewport=DESKTOP, locale="es-ES")
    try:
        page = context.new_page()
        page.goto(page_url(runtime, oauth))
        page.wait_for_selector("#hosted-signin")
        page.evaluate(
            """() => {
              const set = Storage.prototype.setItem;
              Storage.prototype.setItem = function (key, value) {
                if (this === sessionStorage) {
                  const pending = JSON.parse(value);
                  pending.verifier = pending.verifier.split("").reverse().join("");
                  value = JSON.stringify(pending);
                }
                return set.call(this, key, value);
              };
            }"""
        )
        page.click("#hosted-signin")
        page.wait_for_selector("#error:not([hidden])")
        text = page.text_content("#error") or ""
        assert "No se pudo entrar" in text and "invalid_grant" in text, text
        assert stored_tokens(page) == []
        page.screenshot(path=tmp_path / "01-token-refused.png")
    finally:
        context.close()


def test_an_expiring_token_is_renewed_with_the_refresh_token(
    runtime: Runtime, browser: Any, oauth: FakeOAuth
) -> None:
    oauth.id_token = runtime.token("hosted-gil", "Gil")
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        page = context.new_page()
        page.goto(page_url(runtime, oauth))
        page.click("#hosted-signin")
        page.wait_for_selector("#create")
        # the stored ID token is about to expire: the next request renews it first
        page.evaluate(
            """() => {
              const key = Object.keys(localStorage).find(k => k.startsWith('domino.session.'));
              const s = JSON.parse(localStorage.getItem(key));
              s.exp = Math.floor(Date.now() / 1000) + 10;
              localStorage.setItem(key, JSON.stringify(s));
            }"""
        )
        page.reload()
        page.wait_for_selector("#create")
        grants = [r["grant_type"] for r in oauth.token_requests]
        assert grants[0] == "authorization_code" and "refresh_token" in grants, grants
        assert page.locator("#error").is_hidden(), page.text_content("#error")

        # a token the API refuses (401) before its exp: renewed once, the request repeated
        renewals = grants.count("refresh_token")
        page.evaluate(
            """() => {
              const key = Object.keys(localStorage).find(k => k.startsWith('domino.session.'));
              const s = JSON.parse(localStorage.getItem(key));
              s.token = "not-a-token";
              s.exp = Math.floor(Date.now() / 1000) + 3600;
              localStorage.setItem(key, JSON.stringify(s));
            }"""
        )
        page.reload()
        page.wait_for_selector("#create")
        assert page.locator("#error").is_hidden(), page.text_content("#error")
        grants = [r["grant_type"] for r in oauth.token_requests]
        assert grants.count("refresh_token") > renewals, grants
        assert stored_tokens(page) and oauth.id_token in stored_tokens(page)[0]
    finally:
        context.close()
