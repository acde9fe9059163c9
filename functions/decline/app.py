"""POST /games/{id}/decline: an invitee turns down their reserved seat, which is free again."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import game_command
from domino.api.models import LEAVE, empty_body
from domino.api.wiring import service

app = make_app(validation=False)


@app.post("/games/<game_id>/decline")
def decline(game_id: str) -> Response[Any]:
    invitations = service().invitations
    return game_command(
        app, game_id, "invitations_declined", empty_body(LEAVE), invitations.decline
    )


handler = lambda_handler(app, records_metrics=True)
