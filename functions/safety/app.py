"""Safety among strangers: PUT/DELETE /me/blocks/{player} (block, unblock: 204), GET /me/blocks
(a page of the caller's blocks) and POST /players/{id}/reports (a report kept for the operator:
202, once per reporter, player and reason within 24 hours)."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import ReportBody
from domino.api.request import caller
from domino.api.responses import no_content, respond_page
from domino.api.wiring import safety

app = make_app()


@app.put("/me/blocks/<player>")
def block(player: str) -> Response[Any]:
    safety().block(caller(app), player)
    return no_content()


@app.delete("/me/blocks/<player>")
def unblock(player: str) -> Response[Any]:
    safety().unblock(caller(app), player)
    return no_content()


@app.get("/me/blocks")
def blocks(
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cursor: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
) -> Response[Any]:
    return respond_page(app, safety().blocks(caller(app), limit, cursor), "blocks")


@app.post("/players/<player>/reports")
def report(player: str) -> Response[Any]:
    who = caller(app)  # 401 before 400
    command = ReportBody.parse(app.current_event.body)
    safety().report(who, player, command)
    return Response(status_code=202, body="")


handler = lambda_handler(app)
