"""template.yaml holds what the product promises about its deployed stack."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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
