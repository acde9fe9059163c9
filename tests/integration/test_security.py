"""docs/SECURITY.md's threats that no other test shows on its own: acting for another player,
flooding one game with refused requests, inputs that escape a path or display as nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.client import DOS_DEAL, Api
from tests.integration.test_errors import refused, unchanged

pytestmark = pytest.mark.ddb


@pytest.fixture
def duel(api: Api) -> str:
    """dos-jugadores dealt DOS_DEAL: bob (seat 1) must lead 6-6."""
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    return game


def test_the_caller_is_the_tokens_subject_and_nothing_else(api: Api, duel: str) -> None:
    """Nothing a request carries besides the verified claims names who acts: alice, not on
    turn, cannot move for bob by naming him in the body, a header or the query string."""
    impersonating = {"X-Player": "bob", "X-Forwarded-User": "bob", "X-Seat": "1"}
    with unchanged(api, duel):
        for body in (
            {"tile": "6-6", "player": "bob"},
            {"tile": "6-6", "seat": 1},
            {"tile": "6-6", "sub": "bob"},
        ):
            reply = api.call("POST", f"/games/{duel}/play", body, player="alice")
            refused(reply, 400, "invalid_request")  # unknown fields are refused, not read
        refused(api.play(duel, "alice", "6-6", headers=impersonating), 422, "not_your_turn")
        reply = api.call("POST", f"/games/{duel}/play?player=bob", {"tile": "6-6"}, player="alice")
        refused(reply, 422, "not_your_turn")
        # someone with no seat cannot act at all, whatever seat they name
        refused(api.call("POST", f"/games/{duel}/pass", {}, player="mallory"), 403, "not_a_player")
    api.play(duel, "bob", "6-6").ok()  # bob, and only bob, leads


def test_a_flood_of_refused_requests_changes_nothing(api: Api, duel: str) -> None:
    """Out of turn, without a seat, with tiles one does not hold, stale If-Match: each is
    refused after one read of the game item, and the game stays as it was (no write)."""
    with unchanged(api, duel):
        for _ in range(10):
            refused(api.play(duel, "alice", "0-0"), 422, "not_your_turn")
            refused(api.play(duel, "mallory", "6-6"), 403, "not_a_player")
            refused(api.play(duel, "bob", "0-0"), 422, "tile_not_in_hand")
            refused(api.draw(duel, "alice"), 422, "not_your_turn")
            stale = api.play(duel, "bob", "6-6", headers={"If-Match": '"1"'})
            refused(stale, 412, "version_mismatch")


#: names that show nothing beside the others (only format characters, fillers, marks, spaces)
BLANK_NAMES = [
    "\u200b",
    "\u2060",
    "\ufeff",
    "\u3164",  # Hangul filler
    "\u2800",  # braille blank
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # halfwidth Hangul filler
    "\U000e0041\U000e006c\U000e007f",  # tag characters
    "\ufe0f\ufe0e",  # variation selectors
    "\u0301\u20dd",  # a combining mark and an enclosing mark, alone
    " \u200b\u2060 ",
]


def test_inputs_that_escape_a_path_or_display_as_nothing_are_refused(api: Api) -> None:
    """Issue 20: device ids ``.`` and ``..`` (a client that normalises dot segments would send
    DELETE /me/devices/.. as DELETE /me), locales with NUL, newlines or direction controls, and
    names that display as nothing are 400 ``invalid_request`` naming the field, and change
    nothing; a token's name that shows nothing falls back to the next claim, then the id."""
    from domino.api import wiring

    def put(device: str, player: str = "dot-dan", **body: str) -> Any:
        sent = {"platform": "fcm", "token": f"fcm-{player}-{device}", **body}
        return api.call("PUT", f"/me/devices/{device}", sent, player=player)

    put("phone").ok(204)
    for device in (".", ".."):
        for reply in (put(device), api.call("DELETE", f"/me/devices/{device}", player="dot-dan")):
            body = refused(reply, 400, "invalid_request")
            assert body["error"]["params"]["fields"] == ["device_id"], device
    assert [d.device_id for d in wiring.device_store().of_player("dot-dan")] == ["phone"]
    assert api.call("GET", "/me", player="dot-dan").ok()["player"] == "dot-dan"
    put("...").ok(204)  # three dots are a name, not a dot segment

    for locale in (
        "es\x00",
        "en\n",
        "en\r\nX-Evil: 1",
        "\u202een",
        "en\u200e",
        "\u2066es\u2069",
        "en\u200f",
        "e s",
        "es\t",
        "",
        "es-",
        "x" * 36,
        "\U0001d41eN",
    ):
        body = refused(put("tablet", locale=locale), 400, "invalid_request")
        assert body["error"]["params"]["fields"] == ["locale"], repr(locale)
    assert wiring.device_store().get("dot-dan", "tablet") is None  # nothing stored
    for locale in ("es", "en-GB", "en_GB", "zh-Hant-TW", "es-419"):
        put("tablet", locale=locale).ok(204)
        assert wiring.device_store().get("dot-dan", "tablet").locale == locale  # type: ignore[union-attr]

    waiting = api.create("dot-eva", preset="clasico", players=3).ok(201)["id"]
    for name in BLANK_NAMES:
        with unchanged(api, waiting, ("dot-eva",)):
            joined = api.join(waiting, "dot-fay", name=name)
            assert refused(joined, 400, "invalid_request")["error"]["params"]["fields"] == ["name"]
        created = api.create("dot-fay", preset="clasico", players=3, name=name)
        assert refused(created, 400, "invalid_request")["error"]["params"]["fields"] == ["name"]
        renamed = api.call("PATCH", "/me", {"name": name}, player="dot-fay")
        assert refused(renamed, 400, "invalid_request")["error"]["params"]["fields"] == ["name"]
    assert api.call("GET", "/me", player="dot-fay").ok()["name"] == "Dot-fay"
    spanish = api.call(
        "PATCH", "/me", {"name": "\u3164"}, player="dot-fay", headers={"Accept-Language": "es"}
    )
    assert spanish.body["error"]["message"] == "name debe mostrar al menos un carácter visible."
    # a token's name that shows nothing: preferred_username, else the player id
    blank = {"preferred_username": "\u200b\u3164"}
    view = api.call(
        "POST", f"/games/{waiting}/join", {}, player="dot-gil", name="\u2800", claims=blank
    ).ok()
    assert [s["name"] for s in view["seats"]][:2] == ["Dot-eva", "dot-gil"]
    named = {"preferred_username": "Gil"}
    me = api.call("GET", "/me", player="dot-hal", name="\u2060\ufeff", claims=named).ok()
    assert me["name"] == "Gil"
