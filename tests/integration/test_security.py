"""docs/SECURITY.md's threats that no other test shows on its own: acting for another player,
flooding one game with refused requests."""

from __future__ import annotations

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
