"""``make invoke`` (local/function.py): a template function run in-process on one event, as
``sam local invoke`` runs it; the response on standard output, the logs on standard error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def invoke(*args: str, stdin: str | None = None) -> tuple[int, Any, str]:
    """Exit code, the parsed response (None when stdout is empty) and the standard error."""
    done = subprocess.run(
        [sys.executable, "-m", "local.function", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else None, done.stderr


@pytest.mark.ddb
def test_a_route_runs_on_a_fresh_database_with_the_events_game_made_first() -> None:
    code, response, log = invoke("PlayFunction", "events/play.json")
    assert code == 0, log
    assert response["statusCode"] == 200
    view = json.loads(response["body"])
    assert view["id"] == "EventPlayGame0001" and view["board"]["tiles"][0]["tile"] == "6-6"
    assert "setup: bob took the second seat" in log
    assert "REPORT RequestId:" in log and "Duration:" in log


@pytest.mark.ddb
def test_stream_schedule_and_authorizer_functions_run_on_a_running_database(
    ddb_endpoint: str,
) -> None:
    code, response, log = invoke("notify", "events/notify.json", "--endpoint", ddb_endpoint)
    assert (code, response) == (0, {"batchItemFailures": []}), log
    code, response, log = invoke("SweepFunction", "events/sweep.json", "--endpoint", ddb_endpoint)
    assert code == 0 and set(response) == {
        "due",
        "reminded",
        "timed_out",
        "summaries",
        "vacations",
    }, log
    # the example issuer that signed events/wsauth.json's token is served for the authorizer
    code, response, log = invoke("WsAuthFunction", "events/wsauth.json", "--endpoint", ddb_endpoint)
    assert code == 0, log
    assert response["policyDocument"]["Statement"][0]["Effect"] == "Allow"
    assert response["context"]["sub"] == "alice"


@pytest.mark.ddb
def test_a_function_that_raises_prints_lambdas_error_shape(
    ddb_endpoint: str, tmp_path: Path
) -> None:
    """The authorizer refuses a token it cannot verify by raising, as API Gateway expects."""
    event = json.loads((REPO / "events" / "wsauth.json").read_text())
    event["queryStringParameters"]["token"] = "not-a-token"
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(event))
    code, response, _ = invoke("WsAuthFunction", str(path), "--endpoint", ddb_endpoint)
    assert code == 1
    assert response["errorType"] == "Unauthorized" and response["stackTrace"]
    assert "not-a-token" not in json.dumps(response)


def test_what_cannot_run_is_refused_with_the_reason(tmp_path: Path) -> None:
    code, response, log = invoke("NoSuchFunction", "events/play.json")
    assert (code, response) == (2, None)
    assert "no function 'NoSuchFunction'" in log and "PlayFunction" in log
    (tmp_path / "bad.json").write_text("{nope")
    code, _, log = invoke("play", str(tmp_path / "bad.json"))
    assert code == 2 and "is not JSON" in log
    code, _, log = invoke("play", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read the event" in log
    code, _, log = invoke("play", "events/play.json", "--endpoint", "http://127.0.0.1:9")
    assert code == 2 and "no DynamoDB answers" in log
