"""GET, PUT and DELETE /me/vacation: the caller's vacation (away until a time: their turns in
games of turns of a day or more stand still; 30 days in any 365) and what is left of it."""

from typing import Any

from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import VacationBody, check_empty
from domino.api.request import caller
from domino.api.wiring import vacations

app = make_app(validation=False)


@app.get("/me/vacation")
def vacation() -> dict[str, Any]:
    return vacations().status(caller(app))


@app.put("/me/vacation")
def go_away() -> dict[str, Any]:
    who = caller(app)  # 401 before 400
    return vacations().start(who, VacationBody.parse(app.current_event.body))


@app.delete("/me/vacation")
def come_back() -> dict[str, Any]:
    who = caller(app)
    check_empty(app.current_event.body)
    return vacations().stop(who)


handler = lambda_handler(app)
