"""GET /games/{id}/moves?after=N&limit=L: the move log above N, L moves a page (100 by default,
at most 1,000), a drawn tile shown only to its drawer; ``next`` is the ``after`` of the next
page (null on the last). GET /games/{id}/record: a finished match's every deal and move;
GET /games/{id}/analysis: its analysis (pending until functions/analysis has kept it)."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.request import caller
from domino.api.responses import respond, tagged
from domino.api.wiring import analyses, service

app = make_app()


@app.get("/games/<game_id>/moves")
def moves(
    game_id: str,
    after: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> Response[Any]:
    page = service().queries.moves(caller(app), game_id, after, limit)
    body = {"moves": page.moves, "next": page.next}
    return respond(tagged(body, page.version, page.seat), app)


@app.get("/games/<game_id>/record")
def record(game_id: str) -> dict[str, Any]:
    return service().history.record(caller(app), game_id)


@app.get("/games/<game_id>/analysis")
def analysis(game_id: str) -> dict[str, Any]:
    return analyses().get(caller(app), game_id)


handler = lambda_handler(app)
