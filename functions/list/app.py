"""GET /games?status=waiting (open public games) and GET /me/games (the caller's games)."""

from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.http import caller, lambda_handler, respond_page, service

app = make_app()

Limit = Annotated[int, Query(ge=1, le=100)]
#: the form of updated_at: 2026-11-30T12:00:00Z
ISO_UTC = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"
Cursor = Annotated[str | None, Query(min_length=1, max_length=512)]


@app.get("/games")
def open_games(
    status: Annotated[Literal["waiting"], Query()] = "waiting",
    limit: Limit = 20,
    cursor: Cursor = None,
) -> Response[Any]:
    return respond_page(app, service().queries.open_games(caller(app), limit, cursor), "games")


@app.get("/me/games")
def my_games(
    status: Annotated[Literal["waiting", "playing", "finished"] | None, Query()] = None,
    turn: Annotated[Literal["mine"] | None, Query()] = None,
    limit: Limit = 20,
    cursor: Cursor = None,
    updated_after: Annotated[str | None, Query(pattern=ISO_UTC)] = None,
) -> Response[Any]:
    page = service().queries.my_games(
        caller(app), status, turn == "mine", limit, cursor, updated_after
    )
    return respond_page(app, page, "games")


handler = lambda_handler(app)
