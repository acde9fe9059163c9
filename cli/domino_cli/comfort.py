"""What the correspondence commands parse: a pre-move line's moves (``domino premove``) and
quiet hours (``domino settings --quiet``)."""

from __future__ import annotations

import contextlib
import os
from typing import Any

import typer


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
