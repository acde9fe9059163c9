"""POST /games/{id}/pass: pass when you can neither play nor draw."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import PASS_TURN, empty_body
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/pass")
def pass_turn(game_id: str) -> Response[Any]:
    return game_command(
        app, game_id, "turns_passed", empty_body(PASS_TURN), service().commands.move
    )


handler = lambda_handler(app, records_metrics=True)
