"""The correspondence commands: ``domino settings`` (forced moves, quiet hours), ``domino
premove``, ``domino vacation`` and ``domino review``, and what they parse."""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import typer

from domino_cli import render
from domino_cli.api import game_path
from domino_cli.common import AsJson, GameId, api, out, print_json, reported


def premove_move(spec: str) -> dict[str, Any]:
    """``SEAT:play:TILE[:END]``, ``SEAT:draw`` or ``SEAT:pass`` as a line's move."""
    parts = spec.split(":")
    if len(parts) < 2 or not parts[0].isdigit() or parts[1] not in ("play", "draw", "pass"):
        raise typer.BadParameter(f"{spec!r}: write SEAT:play:TILE[:END], SEAT:draw or SEAT:pass")
    move: dict[str, Any] = {"seat": int(parts[0]), "action": parts[1]}
    if parts[1] == "play":
        if len(parts) not in (3, 4):
            raise typer.BadParameter(f"{spec!r}: a play is SEAT:play:TILE[:END]")
        move["tile"] = parts[2]
        if len(parts) == 4:
            move["end"] = parts[3]
    elif len(parts) != 2:
        raise typer.BadParameter(f"{spec!r}: a draw or a pass names no tile")
    return move


def quiet_hours(window: str, tz: str | None) -> dict[str, str]:
    """``22:00-08:00`` and a zone (this machine's when None) as ``PATCH /me`` takes them; the
    server checks the times and the zone."""
    start, dash, end = window.partition("-")
    if not dash:
        raise typer.BadParameter(f"{window!r}: write FROM-TO, like 22:00-08:00")
    return {"from": start, "to": end, "tz": tz or local_zone()}


def local_zone() -> str:
    """This machine's IANA zone: ``TZ``, else what /etc/localtime links to, else UTC."""
    named = os.environ.get("TZ", "").lstrip(":")
    if named:
        return named
    with contextlib.suppress(OSError):
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            return target.split("zoneinfo/", 1)[1]
    return "UTC"


def settings(
    auto_forced: Annotated[
        bool | None,
        typer.Option(
            "--auto-forced/--no-auto-forced",
            help="Have a turn with one thing to do (one tile, a draw, a pass) made at once.",
        ),
    ] = None,
    quiet: Annotated[
        str | None,
        typer.Option(
            "--quiet",
            metavar="FROM-TO",
            help="Hold pushes between these local times (22:00-08:00): one sums up at the end.",
        ),
    ] = None,
    tz: Annotated[
        str | None,
        typer.Option(help="Your IANA time zone for --quiet (Europe/Madrid); default: this one."),
    ] = None,
    no_quiet: Annotated[bool, typer.Option("--no-quiet", help="No quiet hours.")] = False,
    as_json: AsJson = False,
) -> None:
    """Your settings; an option changes it (PATCH /me)."""
    client = api()
    change: dict[str, Any] = {}
    if auto_forced is not None:
        change["auto_forced"] = auto_forced
    if no_quiet:
        change["quiet_hours"] = None
    elif quiet is not None:
        change["quiet_hours"] = quiet_hours(quiet, tz)
    with reported():
        answer = client.request("PATCH", "/me", change) if change else client.get("/me")
    if as_json:
        print_json(answer)
    else:
        render.render_settings(out, answer)


def premove(
    game: GameId,
    moves: Annotated[
        list[str] | None,
        typer.Option(
            "--if", help="The others' moves, in order: SEAT:play:TILE[:END], SEAT:draw, SEAT:pass."
        ),
    ] = None,
    then: Annotated[
        str | None, typer.Option(help="Your reply when they make exactly those: TILE[:END].")
    ] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Forget your pre-moves.")] = False,
    as_json: AsJson = False,
) -> None:
    """Answer the other players' moves in advance (one line; it replaces any you stored)."""
    client = api()
    path = f"{game_path(game)}/premoves"
    if clear:
        with reported():
            client.request("DELETE", path)
        out.print("Your pre-moves are cleared.")
        return
    if then is None:
        raise typer.BadParameter("--then TILE[:END] is the reply (or --clear)")
    tile, _, end = then.partition(":")
    reply: dict[str, Any] = {"tile": tile} | ({"end": end} if end else {})
    line = {"if": [premove_move(m) for m in moves or []], "then": reply}
    with reported():
        answer = client.request("PUT", path, {"lines": [line]})
    if as_json:
        print_json(answer)
    else:
        render.render_premoves(out, answer["lines"])


#: a vacation of N days ends this much short of N days on the terminal's clock: the server
#: counts 24-hour periods from its own time, a started one counted, so a clock a few seconds
#: ahead of the server's was charged a day more (and 30 days asked with 30 left refused)
CLOCK_MARGIN = timedelta(minutes=5)


def vacation_until(days: float, now: datetime) -> str:
    """The ``until`` of a vacation of ``days`` from ``now`` (the terminal's clock, UTC): short
    of it by CLOCK_MARGIN, or by half of a vacation shorter than two margins."""
    span = timedelta(days=days)
    return (now + span - min(CLOCK_MARGIN, span / 2)).strftime("%Y-%m-%dT%H:%M:%SZ")


def vacation(
    days: Annotated[
        float | None, typer.Option(help="Be away this many days from now (your turns wait).")
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Be away until this time (RFC 3339: 2026-12-24T18:00:00Z).")
    ] = None,
    end: Annotated[bool, typer.Option("--end", help="Come back now.")] = False,
    as_json: AsJson = False,
) -> None:
    """Your vacation: away until a time (30 days in any 365), or --end it; none shows it."""
    client = api()
    if days is not None:
        until = vacation_until(days, datetime.now(UTC))
    with reported():
        if end:
            answer = client.request("DELETE", "/me/vacation")
        elif until is not None:
            answer = client.request("PUT", "/me/vacation", {"until": until})
        else:
            answer = client.get("/me/vacation")
    if as_json:
        print_json(answer)
    else:
        render.render_vacation(out, answer)


def review(game: GameId, as_json: AsJson = False) -> None:
    """A finished match's record: every deal and move, tiles shown (GET /games/{id}/record)."""
    client = api()
    with reported():
        record = client.get(f"{game_path(game)}/record")
    if as_json:
        print_json(record)
    else:
        render.render_record(out, record)
