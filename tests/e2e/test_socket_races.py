"""Sockets against the races and the tokens of issue 20 (item 5), on the local runtime
(`python -m local`): twenty sockets of one player opened at once (the cap holds and every socket
left open receives), ``DELETE /me`` closing the player's open sockets, and a socket closed when
its token expires (as HTTP refuses that token then)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from local import tokens
from local.process import Runtime
from tests.e2e.test_live import WITHIN, connections_of, players, ws_url

pytestmark = pytest.mark.e2e

MAX_SOCKETS = 10
#: the wide runtime's handler processes
WORKERS = 16


def settled(check: Callable[[], bool], within: float = WITHIN) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, "never came true"
        time.sleep(0.05)


def closes(ws: ClientConnection, within: float = WITHIN) -> int | None:
    """Wait for the server to close ``ws``: its close code (fails after ``within``)."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the socket is still open"
        try:
            ws.recv(timeout=min(left, 0.5))
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def told_or_closed(ws: ClientConnection, game: str, within: float = WITHIN) -> str:
    """``told``: ``ws`` received a change of ``game``; ``closed``: the server closed it first."""
    deadline = time.monotonic() + within
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "deaf"
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            return "deaf"
        except ConnectionClosed:
            return "closed"
        if message.get("type") == "game_changed" and message.get("game") == game:
            return "told"


@pytest.fixture(scope="module")
def wide_runtime() -> Iterator[Runtime]:
    """A runtime with as many handler processes as sockets opened at once (Lambda runs as many
    $connects at once as come), so the twenty $connects really race."""
    from local.ddb import free_port

    rt = Runtime(free_port(), free_port(), None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LOCAL_WORKERS", str(WORKERS))
        rt.start(timeout=180)
    try:
        yield rt
    finally:
        rt.stop()


def test_twenty_sockets_at_once_keep_the_cap_and_every_open_one_receives(
    wide_runtime: Runtime,
) -> None:
    """One player opens twenty sockets at once: at most MAX_SOCKETS stay open (the others are
    refused, 429, or closed), none is left open without a record (every open one receives the
    next change), and the connection records are exactly the sockets left open."""
    runtime = wide_runtime
    ((player, token), (_, guest)) = players(runtime, "Burst", "Guest")
    opened: list[ClientConnection] = []
    refused: list[int] = []
    with ExitStack() as stack:
        # One player's admissions are serial by design (one ledger): the twentieth waits for
        # nineteen conditional transactions, each up to ~1 s on DynamoDB Local when the other
        # test worker loads both cores (CI saw one pass 20 s), so the bound is generous.
        def one(_: int) -> ClientConnection | int:
            try:
                return connect(ws_url(runtime, token), open_timeout=90, ping_interval=None)
            except InvalidStatus as err:
                return err.response.status_code

        with ThreadPoolExecutor(20) as pool:
            for outcome in pool.map(one, range(20), timeout=180):
                if isinstance(outcome, int):
                    refused.append(outcome)
                else:
                    opened.append(stack.enter_context(outcome))
        # 429: the other sockets were all still connecting; 503: the admission kept losing
        assert set(refused) <= {429, 410, 503}, refused
        time.sleep(1)  # the evictions' closes are under way
        status, _, game = runtime.request(
            "POST", "/games", {"preset": "clasico", "players": 3}, token=token
        )
        assert status == 201
        status, _, _ = runtime.request("POST", f"/games/{game['id']}/join", {}, token=guest)
        assert status == 200
        with ThreadPoolExecutor(20) as pool:
            outcomes = list(pool.map(lambda ws: told_or_closed(ws, game["id"]), opened))
        assert "deaf" not in outcomes, (outcomes, refused)
        assert 1 <= outcomes.count("told") <= MAX_SOCKETS, (outcomes, refused)
        settled(lambda: len(connections_of(runtime, player)) == outcomes.count("told"))


def test_delete_me_closes_the_players_open_sockets(runtime: Runtime) -> None:
    """Both sockets close at DELETE /me; the same token opens none afterwards (401), as HTTP
    refuses it a seat."""
    ((player, token),) = players(runtime, "Leaving")
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(ws_url(runtime, token), open_timeout=10)) for _ in range(2)
        ]
        deadline = time.monotonic() + WITHIN
        while len(connections_of(runtime, player)) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        status, _, _ = runtime.request("DELETE", "/me", token=token)
        assert status == 204
        for ws in sockets:
            closes(ws)
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url(runtime, token), open_timeout=10)
        assert refused.value.response.status_code == 401
    settled(lambda: connections_of(runtime, player) == [])


def test_a_socket_closes_when_its_token_expires(runtime: Runtime) -> None:
    """A token 26 s past its ``exp`` is still taken (30 s of leeway for clock skew): its socket
    opens and is closed (1008) when the leeway ends, when HTTP refuses the same token."""
    ((player, _),) = players(runtime, "Expiring")
    now = time.time()
    token = tokens.issue(tokens.load_secret(), player, now=now - tokens.LIFETIME_SECONDS - 26)
    with connect(ws_url(runtime, token), open_timeout=10) as ws:
        code = closes(ws, within=WITHIN + 5)
        assert code == 1008
        assert time.time() >= now + 3  # not before the token stopped being valid
    status, _, body = runtime.request("GET", "/me", token=token)
    assert status == 401, body
    settled(lambda: connections_of(runtime, player) == [])
