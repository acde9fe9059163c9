"""GET /games/{id}/moves?after=N: the move log above N, a drawn tile shown only to its drawer."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.http import caller, lambda_handler, respond, service, tagged

app = make_app()


@app.get("/games/<game_id>/moves")
def moves(game_id: str, after: Annotated[int, Query(ge=0, le=10**9)] = 0) -> Response[Any]:
    version, log = service().queries.moves(caller(app), game_id, after)
    return respond(tagged({"moves": log, "next": None}, version))


handler = lambda_handler(app)
