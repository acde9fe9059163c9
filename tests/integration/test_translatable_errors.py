"""Errors an app can translate and show: ``params`` on every error, the message in English or
Spanish by Accept-Language (Content-Language says which), one tone, no validator phrasing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.client import DOS_DEAL, Api, Reply

pytestmark = pytest.mark.ddb

SPANISH = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}


def error(reply: Reply, status: int, code: str) -> dict[str, Any]:
    assert (reply.status, reply.code) == (status, code), reply.body
    body: dict[str, Any] = reply.body["error"]
    assert isinstance(body["params"], dict)
    return body


@pytest.fixture
def duel(api: Api) -> str:
    """bob (seat 1) must lead 6-6; alice (seat 0) waits."""
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    return game


def test_not_your_turn_names_the_seat_in_params_and_in_either_language(api: Api, duel: str) -> None:
    english = api.call("POST", f"/games/{duel}/draw", {}, player="alice")
    said = error(english, 422, "not_your_turn")
    assert (said["params"], said["message"]) == ({"seat": 1}, "It is seat 1's turn.")
    assert english.header("Content-Language") == "en"
    spanish = api.call("POST", f"/games/{duel}/draw", {}, player="alice", headers=SPANISH)
    said = error(spanish, 422, "not_your_turn")
    assert (said["params"], said["message"]) == ({"seat": 1}, "Es el turno del asiento 1.")
    assert spanish.header("Content-Language") == "es"


def test_invalid_request_keeps_fields_and_says_them_in_params(api: Api) -> None:
    body = {"preset": "clasico", "players": 99, "private": "yes"}
    reply = api.call("POST", "/games", body, player="alice", headers=SPANISH)
    said = error(reply, 400, "invalid_request")
    assert said["fields"] == said["params"]["fields"] == ["players", "private"]
    assert said["message"] == "players debe ser como mucho 10. private debe ser true o false."


def test_every_kind_of_error_carries_params_and_a_translated_message(api: Api, duel: str) -> None:
    cases = [
        (api.call("GET", "/games/nope", player="alice", headers=SPANISH), 404, "game_not_found"),
        (api.play(duel, "bob", "9-9", headers=SPANISH), 400, "invalid_request"),
        (api.play(duel, "bob", "0-6", headers=SPANISH), 422, "must_lead_opening_tile"),
        (
            api.call("POST", f"/games/{duel}/join", {}, player="carol", headers=SPANISH),
            409,
            "game_full",
        ),
        (api.play(duel, "carol", "6-6", headers=SPANISH), 403, "not_a_player"),
        (
            api.call("POST", f"/games/{duel}/pass", "[", player="bob", headers=SPANISH),
            400,
            "invalid_request",
        ),
    ]
    for reply, status, code in cases:
        said = error(reply, status, code)
        assert reply.header("Content-Language") == "es", code
        assert said["message"][0].isupper() and said["message"].endswith("."), said
        assert not {"Input", "should", "Field", "required"} & set(said["message"].split()), said
    moved = api.call(
        "POST", f"/games/{duel}/play", {"tile": "6-6"}, player="bob", headers={"If-Match": '"1"'}
    )
    said = error(moved, 412, "version_mismatch")
    assert said["params"] == {"version": 2, "expected": 1}
