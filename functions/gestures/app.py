"""Gestures at the table: POST /games/{id}/emotes (an emote to every seated player's sockets,
never stored: 204) and POST /games/{id}/nudge (the player on turn gets ``nudge``, once per turn:
204)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import EmoteBody, check_empty
from domino.api.request import caller
from domino.api.responses import no_content
from domino.api.wiring import gestures

app = make_app(validation=False)


@app.post("/games/<game_id>/emotes")
def emote(game_id: str) -> Response[Any]:
    who = caller(app)  # 401 before 404 and 400
    body = app.current_event.body
    gestures().emote(who, game_id, lambda: EmoteBody.parse(body))
    return no_content()


@app.post("/games/<game_id>/nudge")
def nudge(game_id: str) -> Response[Any]:
    who = caller(app)
    body = app.current_event.body
    gestures().nudge(who, game_id, lambda: check_empty(body))
    return no_content()


handler = lambda_handler(app)
