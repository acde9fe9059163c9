"""template.yaml holds what the product promises about its deployed stack."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from local.template import Intrinsic, Template

REPO = Path(__file__).resolve().parents[1]
PUBLIC_ROUTES = {"GET /health", "GET /rules"}


def test_dev_mode_is_off_in_the_deployed_stack() -> None:
    env = Template().doc["Globals"]["Function"]["Environment"]["Variables"]
    assert env["DEV_MODE"] == "false"
    for res in Template().of_type("AWS::Serverless::Function").values():
        assert "DEV_MODE" not in res["Properties"].get("Environment", {}).get("Variables", {})


def test_no_dev_routes_are_deployed() -> None:
    assert not [r for r in Template().routes if r.path.startswith("/dev")]


def test_every_route_but_the_public_ones_needs_a_token() -> None:
    for route in Template().routes:
        assert route.auth == (route.route_key not in PUBLIC_ROUTES), route.route_key


def test_every_function_has_its_handler_file() -> None:
    template = Template()
    for name, res in template.of_type("AWS::Serverless::Function").items():
        props = res["Properties"]
        module = props.get("Handler", "app.handler").rpartition(".")[0]
        assert (template.root / props["CodeUri"] / f"{module}.py").exists(), name


def test_game_table_has_stream_ttl_and_indexes() -> None:
    props = Template().resources["GameTable"]["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["StreamSpecification"]["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    assert props["TimeToLiveSpecification"] == {"AttributeName": "ttl", "Enabled": True}
    assert {gsi["IndexName"] for gsi in props["GlobalSecondaryIndexes"]} >= {
        "by_turn",
        "open_games",
    }


def test_layer_pins_match_the_project_pins() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    layer = [
        line.strip()
        for line in (REPO / "shared" / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert sorted(layer) == sorted(project)
    assert all(re.search(r"==\d", pin) for pin in layer)


def test_tables_are_referenced_not_named() -> None:
    env = Template().doc["Globals"]["Function"]["Environment"]["Variables"]
    assert env["TABLE_NAME"] == Intrinsic("Ref", "GameTable")


# -------------------------------------------------------------------- operations: alarms

ALARMS = {  # docs/deploy.md "Alarms": what each watches
    "ArchiveFailuresAlarm": "the archive consumer's on-failure queue is not empty",
    "NotifyFailuresAlarm": "the notify consumer's on-failure queue is not empty",
    "ApiErrorRateAlarm": "the HTTP API's 5xx rate",
    "ApiClientErrorRateAlarm": "the HTTP API's 4xx rate (429s of a flood among them)",
    "GameTableThrottleAlarm": "the game table's throttle events",
    "GameIndexThrottleAlarm": "the game table's indexes' throttle events",
    "IdempotencyTableThrottleAlarm": "the idempotency table's throttle events",
    "CommandErrorsAlarm": "Lambda errors of the game commands",
    "ReadErrorsAlarm": "Lambda errors of the reads and the account",
    "BackgroundErrorsAlarm": "Lambda errors of the stream, schedule and WebSocket functions",
}
TOPIC = Intrinsic("Ref", "AlarmTopic")


def metric_stats(alarm: dict[str, Any]) -> list[dict[str, Any]]:
    """The metrics an alarm reads: its one metric, or those of its metric math."""
    props = alarm["Properties"]
    if "Metrics" not in props:
        return [{"Namespace": props["Namespace"], "MetricName": props["MetricName"],
                 "Dimensions": props.get("Dimensions", [])}]  # fmt: skip
    return [query["MetricStat"]["Metric"] for query in props["Metrics"] if "MetricStat" in query]


def dimension(metric: dict[str, Any], name: str) -> Any:
    return next((d["Value"] for d in metric["Dimensions"] if d["Name"] == name), None)


def watched(namespace: str, metric_name: str) -> list[dict[str, Any]]:
    return [
        metric
        for alarm in Template().of_type("AWS::CloudWatch::Alarm").values()
        for metric in metric_stats(alarm)
        if (metric["Namespace"], metric["MetricName"]) == (namespace, metric_name)
    ]


def test_every_alarm_exists_and_notifies_the_topic() -> None:
    alarms = Template().of_type("AWS::CloudWatch::Alarm")
    assert set(alarms) >= set(ALARMS)
    for name, alarm in alarms.items():
        props = alarm["Properties"]
        assert props["AlarmActions"] == [TOPIC], name
        assert props["OKActions"] == [TOPIC], name
        assert props.get("ActionsEnabled", True) is True, name
        assert "Condition" not in alarm, name
        # a metric math alarm reads at most 10 metrics (CloudWatch's hard limit) and returns one
        assert len(metric_stats(alarm)) <= 10, name
        if "Metrics" in props:
            assert [q["Id"] for q in props["Metrics"] if q.get("ReturnData")] != [], name
            assert len([q for q in props["Metrics"] if q.get("ReturnData")]) == 1, name


def test_the_topic_mails_the_address_given_or_no_one() -> None:
    template = Template()
    assert template.resources["AlarmTopic"]["Type"] == "AWS::SNS::Topic"
    assert template.doc["Parameters"]["AlarmEmail"]["Default"] == ""
    assert template.doc["Conditions"]["HasAlarmEmail"] == Intrinsic(
        "Not", [Intrinsic("Equals", [Intrinsic("Ref", "AlarmEmail"), ""])]
    )
    [subscription] = template.of_type("AWS::SNS::Subscription").values()
    assert subscription["Condition"] == "HasAlarmEmail"
    assert subscription["Properties"] == {
        "TopicArn": TOPIC,
        "Protocol": "email",
        "Endpoint": Intrinsic("Ref", "AlarmEmail"),
    }


def test_every_stream_consumer_has_an_on_failure_queue_with_an_alarm() -> None:
    template = Template()
    queues_watched = {
        dimension(metric, "QueueName")
        for metric in watched("AWS/SQS", "ApproximateNumberOfMessagesVisible")
    }
    consumers = 0
    for name, function in template.of_type("AWS::Serverless::Function").items():
        for event in function["Properties"].get("Events", {}).values():
            if event["Type"] not in ("DynamoDB", "Kinesis", "SQS"):
                continue
            consumers += 1
            if event["Type"] == "SQS":  # its failures go where the queue's redrive sends them
                source = event["Properties"]["Queue"].value.removesuffix(".Arn")
                redrive = template.resources[source]["Properties"]["RedrivePolicy"]
                queue = redrive["deadLetterTargetArn"]
            else:
                on_failure = event["Properties"]["DestinationConfig"]["OnFailure"]
                assert on_failure["Type"] == "SQS", name
                queue = on_failure["Destination"]
            assert queue.name == "GetAtt" and queue.value.endswith(".Arn"), name
            queue_name = queue.value.removesuffix(".Arn")
            assert template.resources[queue_name]["Type"] == "AWS::SQS::Queue", name
            assert Intrinsic("GetAtt", f"{queue_name}.QueueName") in queues_watched, name
    assert consumers >= 3  # archive, notify and the timers


def test_the_api_5xx_rate_is_watched() -> None:
    props = Template().resources["ApiErrorRateAlarm"]["Properties"]
    read = {m["MetricName"]: dimension(m, "ApiId") for m in metric_stats({"Properties": props})}
    assert read == {"5xx": Intrinsic("Ref", "HttpApi"), "Count": Intrinsic("Ref", "HttpApi")}
    assert props["Threshold"] == Intrinsic("Ref", "ApiErrorRatePercent")


def test_every_table_and_index_has_its_throttles_watched() -> None:
    template = Template()
    seen = {
        (kind, dimension(m, "TableName"), dimension(m, "GlobalSecondaryIndexName"))
        for kind in ("Read", "Write")
        for m in watched("AWS/DynamoDB", f"{kind}ThrottleEvents")
    }
    for table, res in template.of_type("AWS::DynamoDB::Table").items():
        indexes = [None] + [
            i["IndexName"] for i in res["Properties"].get("GlobalSecondaryIndexes", [])
        ]
        for index in indexes:
            for kind in ("Read", "Write"):
                assert (kind, Intrinsic("Ref", table), index) in seen, (kind, table, index)


def test_every_function_has_its_errors_watched() -> None:
    template = Template()
    functions = {Intrinsic("Ref", name) for name in template.of_type("AWS::Serverless::Function")}
    errors = [dimension(m, "FunctionName") for m in watched("AWS/Lambda", "Errors")]
    assert sorted(map(str, errors)) == sorted(map(str, functions))  # each once


def test_every_route_is_throttled_by_the_parameters() -> None:
    """HTTP APIs have no usage plans: the stage's default route throttling is the per-route
    ceiling docs/SECURITY.md ("Flooding") prices."""
    template = Template()
    limits = {
        "ThrottlingRateLimit": Intrinsic("Ref", "ThrottlingRateLimit"),
        "ThrottlingBurstLimit": Intrinsic("Ref", "ThrottlingBurstLimit"),
    }
    http_api = template.resources["HttpApi"]["Properties"]
    assert http_api["DefaultRouteSettings"] == limits
    assert template.resources["WebSocketStage"]["Properties"]["DefaultRouteSettings"] == limits
    params = template.doc["Parameters"]
    assert (
        params["ThrottlingRateLimit"]["Default"],
        params["ThrottlingBurstLimit"]["Default"],
    ) == (
        50,
        100,
    )


def test_the_deployed_authorizers_trust_only_the_stacks_issuer() -> None:
    """A dev token (issuer ``domino-local``, HS256 with a checkout's key) is refused deployed:
    both authorizers take the stack's Cognito pool or the JwtIssuer parameter, nothing else."""
    template = Template()
    issuer = Intrinsic(
        "If",
        [
            "UseCognito",
            Intrinsic("Sub", "https://cognito-idp.${AWS::Region}.amazonaws.com/${UserPool}"),
            Intrinsic("Ref", "JwtIssuer"),
        ],
    )
    jwt_config = template.resources["HttpApi"]["Properties"]["Auth"]["Authorizers"][
        "JwtAuthorizer"
    ]["JwtConfiguration"]
    assert jwt_config["issuer"] == issuer
    ws_env = template.resources["WsAuthFunction"]["Properties"]["Environment"]["Variables"]
    assert ws_env["JWT_ISSUER"] == issuer
    assert "domino-local" not in (REPO / "template.yaml").read_text()


def test_the_web_client_may_call_the_api_from_its_origin() -> None:
    """CORS on the HttpApi (docs/web.md "Host the web client"): the web origin is a parameter, the
    headers the client sends are allowed and the ones it reads are exposed; no credentials."""
    doc = Template().doc
    assert doc["Parameters"]["WebOrigin"]["Type"] == "CommaDelimitedList"
    assert doc["Parameters"]["WebOrigin"]["Default"] == "*"
    cors = doc["Resources"]["HttpApi"]["Properties"]["CorsConfiguration"]
    assert cors["AllowOrigins"] == Intrinsic("Ref", "WebOrigin")
    assert {
        "Authorization",
        "Content-Type",
        "If-Match",
        "If-None-Match",
        "Idempotency-Key",
        "Accept-Language",
    } <= set(cors["AllowHeaders"])
    assert {"ETag", "Location", "Retry-After", "Idempotency-Replayed"} <= set(cors["ExposeHeaders"])
    assert {"GET", "POST", "PUT", "PATCH", "DELETE"} <= set(cors["AllowMethods"])
    assert cors["AllowCredentials"] is False


# -------------------------------------------------------------------- permissions

GAME_TABLE = Intrinsic("GetAtt", "GameTable.Arn")


def game_table_actions(function: str) -> set[str]:
    """The DynamoDB actions ``function``'s inline policies allow on the game table itself."""
    props = Template().of_type("AWS::Serverless::Function")[function]["Properties"]
    actions: set[str] = set()
    for policy in props.get("Policies", []):
        for statement in policy.get("Statement", []) if isinstance(policy, dict) else []:
            if isinstance(statement, Intrinsic):  # !If [condition, statement, AWS::NoValue]
                statement = statement.value[1]
            if not isinstance(statement, dict):
                continue
            resources = statement.get("Resource", [])
            if GAME_TABLE in (resources if isinstance(resources, list) else [resources]):
                actions.update(statement["Action"])
    return actions


def test_every_authenticated_function_may_read_its_callers_ban_with_a_game() -> None:
    """An authenticated call reads its caller's ban with the call's first GetItem, in one
    BatchGetItem (store/table.py ``read_with_next``): deployed, a role without that action
    would answer every such call 500."""
    functions = {route.function for route in Template().routes if route.auth}
    assert len(functions) > 20
    for function in sorted(functions):
        actions = game_table_actions(function)
        assert {"dynamodb:GetItem", "dynamodb:BatchGetItem"} <= actions, (function, actions)
