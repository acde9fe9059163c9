"""What the functions log (docs/SECURITY.md "Log contents"): never a bearer token, never a hidden
tile, whatever level the loggers run at.

A whole match is played through the handlers with the Authorization header API Gateway passes
on (a real JWT), Idempotency-Keys, refused moves that name another seat's tiles, notifications
read and a device registered, while our logger and Powertools' own run at DEBUG and every
record is captured. Since every tile of a deal is hidden from some seat (in the other hand or
the boneyard), the logs must name no tile at all.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from domino.api.entry import entry_point

from local import tokens
from local.invoke import LambdaContext
from tests.e2e.api_helpers import TILE_IN_TEXT as TILE_WORD
from tests.integration.client import DOS_DEAL, Api, Privileged, norm

pytestmark = pytest.mark.ddb

SECRET = bytes(range(32))  # a dev token secret: its hex must not be logged either
LOGGERS = ("domino", "aws_lambda_powertools")  # ours (Powertools Logger) and Powertools' own


@contextlib.contextmanager
def captured_logs(level: int = logging.DEBUG) -> Iterator[io.StringIO]:
    """Every log record of ``LOGGERS`` and the root logger at ``level``, formatted as the
    functions format them (Powertools' JSON), and whatever is printed, in one buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    ours = logging.getLogger("domino")
    formatter = next((h.formatter for h in ours.handlers if h.formatter), None)
    handler.setFormatter(formatter or logging.Formatter("%(name)s %(message)s"))
    saved: list[tuple[logging.Logger, int]] = []
    for name in (*LOGGERS, ""):
        logger = logging.getLogger(name)
        saved.append((logger, logger.level))
        logger.addHandler(handler)
        if name:
            logger.setLevel(level)
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            yield buffer
    finally:
        for logger, old in saved:
            logger.removeHandler(handler)
            logger.setLevel(old)


def tiles_in(text: str) -> set[str]:
    """Tiles written in free text ("3-5"), not parts of dates, uuids or longer numbers."""
    return {norm(a, b) for a, b in TILE_WORD.findall(text)}


class Caller:
    """One player calling with a bearer token in the header, as API Gateway passes it on."""

    def __init__(self, api: Api, player: str) -> None:
        self.api, self.player = api, player
        self.token = tokens.issue(SECRET, player, player.capitalize())

    def __call__(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        return self.api.call(method, path, body, player=self.player, headers=sent)


def play_a_match(api: Api, privileged: Privileged) -> tuple[list[str], set[str]]:
    """A dos-jugadores match to 100 played to its end (six hands, 190 actions) with keys,
    refusals, reads and notifications; the tokens used and every tile that was hidden from some
    seat."""
    alice, bob = Caller(api, "alice-logs"), Caller(api, "bob-logs")
    created = alice(
        "POST",
        "/games",
        {
            "preset": "dos-jugadores",
            "players": 2,
            "deal": DOS_DEAL,
            "seed": 21,
            "rules": {"target": 100},
        },
    )
    game = created.ok(201)["id"]
    bob("POST", f"/games/{game}/join", {}, {"Idempotency-Key": f"join-{game}"}).ok()
    bob("PUT", "/me/devices/phone-1", {"platform": "fcm", "token": "fcm-device-token-1"})
    seats = {0: alice, 1: bob}
    hidden: set[str] = set()
    for n in range(300):
        match = privileged.match(game)
        assert match is not None
        if match.status != "playing":
            break
        hidden |= privileged.hidden(match, 0) | privileged.hidden(match, 1)
        seat = match.turn
        assert seat is not None
        me, other = seats[seat], seats[1 - seat]
        # refusals naming tiles: another seat's tile, and a move out of turn
        theirs = sorted(str(t) for t in match.hand_of(1 - seat))
        if theirs:
            me("POST", f"/games/{game}/play", {"tile": theirs[0]})
            other("POST", f"/games/{game}/play", {"tile": theirs[0]})
        view = me("GET", f"/games/{game}").ok()
        you = view["you"]
        if you["legal"]:
            action, body = "play", dict(you["legal"][0])
        elif you["can_draw"]:
            action, body = "draw", {}
        else:
            action, body = "pass", {}
        me("POST", f"/games/{game}/{action}", body, {"Idempotency-Key": f"{game}-{n}"}).ok()
        # a retry of the same request answers the stored response
        me("POST", f"/games/{game}/{action}", body, {"Idempotency-Key": f"{game}-{n}"}).ok()
    finished = privileged.match(game)
    assert finished is not None and finished.status == "finished"  # the match's end logged too
    api.drain()
    for caller in seats.values():
        caller("GET", f"/games/{game}/moves").ok()
        caller("GET", "/me/notifications").ok()
        caller("GET", "/me/games").ok()
    return [alice.token, bob.token], hidden


def test_debug_logs_of_a_whole_match_hold_no_token_and_no_tile(
    api: Api, privileged: Privileged
) -> None:
    with captured_logs() as logs:
        used, hidden = play_a_match(api, privileged)
    text = logs.getvalue()
    assert len(hidden) == 28  # every tile of the set was hidden from someone
    for token in used:
        assert token not in text
        assert token.rpartition(".")[2] not in text  # not even its signature
    assert SECRET.hex() not in text
    assert "fcm-device-token-1" not in text  # a device's push token neither
    assert not tiles_in(text) & hidden, sorted(tiles_in(text) & hidden)


def test_no_setting_makes_a_function_log_its_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An event holds the bearer token (API Gateway passes the Authorization header on) and a
    stream event the hands: Powertools logs the event when POWERTOOLS_LOGGER_LOG_EVENT is
    true, so the entry point turns that off for good."""
    monkeypatch.setenv("POWERTOOLS_LOGGER_LOG_EVENT", "true")
    token = tokens.issue(SECRET, "carol")
    handler = entry_point(lambda event, context: {"statusCode": 204})
    event = {"headers": {"authorization": f"Bearer {token}"}, "requestContext": {"requestId": "r"}}
    with captured_logs() as logs:
        assert handler(event, LambdaContext(function_name="logs")) == {"statusCode": 204}
    assert token not in logs.getvalue()
