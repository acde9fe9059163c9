"""A finished match's analysis through the handlers on DynamoDB Local: 409 while the match runs,
``pending`` until the analysis function has run, the job queued by the stream as the match
finishes, computed and kept once however often it is delivered, and what it answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from domino.api import wiring

from local.invoke import LambdaContext, load_handler
from tests.integration.client import TEMPLATE, Api

pytestmark = pytest.mark.ddb


def analyse(game: str) -> dict[str, Any]:
    """functions/analysis on one job of the queue, as SQS delivers it."""
    props = TEMPLATE.resources["AnalysisFunction"]["Properties"]
    handler = load_handler(TEMPLATE.root / props["CodeUri"], props["Handler"])
    event = {
        "Records": [
            {
                "messageId": f"job-{game}",
                "receiptHandle": "r",
                "body": json.dumps({"game": game}),
                "attributes": {"ApproximateReceiveCount": "1"},
                "messageAttributes": {},
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:000000000000:AnalysisQueue",
            }
        ]
    }
    result: dict[str, Any] = handler(event, LambdaContext(function_name="AnalysisFunction"))
    return result


def played_then_left(api: Api, player: str) -> str:
    """A person plays a few turns against a bot, then leaves: the bot plays the match out."""
    game = api.create(player, preset="dos-jugadores", players=2, bots=1, seed=4).ok(201)["id"]
    for _ in range(6):
        view = api.get(game, player).ok()
        you = view.get("you") or {}
        if view["status"] != "playing" or view["turn"] != you.get("seat"):
            break
        if you["legal"]:
            api.play(game, player, you["legal"][-1]["tile"], you["legal"][-1]["end"]).ok()
        elif you["can_draw"]:
            api.draw(game, player).ok()
        else:
            api.pass_(game, player).ok()
    api.leave(game, player).ok()
    api.drain()
    return str(game)


def test_an_analysis_is_pending_then_ready_and_computed_once(api: Api, monkeypatch: Any) -> None:
    running = api.create("ana", preset="dos-jugadores", players=2).ok(201)["id"]
    early = api.call("GET", f"/games/{running}/analysis", player="ana")
    assert (early.status, early.body["error"]["code"]) == (409, "match_not_over")

    queued: list[str] = []
    monkeypatch.setattr(wiring.analyses(), "queue", queued.append)
    game = played_then_left(api, "bea")
    assert queued == [game]  # the stream queued the job as the match finished
    pending = api.call("GET", f"/games/{game}/analysis", player="bea").ok()
    assert pending == {"status": "pending", "players": [], "moves": []}

    assert analyse(game) == {"batchItemFailures": []}
    ready = api.call("GET", f"/games/{game}/analysis", player="bea").ok()
    assert ready["status"] == "ready"
    (bea,) = ready["players"]
    assert bea["seat"] == 0 and bea["decisions"] == len(ready["moves"])
    for move in ready["moves"]:
        assert move["seat"] == 0 and move["best"] in move["values"]
        assert move["played"] in move["values"]
    assert bea["points_lost"] == pytest.approx(
        sum(m["values"][m["best"]] - m["values"][m["played"]] for m in ready["moves"]), abs=0.05
    )
    # delivered again: nothing recomputed, the same answer
    assert wiring.analyses().run(game) is False
    assert api.call("GET", f"/games/{game}/analysis", player="bea").ok() == ready
    # a stranger may read a public match's analysis
    assert api.call("GET", f"/games/{game}/analysis", player="cai").status == 200
