"""POST /games/{id}/cede: the seat offered the lead hands it to its partner (opening pair_lot)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import CEDE_LEAD, empty_body
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/cede")
def cede_lead(game_id: str) -> Response[Any]:
    return game_command(app, game_id, "leads_ceded", empty_body(CEDE_LEAD), service().commands.move)


handler = lambda_handler(app, records_metrics=True)
