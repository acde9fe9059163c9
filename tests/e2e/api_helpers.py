"""Helpers for the e2e API tests: tokens per seat, a game driver, the hidden-tile checks."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from local.process import Runtime

#: a tile written anywhere in a string ("3-5"), but not inside dates, ids or longer numbers
TILE_IN_TEXT = re.compile(r"(?<![\w-])(\d{1,2})-(\d{1,2})(?![\w-])")
#: keys whose string values are never tiles (and may contain look-alikes: dates, random ids)
NOT_TILES = {"id", "at", "created_at", "updated_at", "deadline", "player", "name"}
#: keys that reveal a finished hand's tiles on purpose (docs/api.md#what-a-player-sees)
REVEALED = {"last_hand", "result"}


def tile(text: str) -> str:
    """The normal form of a tile ("5-3" -> "3-5")."""
    a, b = sorted(int(x) for x in text.split("-"))
    return f"{a}-{b}"


def tiles_named(body: Any, skip: set[str] = REVEALED) -> set[str]:
    """Every tile a body names anywhere (values and messages), except under ``skip`` keys."""
    found: set[str] = set()

    def walk(value: Any, key: str | None) -> None:
        if key in NOT_TILES or key in skip:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str):
            found.update(tile(f"{a}-{b}") for a, b in TILE_IN_TEXT.findall(value))

    walk(body, None)
    return found


def visible_to(view: dict[str, Any]) -> set[str]:
    """What the caller may see of the current hand: its own hand and the board."""
    own = set(view.get("you", {}).get("hand", [])) if "you" in view else set()
    board = {t["tile"] for t in view.get("board", {}).get("tiles", [])}
    return own | board


def assert_nothing_hidden(body: Any, view: dict[str, Any] | None = None) -> None:
    """A response names no tile the caller cannot see (outside a revealed finished hand).

    ``view`` is the caller's current view when ``body`` is not itself one (an error, a move
    list); every tile in the set is in some hand, the boneyard or on the board, so "visible"
    is exactly the caller's hand plus the board.
    """
    reference = view if view is not None else body
    if isinstance(body, dict) and "game" in body and isinstance(body["game"], dict):
        reference = body["game"]
    extra = tiles_named(body) - visible_to(reference)
    assert not extra, f"hidden tiles {sorted(extra)} in {json.dumps(body)[:600]}"


def assert_moves_redacted(moves: list[dict[str, Any]], viewer_seat: int | None) -> None:
    """A drawn tile is shown only to the player who drew it."""
    for move in moves:
        if move["action"] == "draw" and move["seat"] != viewer_seat:
            assert "tile" not in move or move["tile"] is None, move


def laid_tiles(runtime: Runtime, game: str, token: str) -> set[str]:
    """Every tile laid on the table in ``game`` (public: a notification may name one), read
    from its move log page after page."""
    laid: set[str] = set()
    after = 0
    while True:
        status, _, page = runtime.get_retrying(f"/games/{game}/moves?after={after}", token=token)
        assert status == 200, page
        laid |= {tile(m["tile"]) for m in page["moves"] if m["action"] == "play"}
        if not page["moves"] or page.get("next") is None:
            return laid
        after = page["moves"][-1]["n"]


def etag(headers: dict[str, str]) -> str | None:
    lowered = {k.lower(): v for k, v in headers.items()}
    return lowered.get("etag")


@dataclass
class Table:
    """One game driven over HTTP by the players holding its seats."""

    rt: Runtime
    game_id: str
    tokens: dict[int, str]  # seat -> bearer token
    version: int = 0
    actions: list[tuple[int, str, str | None]] = field(default_factory=list)

    def get(self, seat: int) -> dict[str, Any]:
        status, headers, view = self.rt.request(
            "GET", f"/games/{self.game_id}", token=self.tokens[seat]
        )
        assert status == 200, view
        assert etag(headers) == f'"{view["version"]}-{seat}"'
        assert view["you"]["seat"] == seat
        assert_nothing_hidden(view)
        return view

    def act(
        self, seat: int, action: str, body: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, str], dict[str, Any]]:
        status, headers, out = self.rt.request(
            "POST", f"/games/{self.game_id}/{action}", body or {}, token=self.tokens[seat]
        )
        return status, headers, out

    def step(self, seat: int, view: dict[str, Any]) -> dict[str, Any]:
        """One accepted action for ``seat`` chosen from ``view``: ``you.legal[0]``, else draw,
        else pass. Checks the answer's version, ETag and hidden tiles."""
        you = view["you"]
        if you["legal"]:
            assert not you["can_pass"]
            choice: tuple[str, dict[str, Any]] = ("play", you["legal"][0])
        elif you["can_draw"]:
            assert not you["can_pass"]
            choice = ("draw", {})
        else:
            assert you["can_pass"], you
            choice = ("pass", {})
        status, headers, out = self.act(seat, *choice)
        assert status == 200, (choice, out)
        assert etag(headers) == f'"{out["version"]}-{seat}"'
        assert_nothing_hidden(out)
        if choice[0] == "draw":
            assert out["you"]["drawn"] in out["you"]["hand"]
        else:
            assert out["you"]["drawn"] is None
        tile_played = choice[1].get("tile") if choice[0] == "play" else out["you"]["drawn"]
        self.actions.append((seat, choice[0], tile_played))
        return out

    def play_out(self, max_actions: int = 2000) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """Every seat plays until the match is over; yields (view before, answer) per action."""
        view = self.get(next(iter(self.tokens)))
        for _ in range(max_actions):
            if view["status"] != "playing":
                return
            seat = view["turn"]
            before = self.get(seat)
            out = self.step(seat, before)
            yield before, out
            view = out
        raise AssertionError(f"the match did not end within {max_actions} actions")


def runtime_now(runtime: Runtime) -> datetime:
    """The runtime's clock (``GET /dev/clock``), which tests sharing it move on (a day, hours)."""
    status, _, clock = runtime.request("GET", "/dev/clock")
    assert status == 200, clock
    return datetime.fromisoformat(clock["now"])


def vacation_days(runtime: Runtime, until: str, asked: datetime, days: int) -> int:
    """The days a vacation of ``days`` asked at ``asked`` costs on the runtime's clock, after
    checking that the client made ``until`` that far from its own clock (five minutes short:
    the clients' margin for a clock ahead of the server's). Tests that share the runtime move
    its clock on (``POST /dev/clock``: a day, hours), and the server counts the 24-hour
    periods from its own time: ``days`` on a clock that agrees, fewer on one ahead."""
    ends = datetime.fromisoformat(until)
    short = asked + timedelta(days=days) - ends
    assert timedelta(minutes=4) < short < timedelta(minutes=6), until
    return math.ceil((ends - runtime_now(runtime)) / timedelta(days=1))
