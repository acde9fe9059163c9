"""GET /games/{id}: the caller's view of a game (the public view for a caller with no seat)."""

from typing import Any

from domino.api.app import make_app
from domino.api.http import caller, lambda_handler, respond, service

app = make_app()


@app.get("/games/<game_id>")
def get_game(game_id: str) -> Any:
    return respond(service().get(caller(app), game_id))


handler = lambda_handler(app)
