"""POST /games/{id}/rematch: the next match of a finished one, the same for everyone who asks
(201 when this request made it, 200 after)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.errors import InvalidRequest
from domino.api.idempotency import mutate
from domino.api.models import check_empty, parse_if_match
from domino.api.request import Caller, header
from domino.api.responses import Reply, seen
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> Response[Any]:
    body, if_match = app.current_event.body, header(app, "If-Match")

    def precheck() -> int | None:
        try:
            check_empty(body)
            return parse_if_match(if_match) if if_match is not None else None
        except InvalidRequest:
            service().queries.load(game_id)  # the contract answers 404 before 400
            raise

    def command(caller: Caller) -> Reply:
        expected = precheck()
        made = service().invitations.rematch(caller, game_id, expected)
        if made.created:
            return seen(made.game, 201, Location=f"/games/{made.game.game_id}")
        return seen(made.game)

    return mutate(app, command, "rematches", precheck=precheck)


handler = lambda_handler(app, records_metrics=True)
