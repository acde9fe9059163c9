"""POST /games/{id}/draw: draw from the boneyard (the view's you.drawn holds the tile)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import DRAW_TILE, empty_body
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/draw")
def draw(game_id: str) -> Response[Any]:
    return game_command(app, game_id, "tiles_drawn", empty_body(DRAW_TILE), service().commands.move)


handler = lambda_handler(app, records_metrics=True)
