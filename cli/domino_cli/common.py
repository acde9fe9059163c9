"""What every ``domino`` command shares: the consoles, the exit codes, the common options, the
API client built from the saved settings, and the API's refusals shown as one line."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from domino_cli import config, live, oauth, render
from domino_cli.api import Api, ApiError, NetworkError

EXIT_API_ERROR, EXIT_USAGE, EXIT_NETWORK, EXIT_TIMED_OUT = 1, 2, 3, 4  # 2: as typer's own

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

GameId = Annotated[str, typer.Argument(help="The game's id.")]
#: Game ids are URL-safe base64 and may start with "-": without this, click would take such an
#: id for an unknown option. These commands have no short options, so nothing else changes
#: but that a misspelt option is reported as an extra argument.
TAKES_A_GAME_ID = {"ignore_unknown_options": True}
AsJson = Annotated[bool, typer.Option("--json", help="Print the API's JSON answer as it came.")]
IfMatch = Annotated[
    int | None,
    typer.Option(help="Refuse the move (412 version_mismatch) if the game is past this version."),
]


@contextmanager
def reported() -> Iterator[None]:
    """The API's refusals and network failures as one red line and a non-zero exit."""
    try:
        yield
    except ApiError as error:
        hint = "  (run `domino login`)" if error.code == "unauthorized" else ""
        err.print(Text(f"error {error.code}: {error.message}{hint}", style="bold red"))
        raise typer.Exit(EXIT_API_ERROR) from None
    except NetworkError as error:
        err.print(Text(f"network error: {error}", style="bold red"))
        raise typer.Exit(EXIT_NETWORK) from None
    except live.WatchTimedOut as error:
        err.print(Text(f"watch timed out: {error}", style="bold red"))
        raise typer.Exit(EXIT_TIMED_OUT) from None


def api() -> Api:
    settings = config.load()
    token = settings.token
    if (
        token
        and settings.refresh_token
        and settings.auth_domain
        and settings.client_id
        and oauth.expires_soon(token)
    ):
        hosted = oauth.Hosted(settings.auth_domain, settings.client_id)
        try:
            token = oauth.renew(hosted, settings.refresh_token)
        except oauth.SignInFailed as error:
            err.print(Text(f"could not renew your sign-in ({error}): run `domino login --hosted`"))
            raise typer.Exit(EXIT_API_ERROR) from None
        config.save(dataclasses.replace(settings, token=token))
    return Api(settings.url, token)


def print_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


def show_view(view: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(view)
    else:
        render.render_game(out, view)
