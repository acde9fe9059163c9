"""GET /players/{id} (a player's public profile: ratings and stats), GET /leaderboards/{pool}
(the pool's top, highest first) and GET /leaderboards/{pool}/me (the caller's rating, rank and
percentile). Each answer carries an ETag: a GET naming it in If-None-Match is 304."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.request import caller
from domino.api.responses import respond_digest
from domino.api.wiring import path_pool, ratings

app = make_app()

Limit = Annotated[int, Query(ge=1, le=100)]
Cursor = Annotated[str | None, Query(min_length=1, max_length=512)]


@app.get("/players/<player_id>")
def player(player_id: str) -> Response[Any]:
    caller(app)
    return respond_digest(app, ratings().player(player_id))


@app.get("/leaderboards/<pool>")
def leaderboard(pool: str, limit: Limit = 20, cursor: Cursor = None) -> Response[Any]:
    caller(app)
    return respond_digest(app, ratings().leaderboard(path_pool(pool), limit, cursor))


@app.get("/leaderboards/<pool>/me")
def my_rank(pool: str) -> Response[Any]:
    who = caller(app)
    return respond_digest(app, ratings().mine(who.player, path_pool(pool)))


handler = lambda_handler(app)
