"""POST /games/{id}/leave: free a seat before the deal, or hand it to a bot (a forfeit)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import LEAVE, empty_body
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/leave")
def leave(game_id: str) -> Response[Any]:
    return game_command(app, game_id, "games_left", empty_body(LEAVE), service().commands.leave)


handler = lambda_handler(app, records_metrics=True)
