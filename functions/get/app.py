"""GET /games/{id}: the caller's view of a game (the public view for a caller with no seat)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.request import caller
from domino.api.responses import respond, seen
from domino.api.wiring import service

app = make_app()


@app.get("/games/<game_id>")
def get_game(game_id: str) -> Response[Any]:
    return respond(seen(service().queries.get(caller(app), game_id)), app)


handler = lambda_handler(app)
