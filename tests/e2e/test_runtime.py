"""The local runtime over HTTP, as `make run` serves it."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import boto3
import pytest

from local.process import Runtime, process_tree

pytestmark = pytest.mark.long(45)


def test_health_is_public(runtime: Runtime) -> None:
    status, headers, body = runtime.request("GET", "/health")
    assert (status, body) == (200, {"status": "ok"})
    assert headers["Content-Type"] == "application/json"


def test_dev_token_reaches_the_handler_as_gateway_claims(runtime: Runtime) -> None:
    token = runtime.token("alice", "Alice")
    status, _, body = runtime.request("GET", "/me", token=token)
    assert status == 200
    assert body == {
        "player": "alice",
        "name": "Alice",
        "mute": [],
        "locale": None,
        "auto_forced": False,
        "quiet_hours": None,
    }


def test_name_falls_back_to_the_player_id(runtime: Runtime) -> None:
    status, _, body = runtime.request("GET", "/me", token=runtime.token("bob"))
    assert (status, body) == (
        200,
        {
            "player": "bob",
            "name": "bob",
            "mute": [],
            "locale": None,
            "auto_forced": False,
            "quiet_hours": None,
        },
    )


def test_protected_route_without_token_is_401(runtime: Runtime) -> None:
    status, headers, body = runtime.request("GET", "/me")
    assert status == 401
    assert body["error"]["code"] == "unauthorized"
    assert "Bearer" in headers["WWW-Authenticate"]


def test_forged_or_tampered_tokens_are_401(runtime: Runtime) -> None:
    token = runtime.token("alice")
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["sub"] = "mallory"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    for bad in (f"{header}.{forged}.{signature}", "x.y.z", "garbage", token[:-4] + "AAAA"):
        status, _, body = runtime.request("GET", "/me", token=bad)
        assert status == 401, bad
        assert body["error"]["code"] == "unauthorized" and set(body["error"]) == {
            "code",
            "message",
            "params",
        }


def test_unknown_route_is_404_not_found(runtime: Runtime) -> None:
    for method, path in (("GET", "/nope"), ("DELETE", "/health"), ("GET", "/dev/token")):
        status, _, body = runtime.request(method, path)
        assert status == 404, (method, path)
        assert body["error"]["code"] == "not_found"


def test_body_over_16_kib_is_413_before_any_handler(runtime: Runtime) -> None:
    status, _, body = runtime.request("POST", "/dev/token", b"x" * (16 * 1024 + 1))
    assert status == 413
    assert body["error"]["code"] == "payload_too_large"
    # a body of exactly 16 KiB is read (and then refused as bad JSON, not as too large)
    status, _, body = runtime.request("POST", "/dev/token", b" " * (16 * 1024 - 2) + b"[]")
    assert (status, body["error"]["code"]) == (400, "invalid_request")


def test_dev_token_input_is_bounded(runtime: Runtime) -> None:
    for bad in (
        {"player": ""},
        {"player": "a" * 65},
        {"player": "a b"},
        {"player": 7},
        {"player": "ok", "name": "n" * 41},
        [],
    ):
        status, _, body = runtime.request("POST", "/dev/token", bad)
        assert (status, body["error"]["code"]) == (400, "invalid_request"), bad
    status, _, body = runtime.request("POST", "/dev/token", b"{not json")
    assert (status, body["error"]["code"]) == (400, "invalid_request")


def test_restart_keeps_the_data(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from local.ddb import free_port
    from local.paths import run_dir

    rt = Runtime(free_port(), free_port(), tmp_path / "data")
    clock = run_dir() / f"clock-{rt.port}"
    rt.start()
    assert clock.read_text() == "0"  # the dev clock of this run, level with the system's
    client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{rt.ddb_port}")
    try:
        client.put_item(TableName="GameTable", Item={"pk": {"S": "GAME#kept"}, "sk": {"S": "GAME"}})
    finally:
        rt.stop()
    assert not clock.exists()  # a stopped run leaves no file of its port under .local/run
    rt.start()
    try:
        item = client.get_item(
            TableName="GameTable", Key={"pk": {"S": "GAME#kept"}, "sk": {"S": "GAME"}}
        )
        assert item["Item"]["pk"]["S"] == "GAME#kept"
    finally:
        rt.stop()


def test_concurrent_callers_are_never_mixed_up(runtime: Runtime) -> None:
    """Requests run in parallel containers; none may see another request's claims."""
    from concurrent.futures import ThreadPoolExecutor

    tokens = {f"racer{i}": runtime.token(f"racer{i}") for i in range(6)}

    def whoami(i: int) -> tuple[str, str]:
        player = f"racer{i % 6}"
        status, _, body = runtime.request("GET", "/me", token=tokens[player])
        assert status == 200
        return player, body["player"]

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(whoami, range(120)))
    assert [asked for asked, _ in answers] == [got for _, got in answers]


def test_a_token_with_exp_null_is_401_not_a_closed_connection(runtime: Runtime) -> None:
    """It used to raise in the runtime's own check, which dropped the connection."""
    import time

    import jwt

    from local import tokens

    now = int(time.time())
    claims = {"sub": "alice", "iss": tokens.ISSUER, "aud": tokens.AUDIENCE, "iat": now}
    for exp in (None, "later", now + 3600.5):
        token = jwt.encode({**claims, "exp": exp}, tokens.load_secret())
        status, _, body = runtime.request("GET", "/me", token=token)
        assert (status, body["error"]["code"]) == (401, "unauthorized"), exp


def test_what_http_refuses_is_answered_in_json(runtime: Runtime) -> None:
    status, headers, body = runtime.request("BREW", "/health")
    assert (status, body["error"]["code"]) == (404, "not_found")
    assert headers["Content-Type"] == "application/json"
    status, _, body = runtime.request("POST", "/dev/token", {"player": "alice\n"})
    assert (status, body["error"]["code"]) == (400, "invalid_request")
    deep = b'{"player":' + b"[" * 1000 + b"]" * 1000 + b"}"
    status, _, body = runtime.request("POST", "/dev/token", deep)
    assert (status, body["error"]["code"]) == (400, "invalid_request")


def wait_gone(pid: int, within: float) -> bool:
    from local.ddb import gone

    deadline = time.monotonic() + within
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return gone(pid)


def test_a_stop_with_a_request_in_flight_takes_under_5_s_and_ends_dynamodb_local() -> None:
    """Ctrl-C while a request waits on the database (here: DynamoDB Local paused, so it waits
    for ever): the runtime is gone within 5 s, and so is DynamoDB Local."""
    from local.ddb import free_port, port_in_use, port_pidfile

    rt = Runtime(free_port(), free_port(), None)
    rt.start()
    assert rt.process is not None
    pid = int(port_pidfile(rt.ddb_port).read_text())
    token = rt.token("slowpoke")
    answers: list[Any] = []
    try:
        os.kill(pid, signal.SIGSTOP)
        slow = threading.Thread(
            target=lambda: answers.append(rt.request("GET", "/me/games", token=token))
        )
        slow.start()
        time.sleep(0.5)  # the request is in a container, waiting on the database
        assert not answers
        sent = time.monotonic()
        rt.process.send_signal(signal.SIGINT)
        rt.process.wait(timeout=15)
        took = time.monotonic() - sent
        slow.join(timeout=10)
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)
        if rt.process.poll() is None:
            rt.process.kill()
    assert took < 5.0, f"stopped after {took:.1f} s"
    assert wait_gone(pid, 1.0), "DynamoDB Local was left running"
    assert not port_in_use(rt.ddb_port) and not port_pidfile(rt.ddb_port).exists()


def test_a_killed_runtime_leaves_no_dynamodb_local_and_starts_again_on_its_data(
    tmp_path: Path,
) -> None:
    """SIGKILL gives the runtime no chance to stop DynamoDB Local: it dies with its parent, and
    the next start on the same ports and data folder finds nothing in its way."""
    from local.ddb import DATA_PIDFILE, free_port, port_pidfile

    rt = Runtime(free_port(), free_port(), tmp_path / "data")
    rt.start()
    assert rt.process is not None
    pid = int(port_pidfile(rt.ddb_port).read_text())
    assert int((tmp_path / "data" / DATA_PIDFILE).read_text()) == pid
    client = boto3.client("dynamodb", endpoint_url=f"http://127.0.0.1:{rt.ddb_port}")
    client.put_item(TableName="GameTable", Item={"pk": {"S": "GAME#kill"}, "sk": {"S": "GAME"}})
    rt.process.kill()
    rt.process.wait(timeout=10)
    assert wait_gone(pid, 5.0), "DynamoDB Local outlived its killed runtime"
    took = rt.start()
    try:
        again = int(port_pidfile(rt.ddb_port).read_text())
        assert again != pid and wait_gone(pid, 0)
        item = client.get_item(
            TableName="GameTable", Key={"pk": {"S": "GAME#kill"}, "sk": {"S": "GAME"}}
        )
        assert item["Item"]["pk"]["S"] == "GAME#kill"
        assert rt.request("GET", "/me", token=rt.token("back"))[0] == 200
    finally:
        rt.stop()
    assert wait_gone(again, 5.0) and took < 60


def multiprocessing_children(root: int) -> list[int]:
    """The function containers (and multiprocessing's resource tracker) under ``root``."""
    found = []
    for pid in process_tree(root):
        with contextlib.suppress(OSError):
            if b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def test_a_killed_runtime_leaves_no_function_containers() -> None:
    """The containers are the runtime's children: a SIGKILLed runtime (a test or a person
    ending it without a stop) must not leave them running, orphaned, for ever."""
    from local.ddb import free_port

    rt = Runtime(free_port(), free_port(), None)
    rt.start()
    assert rt.process is not None
    assert rt.request("GET", "/me/games", token=rt.token("orphan"))[0] == 200
    containers = multiprocessing_children(rt.process.pid)
    assert containers, "no container found to watch"
    rt.process.kill()
    rt.process.wait(timeout=10)
    left = [pid for pid in containers if not wait_gone(pid, 5.0)]
    assert not left, f"containers outlived their killed runtime: {left}"
