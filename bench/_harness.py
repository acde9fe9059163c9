"""A tree's handlers called in-process, on a DynamoDB Local of the benchmark's own (a helper
module: ``make bench`` does not run it): the tables, the environment, games and moves."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from _tree import Tree

#: what the handlers read, besides the template's variables (local.environment)
ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
    "TABLE_NAME": "GameTable",
    "IDEMPOTENCY_TABLE": "IdempotencyTable",
    "DEV_MODE": "true",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "DOMINO_TRACK_CAPACITY": "true",
}
JSON = {"content-type": "application/json"}


@contextmanager
def database(tree: Tree, endpoint: str | None = None, **env: str) -> Iterator[str]:
    """The tree's tables on a DynamoDB Local of our own (in memory, a free port), or on the
    one at ``endpoint``; the handlers' environment set (ENV, then ``env``)."""
    from local.environment import local_environment
    from local.harness import local_database
    from local.tables import ensure_tables
    from local.template import Template

    template = Template(tree.template)
    os.environ.update(ENV)
    os.environ.pop("AWS_PROFILE", None)
    if endpoint is None:
        with local_database(template, {**ENV, **env}) as url:
            yield url
        return
    ensure_tables(endpoint, template)
    os.environ.update({**local_environment(template, endpoint), **ENV, **env})
    yield endpoint


def harness(tree: Tree, endpoint: str) -> Any:
    """The tree's routes and stream functions, called in-process (quiet: no metric blobs)."""
    from local.harness import Harness
    from local.template import Template

    return Harness(Template(tree.template), endpoint=endpoint, quiet=True)


def as_player(
    api: Any, method: str, path: str, player: str, body: Any = None, **headers: str
) -> Any:
    """``api.call`` as ``player`` (the JWT claims API Gateway would pass), JSON in and out."""
    claims = {"sub": player, "name": player}
    return api.call(method, path, body, claims=claims, headers={**JSON, **headers})


def new_game(api: Any, preset: str, players: int, seed: int) -> tuple[str, dict[str, Any]]:
    """A seeded game of ``players`` people (``p0`` creates it, the others join)."""
    reply = as_player(
        api, "POST", "/games", "p0", {"preset": preset, "players": players, "seed": seed}
    )
    assert reply.status == 201, reply.body
    view = reply.body
    for seat in range(1, players):
        reply = as_player(api, "POST", f"/games/{view['id']}/join", f"p{seat}", {})
        assert reply.status == 200, reply.body
        view = reply.body
    return view["id"], view


def choose(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The seat's first legal play, else a draw, else a pass."""
    you = view["you"]
    if you["legal"]:
        return "play", dict(you["legal"][0])
    if you["can_draw"]:
        return "draw", {}
    return "pass", {}


def raw_client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=2, read_timeout=5
    )
    return boto3.session.Session().client("dynamodb", endpoint_url=endpoint, config=config)


def game_key(game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}
