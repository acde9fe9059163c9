"""Every file in events/ replays through its function's handler, as `sam local invoke -e` would.

``events/<function>.json`` (and ``events/<function>.<variant>.json``) belong to the function
whose CodeUri is ``functions/<function>/``; each is a valid example, so it must succeed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from domino.local.invoke import LambdaContext, load_handler
from domino.local.template import Template

EVENTS = sorted((Path(__file__).resolve().parents[1] / "events").glob("*.json"))
TEMPLATE = Template()
FUNCTIONS = {
    Path(res["Properties"]["CodeUri"]).name: (name, res["Properties"])
    for name, res in TEMPLATE.of_type("AWS::Serverless::Function").items()
}


def test_every_function_has_an_event() -> None:
    covered = {path.name.split(".")[0] for path in EVENTS}
    assert set(FUNCTIONS) <= covered, (
        f"functions without an events/ file: {set(FUNCTIONS) - covered}"
    )


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.name)
def test_event_replays_through_its_handler(path: Path, ddb_endpoint: str) -> None:
    function = path.name.split(".")[0]
    assert function in FUNCTIONS, f"{path.name} names no function in template.yaml"
    name, props = FUNCTIONS[function]
    handler = load_handler(TEMPLATE.root / props["CodeUri"], props.get("Handler", "app.handler"))
    event = json.loads(path.read_text())
    result = handler(event, LambdaContext(function_name=name))
    assert 200 <= result["statusCode"] < 300, result
    if result.get("body"):
        json.loads(result["body"])
