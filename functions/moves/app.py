"""GET /games/{id}/moves?after=N: the move log above N, a drawn tile shown only to its drawer."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.http import caller, lambda_handler, respond, service

app = make_app()


@app.get("/games/<game_id>/moves")
def moves(game_id: str, after: Annotated[int, Query(ge=0, le=10**9)] = 0) -> Any:
    return respond(service().moves(caller(app), game_id, after))


handler = lambda_handler(app)
