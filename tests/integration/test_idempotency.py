"""Idempotency-Key (docs/api.md#versions-and-retries): a retry with the same key and body gets
the first response and the move is applied once; the key belongs to its caller."""

from __future__ import annotations

import pytest
from domino.api import wiring

from tests.faults import injected
from tests.integration.client import DOS_DEAL, Api
from tests.integration.test_concurrency import codes, my_games, race
from tests.integration.test_errors import refused, unchanged

pytestmark = pytest.mark.ddb


@pytest.fixture
def duel(api: Api) -> str:
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    api.join(game, "bob").ok()
    return game


def key(name: str) -> dict[str, str]:
    return {"Idempotency-Key": name}


def test_a_replay_answers_the_first_response_and_applies_once(api: Api, duel: str) -> None:
    k = key(f"play-{duel}")
    first = api.play(duel, "bob", "6-6", headers=k)
    assert first.ok()["version"] == 3
    with unchanged(api, duel):
        again = api.play(duel, "bob", "6-6", headers=k)
        # the same JSON written otherwise is the same body
        spaced = api.call(
            "POST", f"/games/{duel}/play", '{ "tile" : "6-6" }', player="bob", headers=k
        )
    assert first.header("Idempotency-Replayed") is None  # the move was made by this request
    for replay in (again, spaced):
        assert (replay.status, replay.body) == (200, first.body)
        assert replay.header("ETag") == '"3-1"'
        assert replay.header("Idempotency-Replayed") == "true"
    assert len(api.moves(duel, "bob").ok()["moves"]) == 1


def test_the_same_key_with_another_request_is_refused(api: Api, duel: str) -> None:
    k = key(f"k-{duel}")
    api.play(duel, "bob", "6-6", headers=k).ok()
    with unchanged(api, duel):
        refused(api.play(duel, "bob", "6-6", "left", headers=k), 422, "idempotency_key_reused")
        refused(api.play(duel, "bob", "0-6", headers=k), 422, "idempotency_key_reused")
        refused(api.draw(duel, "bob", headers=k), 422, "idempotency_key_reused")  # another path
        body = api.call(
            "POST", "/games", {"preset": "clasico", "players": 3}, player="bob", headers=k
        )
        refused(body, 422, "idempotency_key_reused")


def test_a_reused_key_on_a_bad_request_answers_what_is_wrong_with_the_request(
    api: Api, duel: str
) -> None:
    """The contract's order of checks (401, 404, 400, …) holds before idempotency_key_reused."""
    k = key(f"order-{duel}")
    api.play(duel, "bob", "6-6", headers=k).ok()
    refused(api.play("no-such-game", "bob", "6-6", headers=k), 404, "game_not_found")
    refused(api.play(duel, "bob", "9x9", headers=k), 400, "invalid_request")
    refused(api.play(duel, "bob", "7-7", headers=k), 400, "invalid_request")
    bad = api.call("POST", "/games", {"preset": "clasico", "players": 99}, player="bob", headers=k)
    refused(bad, 400, "invalid_request")
    refused(api.play(duel, "bob", "0-6", headers=k), 422, "idempotency_key_reused")


def test_keys_belong_to_their_caller(api: Api, duel: str) -> None:
    shared = key(f"shared-{duel}")
    assert api.play(duel, "bob", "6-6", headers=shared).ok()["version"] == 3
    drawn = api.draw(duel, "alice", headers=shared).ok()  # alice's key, not bob's
    assert drawn["version"] == 4 and drawn["you"]["drawn"] == "4-6"


def test_a_retry_after_an_error_runs_again(api: Api, duel: str) -> None:
    k = key(f"retry-{duel}")
    refused(api.draw(duel, "alice", headers=k), 422, "not_your_turn")  # not stored
    api.play(duel, "bob", "6-6").ok()
    drawn = api.draw(duel, "alice", headers=k)
    assert drawn.ok()["version"] == 4 and drawn.body["you"]["drawn"] == "4-6"
    with unchanged(api, duel):
        replay = api.draw(duel, "alice", headers=k)
    assert (replay.status, replay.body) == (200, drawn.body)


def test_create_and_join_replays(api: Api) -> None:
    k = key("create-once-erin")
    first = api.call(
        "POST", "/games", {"preset": "clasico", "players": 3}, player="erin", headers=k
    )
    game = first.ok(201)["id"]
    again = api.call(
        "POST", "/games", {"preset": "clasico", "players": 3}, player="erin", headers=k
    )
    assert (again.status, again.body) == (201, first.body)
    assert again.header("Location") == f"/games/{game}"
    assert my_games(api, "erin").count(game) == 1 and len(my_games(api, "erin")) == 1
    joined = api.call("POST", f"/games/{game}/join", {}, player="fred", headers=k)
    assert joined.ok()["version"] == 2  # erin's key is not fred's
    replay = api.call("POST", f"/games/{game}/join", {}, player="fred", headers=k)
    assert (replay.status, replay.body) == (200, joined.body)


def test_duplicates_in_flight_are_never_a_500(api: Api, duel: str) -> None:
    k = key(f"flight-{duel}")
    results = race([lambda: api.play(duel, "bob", "6-6", headers=k)] * 5)
    tally = codes(results)
    assert set(tally) <= {(200, None), (409, "conflict")} and tally[(200, None)] >= 1, tally
    bodies = [body for status, body in results if status == 200]
    for body in bodies[1:]:
        assert body == bodies[0], {k: (v, body[k]) for k, v in bodies[0].items() if body[k] != v}
    assert api.get(duel, "bob").ok()["version"] == 3


def test_a_throttled_idempotency_table_is_503_and_changes_nothing(api: Api, duel: str) -> None:
    k = key(f"throttled-{duel}")
    with unchanged(api, duel), injected(wiring.table().client) as faults:
        faults.add("throttle", operation="GetItem", table="IdempotencyTable", times=None)
        reply = api.play(duel, "bob", "6-6", headers=k)
        refused(reply, 503, "unavailable")
        assert int(reply.header("Retry-After") or 0) > 0
    assert api.play(duel, "bob", "6-6", headers=k).ok()["version"] == 3  # the retry applies it


def test_a_move_applied_whose_answer_was_not_kept_is_still_answered_and_replayed(
    api: Api, duel: str
) -> None:
    """Keeping the answer (the record's PutItem) fails after the move was written: the caller
    gets the move's answer, not an error for a move that happened, and a retry gets it again
    (from the game item, which remembers the key)."""
    k = key(f"unsaved-{duel}")
    with injected(wiring.table().client) as faults:
        faults.add("throttle", operation="PutItem", table="IdempotencyTable", times=None)
        played = api.play(duel, "bob", "6-6", headers=k)
    assert faults.injected["throttle"] >= 1 and played.ok()["version"] == 3
    with unchanged(api, duel):
        again = api.play(duel, "bob", "6-6", headers=k)
    assert (again.status, again.body) == (200, played.body)
    assert again.header("Idempotency-Replayed") == "true"


def test_a_key_is_one_record_whatever_the_route(api: Api, duel: str) -> None:
    """Game commands keep their answers beside Powertools' records (the other routes): a key
    used by either is refused by the other."""
    created = key(f"create-then-play-{duel}")
    api.call("POST", "/games", {"preset": "clasico", "players": 3}, player="bob", headers=created)
    with unchanged(api, duel):
        refused(api.play(duel, "bob", "6-6", headers=created), 422, "idempotency_key_reused")
    played = key(f"play-then-create-{duel}")
    api.play(duel, "bob", "6-6", headers=played).ok()
    again = api.call(
        "POST", "/games", {"preset": "clasico", "players": 3}, player="bob", headers=played
    )
    refused(again, 422, "idempotency_key_reused")


def test_a_replay_after_the_game_moved_on_is_the_first_answer(api: Api, duel: str) -> None:
    k = key(f"later-{duel}")
    first = api.play(duel, "bob", "6-6", headers=k).ok()
    drew = key(f"later-draw-{duel}")
    drawn = api.draw(duel, "alice", headers=drew).ok()
    api.play(duel, "alice", "4-6", "left").ok()
    again = api.play(duel, "bob", "6-6", headers=k)
    assert (again.status, again.body, again.header("ETag")) == (200, first, '"3-1"')
    redrawn = api.draw(duel, "alice", headers=drew)
    assert (redrawn.status, redrawn.body) == (200, drawn)
    assert drawn["you"]["drawn"] == "4-6" and drawn["version"] == 4
