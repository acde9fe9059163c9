"""GET /games?status=waiting (open public games) or ?status=playing (public games in play, to
watch), GET /me/games (the caller's games) and
GET /me/opponents (the people the caller met in finished matches)."""

from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import utc_second
from domino.api.request import caller
from domino.api.responses import respond_page
from domino.api.wiring import service

app = make_app()

Limit = Annotated[int, Query(ge=1, le=100)]
Cursor = Annotated[str | None, Query(min_length=1, max_length=512)]


@app.get("/games")
def open_games(
    status: Annotated[Literal["waiting", "playing"], Query()] = "waiting",
    limit: Limit = 20,
    cursor: Cursor = None,
) -> Response[Any]:
    queries = service().queries
    listing = queries.games_in_play if status == "playing" else queries.open_games
    return respond_page(app, listing(caller(app), limit, cursor), "games")


@app.get("/me/games")
def my_games(
    status: Annotated[Literal["waiting", "playing", "finished"] | None, Query()] = None,
    turn: Annotated[Literal["mine"] | None, Query()] = None,
    limit: Limit = 20,
    cursor: Cursor = None,
    updated_after: Annotated[str | None, Query(max_length=64)] = None,
) -> Response[Any]:
    who = caller(app)  # 401 before 400
    # any RFC 3339 time, read as updated_at's form (2026-11-30T12:00:00Z)
    since = utc_second(updated_after, "updated_after") if updated_after is not None else None
    page = service().queries.my_games(who, status, turn == "mine", limit, cursor, since)
    return respond_page(app, page, "games")


@app.get("/me/opponents")
def my_opponents(limit: Limit = 20, cursor: Cursor = None) -> Response[Any]:
    page = service().queries.opponents_of(caller(app), limit, cursor)
    return respond_page(app, page, "opponents")


handler = lambda_handler(app)
