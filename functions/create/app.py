"""POST /games: create a game; the creator takes seat 0 and bots fill the last seats."""

from typing import Any

from domino.api.app import make_app
from domino.api.http import lambda_handler, mutate, service
from domino.api.models import CreateGame

app = make_app(validation=False)


@app.post("/games")
def create() -> Any:
    # Parsed here rather than by the resolver: the body is JSON whatever Content-Type says;
    # inside the command, so that a missing caller is 401 before a bad body is 400.
    body = app.current_event.body
    return mutate(
        app, lambda caller: service().create(caller, CreateGame.parse(body)), "games_created"
    )


handler = lambda_handler(app, records_metrics=True)
