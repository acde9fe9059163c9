"""Every file in events/ replays through its function's handler, as `sam local invoke -e` would.

``events/<function>.json`` (and ``events/<function>.<variant>.json``) belong to the function
whose CodeUri is ``functions/<function>/``; each is a valid example, so it must succeed (but
``health.unknown-route.json``, the ``$default`` route's, which answers 404). An event
about a game names a fixed game id (its ``pathParameters.id``); ``local.scenarios`` prepares
that game first, through the handlers, so that the event's request is legal for the event's
caller, as ``make invoke`` does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from domino.api import wiring
from domino.service.inbox import note_view

from local.invoke import LambdaContext, load_handler
from local.scenarios import SETUP, notified, prepare
from local.template import Template
from tests.integration.client import Api

EVENTS = sorted((Path(__file__).resolve().parents[1] / "events").glob("*.json"))
TEMPLATE = Template()
FUNCTIONS = {
    Path(res["Properties"]["CodeUri"]).name: (name, res["Properties"])
    for name, res in TEMPLATE.of_type("AWS::Serverless::Function").items()
}


def trust_the_test_issuer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The authorizer's issuer, audience and keys: tests/keys' throwaway issuer."""
    from cryptography.hazmat.primitives import serialization
    from domino.api import authorizer, settings

    pem = (Path(__file__).resolve().parent / "keys" / "issuer-test-key.pem").read_bytes()
    public = serialization.load_pem_private_key(pem, None).public_key()
    monkeypatch.setenv("JWT_ISSUER", "https://issuer.example/test")
    monkeypatch.setenv("JWT_AUDIENCE", "example-client")
    settings.settings.cache_clear()
    monkeypatch.setattr(authorizer, "jwks_keys", lambda: lambda _token: public)


def test_every_function_has_an_event() -> None:
    covered = {path.name.split(".")[0] for path in EVENTS}
    assert set(FUNCTIONS) <= covered, (
        f"functions without an events/ file: {set(FUNCTIONS) - covered}"
    )


def test_every_setup_names_an_event() -> None:
    assert set(SETUP) <= {path.name for path in EVENTS}


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.name)
def test_event_replays_through_its_handler(
    path: Path, ddb_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    function = path.name.split(".")[0]
    assert function in FUNCTIONS, f"{path.name} names no function in template.yaml"
    name, props = FUNCTIONS[function]
    handler = load_handler(TEMPLATE.root / props["CodeUri"], props.get("Handler", "app.handler"))
    event = json.loads(path.read_text())
    if path.name == "wsauth.json":  # its token is signed by tests/keys' issuer key
        trust_the_test_issuer(monkeypatch)
    prepare(Api(), path, event)  # the game the event is about, under the event's id
    result = handler(event, LambdaContext(function_name=name))
    if "Records" in event:  # a DynamoDB stream batch: no record failed
        assert result == {"batchItemFailures": []}, result
        return
    if "methodArn" in event:  # the WebSocket authorizer: allowed, the caller as context
        assert result["policyDocument"]["Statement"][0]["Effect"] == "Allow", result
        assert result["context"]["sub"] == "alice"
        return
    if event.get("detail-type") == "Scheduled Event":  # the sweeper: what it did
        assert set(result) == {"due", "reminded", "timed_out", "summaries", "vacations"}, result
        return
    if event.get("routeKey") == "$default":  # an unknown route, deployed: 404 in our shape
        assert result["statusCode"] == 404, result
        assert json.loads(result["body"])["error"]["code"] == "not_found"
        assert result["headers"]["Content-Language"] == "es"
        return
    assert 200 <= result["statusCode"] < 300, result
    if result.get("body"):
        json.loads(result["body"])


def test_the_stream_event_archives_the_hand_it_marks(ddb_endpoint: str) -> None:
    event = json.loads((EVENTS[0].parent / "archive.json").read_text())
    image = event["Records"][0]["dynamodb"]["NewImage"]
    game = image["pk"]["S"].removeprefix("GAME#")
    name, props = FUNCTIONS["archive"]
    handler = load_handler(TEMPLATE.root / props["CodeUri"], props["Handler"])
    assert handler(event, LambdaContext(function_name=name)) == {"batchItemFailures": []}
    archived = wiring.service().store.archived_moves(game)
    assert archived and {m["hand_number"] for m in archived} == {int(image["archive"]["N"])}
    assert [m["n"] for m in archived] == list(range(1, len(archived) + 1))


def test_the_stream_event_notifies_the_players_it_concerns(ddb_endpoint: str) -> None:
    """events/notify.json: bob took the last seat of alice's game; alice hears of it twice
    (he joined, the game started), and a redelivery of the same record writes nothing more."""
    notified(Api(), "")
    notified(Api(), "")  # the stream delivers at least once
    store = wiring.inbox().inbox
    stem = "2026-11-29T12:00:00Z#EventNotifyGame01#0000000002#"
    joined, started = (
        store.get("alice", stem + "player_joined"),
        store.get("alice", stem + "game_started"),
    )
    assert joined is not None and started is not None and joined.detail == "Bob"
    assert note_view(joined, False, "en")["body"] == "Bob has joined your Two-player dominoes game."
    assert store.get("bob", stem + "game_started") is None  # he did it
