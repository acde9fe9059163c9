"""PUT and DELETE /games/{id}/premoves: a seated player's conditional pre-moves (the lines are
theirs only; storing them is not a change of the game: its version stays)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import PremovesBody, check_empty
from domino.api.request import caller
from domino.api.responses import no_content
from domino.api.wiring import service

app = make_app(validation=False)


@app.put("/games/<game_id>/premoves")
def store_premoves(game_id: str) -> dict[str, Any]:
    who = caller(app)  # 401 before 404 and 400
    body = app.current_event.body
    return service().premoves.put(who, game_id, lambda: PremovesBody.parse(body))


@app.delete("/games/<game_id>/premoves")
def forget_premoves(game_id: str) -> Response[Any]:
    who = caller(app)
    check_empty(app.current_event.body)
    service().premoves.delete(who, game_id)
    return no_content()


handler = lambda_handler(app)
