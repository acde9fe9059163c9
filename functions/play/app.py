"""POST /games/{id}/play: lay a tile on an end."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import PlayTile
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/play")
def play(game_id: str) -> Response[Any]:
    return game_command(app, game_id, "moves_played", PlayTile.parse, service().commands.move)


handler = lambda_handler(app, records_metrics=True)
