"""The ``domino-admin`` command: what the operator does about players, with AWS credentials
straight against the stack's table (there is no HTTP route for any of it, so no player's token
can reach it): list a day's reports, rename a player, ban and unban.

It reads the stack's table names as the functions do (``TABLE_NAME``, ``IDEMPOTENCY_TABLE``;
``--table`` and ``--idempotency-table`` set them) and the WebSocket management endpoint from
``WS_ENDPOINT`` (a ban closes the player's sockets through it). ``--local`` points it at
``make run`` instead: DynamoDB Local on ``--ddb-port``, the runtime's sockets on ``--port``,
and "today" is the runtime's clock (``GET /dev/clock``), which tests and players move on: the
reports are stamped with it.

Exit codes: 0 done; 1 refused (no such player, a name that cannot be shown); 2 a usage error.
"""

from __future__ import annotations

import datetime
import json
import os
import urllib.request
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

EXIT_REFUSED = 1
#: the local runtime's management API path (local/websocket.py)
LOCAL_WS_PATH = "/ws"
#: the local runtime's clock (local/devroutes.py); None when not ``--local``
local_clock_url: str | None = None

app = typer.Typer(
    name="domino-admin",
    help="Operate the domino backend: reports, renames and bans (AWS credentials, no HTTP).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

Player = Annotated[str, typer.Argument(help="The player's id (a token's sub).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


@app.callback()
def target(
    table: Annotated[
        str | None, typer.Option(envvar="TABLE_NAME", help="The stack's game table.")
    ] = None,
    idempotency_table: Annotated[
        str | None,
        typer.Option(envvar="IDEMPOTENCY_TABLE", help="The stack's idempotency table."),
    ] = None,
    local: Annotated[
        bool, typer.Option("--local", help="Operate `make run`'s DynamoDB Local instead.")
    ] = False,
    port: Annotated[int, typer.Option(help="With --local: the runtime's port.")] = 3000,
    ddb_port: Annotated[int, typer.Option(help="With --local: DynamoDB Local's port.")] = 8000,
) -> None:
    """Where the tables are: the environment the functions see, or ``--local``."""
    global local_clock_url
    if local:
        local_clock_url = f"http://127.0.0.1:{port}/dev/clock"
        os.environ.update(
            {
                "DEV_MODE": "true",
                "AWS_ENDPOINT_URL_DYNAMODB": f"http://127.0.0.1:{ddb_port}",
                "AWS_DEFAULT_REGION": "us-east-1",
                "AWS_ACCESS_KEY_ID": "local",
                "AWS_SECRET_ACCESS_KEY": "local",
                "WS_ENDPOINT": f"http://127.0.0.1:{port}{LOCAL_WS_PATH}",
            }
        )
    if table:
        os.environ["TABLE_NAME"] = table
    if idempotency_table:
        os.environ["IDEMPOTENCY_TABLE"] = idempotency_table
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")


def moderation() -> Any:
    """The service, built as the functions build theirs (imported late: ``--help`` needs no
    table, and the settings are read after ``target`` set them)."""
    from domino.api.settings import ConfigurationError
    from domino.api.wiring import moderation as built

    try:
        return built()
    except ConfigurationError as error:
        refuse(f"{error}: pass --table and --idempotency-table, or --local")


def refuse(message: str) -> None:
    err.print(Text(message, style="bold red"))
    raise typer.Exit(EXIT_REFUSED)


def guarded(action: Any, *args: Any) -> Any:
    """The service's refusals as one red line and exit 1."""
    from domino.engine.errors import InvalidInput
    from domino.service.errors import PlayerNotFound

    try:
        return action(*args)
    except PlayerNotFound:
        refuse(f"no such player: {args[0]}")
    except InvalidInput as error:
        refuse(str(error))


def today() -> datetime.datetime:
    """Now by the clock the reports were stamped with: ``make run``'s when ``--local`` (it may
    have been moved on), else the machine's."""
    if local_clock_url is not None:
        try:
            with urllib.request.urlopen(local_clock_url, timeout=5) as answer:
                offset = float(json.load(answer)["offset"])
        except (OSError, ValueError, KeyError):
            offset = 0.0  # the runtime is not up: the machine's clock is the best guess
        return datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=offset)
    return datetime.datetime.now(datetime.UTC)


@app.command()
def reports(
    day: Annotated[
        datetime.datetime | None,
        typer.Option(formats=["%Y-%m-%d"], help="The UTC day (default: today)."),
    ] = None,
    days: Annotated[int, typer.Option(min=1, max=31, help="Days back from DAY.")] = 1,
    as_json: AsJson = False,
) -> None:
    """The reports players made, a day at a time, oldest first."""
    last = (day or today()).date()
    service = moderation()
    found = []
    for back in range(days - 1, -1, -1):
        found += service.reports(last - datetime.timedelta(days=back))
    if as_json:
        typer.echo(json.dumps([r._asdict() for r in found], indent=2, ensure_ascii=False))
        return
    shown = Table("at (UTC)", "reported", "reason", "by", "game", "note")
    for report in found:
        at = datetime.datetime.fromtimestamp(report.at, datetime.UTC).strftime("%Y-%m-%d %H:%M")
        shown.add_row(
            at, report.player, report.reason, report.reporter, report.game or "", report.note or ""
        )
    out.print(shown)
    out.print(f"{len(found)} report(s)")


@app.command()
def rename(player: Player, name: Annotated[str, typer.Argument(help="The name to show.")]) -> None:
    """Give a player a display name (their next seats and leaderboard rows show it)."""
    kept = guarded(moderation().rename, player, name)
    out.print(f"{player} is now shown as {kept!r}")


@app.command()
def ban(
    player: Player,
    reason: Annotated[str, typer.Option(help="Why (kept with the ban).")] = "",
    as_json: AsJson = False,
) -> None:
    """Ban a player: every token of theirs is 401, their search is cancelled, their sockets
    closed, and bots take their seats (the other players' games go on)."""
    banned = guarded(moderation().ban, player, reason)
    if as_json:
        typer.echo(json.dumps(banned._asdict()))
        return
    search = ", their search cancelled" if banned.ticket_cancelled else ""
    out.print(f"{player} is banned: {banned.games_left} game(s) left to bots{search}")


@app.command()
def unban(player: Player) -> None:
    """Lift a ban (games the ban left stay left)."""
    if not guarded(moderation().unban, player):
        refuse(f"{player} was not banned")
    out.print(f"{player} may play again")


def main() -> None:
    app()
