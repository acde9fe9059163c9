"""The in-process harness the integration tests and the benchmarks share (local/harness.py):
what it builds from template.yaml alone. Its calls on DynamoDB Local run in tests/integration."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from local.harness import Harness, Reply, reply_of
from local.template import Template


def test_a_route_is_found_with_its_parameters_and_without_the_query() -> None:
    route, params = Harness().route("POST", "/games/g1/play?x=1")
    assert (route.route_key, route.function, params) == (
        "POST /games/{id}/play",
        "PlayFunction",
        {"id": "g1"},
    )
    with pytest.raises(AssertionError, match="no route"):
        Harness().route("PATCH", "/games/g1/play")


def test_the_event_is_api_gateways_v2_with_the_claims_and_a_json_body() -> None:
    event = Harness().event(
        "POST", "/games/g1/play?after=2", [1, 2], claims={"sub": "bob"}, headers={"X-A": "b"}
    )
    assert event["version"] == "2.0"
    assert event["routeKey"] == "POST /games/{id}/play"
    assert event["pathParameters"] == {"id": "g1"}
    assert event["queryStringParameters"] == {"after": "2"}
    assert event["headers"] == {"x-a": "b"}
    assert event["body"] == "[1, 2]"  # not str, bytes or dict: sent as JSON
    assert event["requestContext"]["authorizer"]["jwt"]["claims"] == {"sub": "bob"}
    assert "authorizer" not in Harness().event("GET", "/health")["requestContext"]


def test_a_handler_answer_becomes_a_reply_as_api_gateway_maps_it() -> None:
    reply = reply_of({"statusCode": 404, "headers": {"X-N": 1}, "body": '{"error": {"code": "x"}}'})
    assert (reply.status, reply.code, reply.header("x-n")) == (404, "x", "1")
    assert reply_of({"statusCode": 204}).body is None
    bare = reply_of({"player": "a"})  # a bare value is a 200 JSON answer
    assert (bare.status, bare.body) == (200, {"player": "a"})
    encoded = base64.b64encode(b'{"a": 1}').decode()
    assert reply_of({"statusCode": 200, "body": encoded, "isBase64Encoded": True}).body == {"a": 1}
    assert Reply(200, {}, {"a": 1}, "").ok() == {"a": 1}
    with pytest.raises(AssertionError):
        Reply(500, {}, None, "").ok()


def test_it_drives_the_handlers_another_template_names(tmp_path: Path) -> None:
    """Only the template, the handler module it names and ``handler(event, context)``: what
    lets the benchmarks measure another checkout with this harness."""
    (tmp_path / "fn").mkdir()
    (tmp_path / "fn" / "main.py").write_text(
        "import json\n"
        "def run(event, context):\n"
        "    claims = event['requestContext']['authorizer']['jwt']['claims']\n"
        "    return {'statusCode': 200, 'body': json.dumps({'fn': context.function_name,\n"
        "            'who': claims['sub'], 'id': event['pathParameters']['id']})}\n"
    )
    (tmp_path / "template.yaml").write_text(
        """
Resources:
  Api: {Type: AWS::Serverless::HttpApi, Properties: {}}
  Echo:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: fn/
      Handler: main.run
      Events:
        Get:
          Type: HttpApi
          Properties: {ApiId: !Ref Api, Path: "/things/{id}", Method: GET}
"""
    )
    harness = Harness(Template(tmp_path / "template.yaml"), quiet=True)
    reply = harness.call("GET", "/things/7", claims={"sub": "carol"})
    assert reply.ok() == {"fn": "Echo", "who": "carol", "id": "7"}
    assert reply.elapsed > 0
    assert json.loads(reply.raw) == reply.body
