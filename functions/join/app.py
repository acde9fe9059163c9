"""POST /games/{id}/join: take a seat; filling the last seat deals the first hand."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import JoinGame
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/join")
def join(game_id: str) -> Response[Any]:
    return game_command(app, game_id, "games_joined", JoinGame.parse, service().commands.join)


handler = lambda_handler(app, records_metrics=True)
