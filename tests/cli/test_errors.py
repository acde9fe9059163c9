"""The client's answers to refusals and failures: one red line with the code, a non-zero exit."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from domino_cli.api import Api, ApiError

from local.ddb import free_port
from local.process import Runtime
from tests.cli.conftest import Player, cli_env
from tests.cli.test_play import created_game

pytestmark = pytest.mark.e2e


def test_not_your_turn_is_refused_with_its_code(player: Callable[[str], Player]) -> None:
    alice, bob = player("Alice"), player("Bob")
    game = created_game(alice.run("new", "dos-jugadores").stdout)
    bob.run("join", game)
    view = alice.view(game)
    waiting = bob if view["turn"] == 0 else alice
    tile = waiting.view(game)["you"]["hand"][0]
    result = waiting.run("play", game, tile, expect=1)
    assert "error not_your_turn" in result.stderr
    assert result.stdout == ""
    assert alice.view(game)["version"] == view["version"]  # nothing moved


def test_unknown_game_is_game_not_found(player: Callable[[str], Player]) -> None:
    result = player("Alice").run("show", "no-such-game", expect=1)
    assert result.stderr.startswith("error game_not_found: No such game.")


def test_an_id_that_looks_like_an_option_is_still_an_id(player: Callable[[str], Player]) -> None:
    """Ids are URL-safe base64: about one in 32 starts with "-" (and some with "--")."""
    alice = player("Alice")
    for game in ("-2LHzqVHvH_XMauWLMKbnA", "--LHzqVHvH_XMauWLMKbnA"):
        assert "error game_not_found" in alice.run("show", game, expect=1).stderr
        assert "error game_not_found" in alice.run("play", game, "3-5", expect=1).stderr
    assert "unexpected extra argument" in alice.run("show", "--jsn", "x", expect=2).output
    # whatever is typed stays the id: it never reaches another route
    refused = alice.run("show", "../me", expect=1).stderr
    assert refused.startswith(("error game_not_found", "error not_found")), refused


def test_messages_follow_the_locale(player: Callable[[str], Player]) -> None:
    alice = player("Alice")
    alice.env["LANG"] = "es_ES.UTF-8"
    result = alice.run("show", "no-such-game", expect=1)
    assert "error game_not_found: Esa partida no existe." in result.stderr


def test_a_stale_if_match_is_version_mismatch(player: Callable[[str], Player]) -> None:
    alice = player("Alice")
    game = created_game(alice.run("new", "clasico", "--bots", "3").stdout)
    view = alice.view(game)
    result = alice.run("draw", game, "--if-match", str(view["version"] + 5), expect=1)
    assert "error version_mismatch" in result.stderr


def test_a_bad_token_is_unauthorized(runtime: Runtime, tmp_path: Path) -> None:
    stranger = Player("", "", cli_env(runtime, tmp_path, token="garbage"))
    result = stranger.run("games", expect=1)
    assert "error unauthorized" in result.stderr and "domino login" in result.stderr


def test_an_unreachable_api_is_a_network_error(runtime: Runtime, tmp_path: Path) -> None:
    env = cli_env(runtime, tmp_path, token="whatever")
    env["DOMINO_URL"] = f"http://127.0.0.1:{free_port()}"
    result = Player("", "", env).run("games", expect=3)
    assert result.stderr.startswith("network error: cannot reach http://127.0.0.1:")


class Flaky(BaseHTTPRequestHandler):
    """Answers 503 ``unavailable`` with Retry-After to the first ``failures`` requests, then
    201; records each request's Idempotency-Key."""

    failures = 2
    keys: list[str | None] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        Flaky.keys.append(self.headers.get("Idempotency-Key"))
        if len(Flaky.keys) <= Flaky.failures:
            body = {"error": {"code": "unavailable", "message": "Try again.", "params": {}}}
            self.answer(503, body, {"Retry-After": "2"})
        else:
            self.answer(201, {"id": "g1"}, {})

    def answer(self, status: int, body: Any, headers: dict[str, str]) -> None:
        raw = json.dumps(body).encode()
        self.send_response(status)
        for key, value in {**headers, "Content-Type": "application/json"}.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def flaky() -> Iterator[str]:
    Flaky.keys = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_unavailable_is_retried_with_the_same_idempotency_key(flaky: str) -> None:
    waits: list[float] = []
    assert Api(flaky, "t", sleep=waits.append).post("/games", {"preset": "clasico"}) == {"id": "g1"}
    assert len(Flaky.keys) == 3 and len(set(Flaky.keys)) == 1 and Flaky.keys[0]
    assert waits == [2.0, 2.0]  # as Retry-After asks


def test_unavailable_gives_up_after_a_few_retries(flaky: str) -> None:
    Flaky.failures = 10
    try:
        with pytest.raises(ApiError) as caught:
            Api(flaky, "t", sleep=lambda _: None).post("/games", {})
    finally:
        Flaky.failures = 2
    assert caught.value.code == "unavailable" and len(Flaky.keys) == 3


def test_every_change_gets_its_own_key(flaky: str) -> None:
    Flaky.failures = 0
    try:
        api = Api(flaky, "t")
        api.post("/games", {})
        api.post("/games", {})
    finally:
        Flaky.failures = 2
    assert len(set(Flaky.keys)) == 2


def test_watch_with_a_bad_token_is_refused_without_showing_it(
    runtime: Runtime, tmp_path: Path
) -> None:
    stranger = Player("", "", cli_env(runtime, tmp_path, token="secret-garbage"))
    result = stranger.run("watch", "some-game", "--timeout", "5", expect=3)
    assert "HTTP 401" in result.stderr and "domino login" in result.stderr
    assert "secret-garbage" not in result.output
