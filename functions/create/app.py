"""POST /games: create a game; the creator takes seat 0 and bots fill the last seats."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import mutate
from domino.api.models import CreateGame
from domino.api.request import Caller
from domino.api.responses import Reply, seen
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games")
def create() -> Response[Any]:
    # Parsed here rather than by the resolver: the body is JSON whatever Content-Type says;
    # inside the command, so that a missing caller is 401 before a bad body is 400.
    body = app.current_event.body

    def command(caller: Caller) -> Reply:
        game = service().commands.create(caller, CreateGame.parse(body))
        return seen(game, 201, Location=f"/games/{game.game_id}")

    return mutate(app, command, "games_created", precheck=lambda: CreateGame.parse(body))


handler = lambda_handler(app, records_metrics=True)
