"""Every error code the API itself answers (docs/api.md#errors), each checked to change nothing,
and the order in which the checks run ("Checks run in this order…")."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from botocore.exceptions import ClientError
from domino.api import wiring

from local.invoke import http_event
from tests.integration.client import DOS_DEAL, NO_CLAIMS, Api, Privileged, Reply
from tests.integration.table import start

pytestmark = pytest.mark.ddb

WATCHERS = ("alice", "bob", "carol")  # carol never has a seat


def refused(reply: Reply, status: int, code: str) -> dict[str, Any]:
    assert (reply.status, reply.code) == (status, code), reply.body
    assert isinstance(reply.body["error"]["message"], str) and reply.body["error"]["message"]
    return reply.body


@contextmanager
def unchanged(api: Api, game: str, players: tuple[str, ...] = WATCHERS) -> Iterator[None]:
    """Every player's view (version, updated_at, hands…) is the same after the block."""
    before = {p: api.get(game, p).ok() for p in players}
    yield
    for player, view in before.items():
        assert api.get(game, player).ok() == view, player


@pytest.fixture
def duel(api: Api) -> str:
    """dos-jugadores dealt DOS_DEAL at version 2: bob (seat 1) must lead 6-6; alice holds no 6."""
    game = api.create("alice", preset="dos-jugadores", players=2, deal=DOS_DEAL).ok(201)["id"]
    assert api.join(game, "bob").ok()["version"] == 2
    return game


def post(
    api: Api, game: str, action: str, body: Any, player: Any, headers: dict[str, str] | None = None
) -> Reply:
    return api.call("POST", f"/games/{game}/{action}", body, player=player, headers=headers)


DEEP = "[" * 1000 + "]" * 1000  # 2 KB of nesting

# (why, caller, action, body, headers, status, code) on the fresh duel; the first failing check
# answers, in docs/api.md#errors order: 401, 404, 400, 403, 412, then the rules
# fmt: off
DUEL_CASES: list[tuple[str, Any, str, Any, dict[str, str] | None, int, str]] = [
    ("no claims", NO_CLAIMS, "play", {"tile": "6-6"}, None, 401, "unauthorized"),
    ("no claims, bad JSON", NO_CLAIMS, "play", '{"tile": ', None, 401, "unauthorized"),
    ("malformed JSON", "bob", "play", '{"tile": ', None, 400, "invalid_request"),
    ("a JSON list", "bob", "play", "[1]", None, 400, "invalid_request"),
    ("wrong type", "bob", "play", {"tile": 66}, None, 400, "invalid_request"),
    ("no tile", "bob", "play", {}, None, 400, "invalid_request"),
    ("unknown field", "bob", "play", {"tile": "6-6", "seat": 0}, None, 400, "invalid_request"),
    ("bad tile text", "bob", "play", {"tile": "six-six"}, None, 400, "invalid_request"),
    ("7-7 in double-six", "bob", "play", {"tile": "7-7"}, None, 400, "invalid_request"),
    ("unknown end", "bob", "play", {"tile": "6-6", "end": "up"}, None, 400, "invalid_request"),
    ("end of a cross", "bob", "play", {"tile": "6-6", "end": "north"}, None, 400,
     "invalid_request"),
    ("draw with a body", "bob", "draw", {"tile": "6-6"}, None, 400, "invalid_request"),
    ("pass, not JSON", "bob", "pass", "pass!", None, 400, "invalid_request"),
    ("leave with a body", "bob", "leave", [], None, 400, "invalid_request"),
    ("bad If-Match", "bob", "play", {"tile": "6-6"}, {"If-Match": "latest"}, 400,
     "invalid_request"),
    ("bad Idempotency-Key", "bob", "play", {"tile": "6-6"}, {"Idempotency-Key": "a b"}, 400,
     "invalid_request"),
    ("join seat out of range", "carol", "join", {"seat": 2}, None, 400, "invalid_request"),
    ("join seat, wrong type", "carol", "join", {"seat": "1"}, None, 400, "invalid_request"),
    ("bad tile from a non-player", "carol", "play", {"tile": "x"}, None, 400, "invalid_request"),
    ("7-7 from a non-player", "carol", "play", {"tile": "7-7"}, None, 400, "invalid_request"),
    ("non-player plays", "carol", "play", {"tile": "6-6"}, None, 403, "not_a_player"),
    ("non-player draws", "carol", "draw", {}, None, 403, "not_a_player"),
    ("non-player passes", "carol", "pass", None, None, 403, "not_a_player"),
    ("non-player leaves", "carol", "leave", {}, None, 403, "not_a_player"),
    ("non-player, stale If-Match", "carol", "play", {"tile": "6-6"}, {"If-Match": '"1"'}, 403,
     "not_a_player"),
    ("stale If-Match before the rules", "alice", "play", {"tile": "0-0"}, {"If-Match": '"1"'},
     412, "version_mismatch"),
    ("already dealt", "carol", "join", {}, None, 409, "game_full"),
    ("already seated", "alice", "join", {}, None, 409, "already_joined"),
    ("not your turn", "alice", "play", {"tile": "0-0"}, None, 422, "not_your_turn"),
    ("not your turn to draw", "alice", "draw", {}, None, 422, "not_your_turn"),
    ("not your turn, tile not held", "alice", "play", {"tile": "6-6"}, None, 422,
     "not_your_turn"),
    ("tile not in hand", "bob", "play", {"tile": "0-0"}, None, 422, "tile_not_in_hand"),
    ("tile not in hand, written backwards", "bob", "play", {"tile": "5-4"}, None, 422,
     "tile_not_in_hand"),
    ("must lead the opening tile", "bob", "play", {"tile": "0-6"}, None, 422,
     "must_lead_opening_tile"),
    ("draw holding a playable tile", "bob", "draw", {}, None, 422, "must_play"),
    ("pass holding a playable tile", "bob", "pass", {}, None, 422, "cannot_pass"),
    # bodies nested deeper than a JSON parser goes (once a RecursionError and a 500)
    *[(f"{action}, 1,000 deep", "bob", action, DEEP, None, 400, "invalid_request")
      for action in ("play", "draw", "pass", "leave", "join")],
    ("draw, 1,000 deep, with an Idempotency-Key", "bob", "draw", DEEP,
     {"Idempotency-Key": "deep-1"}, 400, "invalid_request"),
]
# fmt: on


@pytest.mark.parametrize("case", DUEL_CASES, ids=[c[0] for c in DUEL_CASES])
def test_refused_on_a_dealt_game(
    api: Api, privileged: Privileged, duel: str, case: tuple[Any, ...]
) -> None:
    _why, player, action, body, headers, status, code = case
    with unchanged(api, duel):
        reply = post(api, duel, action, body, player, headers)
        refused(reply, status, code)
    seat = {"alice": 0, "bob": 1}.get(player) if isinstance(player, str) else None
    privileged.assert_hides(duel, seat, reply.body)
    if code == "version_mismatch":
        assert reply.header("ETag") == f'"2-{seat}"'
        assert reply.header("Vary") == "Authorization"
        assert reply.body["game"] == api.get(duel, player).ok()


def test_a_bad_body_for_an_unknown_game_is_404(api: Api) -> None:
    """404 before 400: the game is looked for before the body is read."""
    for action, body in (("draw", DEEP), ("play", {"tile": 66}), ("join", {"seat": "x"})):
        refused(post(api, "nosuchgame01", action, body, "bob"), 404, "game_not_found")
        bad_if_match = {"If-Match": "latest"}
        refused(post(api, "nosuchgame01", action, {}, "bob", bad_if_match), 404, "game_not_found")


@pytest.mark.parametrize("length", [256, 2048, 10_000])
def test_a_subject_longer_than_a_key_holds_is_unauthorized(
    api: Api, duel: str, length: int
) -> None:
    """An identity provider may send any subject; the keys it becomes hold 255 characters."""
    player = "p" * length
    refused(api.create(player, preset="clasico", players=3), 401, "unauthorized")
    with unchanged(api, duel):
        refused(api.join(duel, player), 401, "unauthorized")
    refused(api.call("GET", "/me/games", player=player), 401, "unauthorized")
    refused(api.call("GET", "/me", player=player), 401, "unauthorized")


def test_a_subject_of_255_characters_plays(api: Api) -> None:
    player = "p" * 255
    game = api.create(player, preset="dos-jugadores", players=2, bots=1).ok(201)["id"]
    assert api.call("GET", "/me", player=player).ok()["player"] == player
    mine = api.call("GET", "/me/games", player=player).ok()["games"]
    assert [g["id"] for g in mine] == [game]


def test_refusals_later_in_the_hand(api: Api, privileged: Privileged, duel: str) -> None:
    assert api.play(duel, "bob", "6-6").ok()["version"] == 3
    with unchanged(api, duel):
        refused(api.pass_(duel, "alice"), 422, "cannot_pass")  # she can draw
        refused(api.play(duel, "alice", "0-0"), 422, "tile_does_not_match")
        refused(api.play(duel, "bob", "0-6"), 422, "not_your_turn")
    drawn = api.draw(duel, "alice").ok()
    assert drawn["you"]["drawn"] == "4-6" and drawn["version"] == 4
    with unchanged(api, duel):
        body = refused(api.play(duel, "alice", "4-6"), 422, "end_required")  # 6 on both ends
        assert "4-6" not in body["error"]["message"]
        refused(api.play(duel, "alice", "4-6", "north"), 400, "invalid_request")
        refused(api.play(duel, "alice", "0-0", "left"), 422, "tile_does_not_match")
        refused(api.draw(duel, "alice"), 422, "must_play")
        for player in ("bob", "carol"):
            privileged.assert_hides(
                duel, None if player == "carol" else 1, api.play(duel, player, "4-6").body
            )
    assert api.play(duel, "alice", "4-6", "right").ok()["version"] == 5


def test_cannot_draw_without_a_boneyard(api: Api) -> None:
    game = api.create(
        "alice", preset="dos-jugadores", players=2, deal=DOS_DEAL, rules={"draw": "none"}
    ).ok(201)["id"]
    api.join(game, "bob").ok()
    api.play(game, "bob", "6-6").ok()
    view = api.get(game, "alice").ok()
    assert view["drawable"] == 0 and view["you"]["can_pass"]
    with unchanged(api, game):
        refused(api.draw(game, "alice"), 422, "cannot_draw")
    assert api.pass_(game, "alice").ok()["turn"] == 1


def test_game_not_in_progress(api: Api, privileged: Privileged) -> None:
    waiting = api.create("alice", preset="clasico", players=3).ok(201)["id"]
    with unchanged(api, waiting):
        for reply in (
            api.play(waiting, "alice", "6-6"),
            api.draw(waiting, "alice"),
            api.pass_(waiting, "alice"),
        ):
            refused(reply, 422, "game_not_in_progress")
    table = start(api, privileged, "infantil", ["kid"], bots=1, seed=4)
    table.play_out()
    with unchanged(api, table.game, ("kid", "carol")):
        refused(api.play(table.game, "kid", "0-0"), 422, "game_not_in_progress")
        refused(api.pass_(table.game, "kid"), 422, "game_not_in_progress")
        refused(api.leave(table.game, "kid"), 422, "game_not_in_progress")
        refused(api.join(table.game, "carol"), 409, "game_full")


def test_join_refusals_before_the_deal(api: Api) -> None:
    game = api.create("alice", preset="clasico", players=3).ok(201)["id"]
    with unchanged(api, game):
        refused(api.join(game, "alice"), 409, "already_joined")
        refused(api.join(game, "bob", seat=0), 409, "seat_taken")
        refused(api.join(game, "bob", seat=3), 400, "invalid_request")
        refused(api.join(game, "bob", name=""), 400, "invalid_request")
        refused(
            post(api, game, "join", {"seat": 5}, "bob", {"If-Match": '"9"'}), 400, "invalid_request"
        )
        refused(post(api, game, "join", {}, "bob", {"If-Match": '"9"'}), 412, "version_mismatch")
    assert api.join(game, "bob", seat=2).ok()["you"]["seat"] == 2
    with unchanged(api, game):
        refused(api.join(game, "carol", seat=2), 409, "seat_taken")


def test_unknown_games(api: Api) -> None:
    for game in ("nosuchgame0000000000", "short", "bad id!!"):
        refused(api.get(game), 404, "game_not_found")
        refused(api.moves(game), 404, "game_not_found")
        # the game is looked up before the body is read
        refused(post(api, game, "play", '{"tile": ', "alice"), 404, "game_not_found")
        refused(post(api, game, "join", {"seat": 99}, "alice"), 404, "game_not_found")
        refused(post(api, game, "draw", "x", "alice", {"If-Match": "?"}), 404, "game_not_found")
    refused(api.get("nosuchgame0000000000", NO_CLAIMS), 401, "unauthorized")


def test_no_route_is_not_found(api: Api) -> None:
    event = http_event("GET", "/games/abc/nothing", claims={"sub": "alice"})
    refused(api.invoke("moves", event), 404, "not_found")


def my_games(api: Api, player: str) -> list[str]:
    return [g["id"] for g in api.call("GET", "/me/games?limit=100", player=player).ok()["games"]]


# fmt: off
CREATE_CASES: list[tuple[str, Any, Any, int, str]] = [
    ("no claims", NO_CLAIMS, {"preset": "clasico", "players": 3}, 401, "unauthorized"),
    ("no claims, bad JSON", NO_CLAIMS, "{", 401, "unauthorized"),
    ("malformed JSON", "dave", '{"preset": "clasico",', 400, "invalid_request"),
    ("not an object", "dave", '"clasico"', 400, "invalid_request"),
    ("unknown preset", "dave", {"preset": "poker", "players": 2}, 400, "invalid_request"),
    ("too few players", "dave", {"preset": "clasico", "players": 2}, 400, "invalid_request"),
    ("too many players", "dave", {"preset": "clasico", "players": 6}, 400, "invalid_request"),
    ("players as text", "dave", {"preset": "clasico", "players": "3"}, 400, "invalid_request"),
    ("players as a bool", "dave", {"preset": "dos-jugadores", "players": True}, 400,
     "invalid_request"),
    ("no players", "dave", {"preset": "clasico"}, 400, "invalid_request"),
    ("bots fill every seat", "dave", {"preset": "clasico", "players": 3, "bots": 3}, 400,
     "invalid_request"),
    ("unknown bot level", "dave", {"preset": "clasico", "players": 3, "bots": 1,
                                   "bot_level": "god"}, 400, "invalid_request"),
    ("unknown rule", "dave", {"preset": "clasico", "players": 3, "rules": {"jokers": 2}}, 400,
     "invalid_request"),
    ("bad rule value", "dave", {"preset": "clasico", "players": 3, "rules": {"set": 7}}, 400,
     "invalid_request"),
    ("unknown field", "dave", {"preset": "clasico", "players": 3, "colour": "red"}, 400,
     "invalid_request"),
    ("bad on_timeout", "dave", {"preset": "clasico", "players": 3, "on_timeout": "never"}, 400,
     "invalid_request"),
    ("deal of the wrong size", "dave", {"preset": "dos-jugadores", "players": 2,
                                        "deal": {"hands": [["6-6"], ["5-5"]]}}, 400,
     "invalid_request"),
    ("deal with 7-7", "dave", {"preset": "dos-jugadores", "players": 2,
                               "deal": {"hands": [["7-7"] * 7, ["5-5"] * 7]}}, 400,
     "invalid_request"),
]
# fmt: on


@pytest.mark.parametrize("case", CREATE_CASES, ids=[c[0] for c in CREATE_CASES])
def test_create_refused(api: Api, case: tuple[Any, ...]) -> None:
    _why, player, body, status, code = case
    before = my_games(api, "dave")
    refused(api.call("POST", "/games", body, player=player), status, code)
    assert my_games(api, "dave") == before


def test_dev_only_inputs_outside_dev_mode(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wiring.service().commands, "dev_mode", False)
    before = my_games(api, "dave")
    for extra in ({"seed": 1}, {"deal": DOS_DEAL}, {"seed": 1, "deal": DOS_DEAL}):
        reply = api.create("dave", preset="dos-jugadores", players=2, **extra)
        refused(reply, 400, "dev_only")
    assert my_games(api, "dave") == before
    api.create("dave", preset="dos-jugadores", players=2).ok(201)  # the rest still works


def test_listing_refusals(api: Api) -> None:
    for path in (
        "/me/games?limit=0",
        "/me/games?limit=101",
        "/me/games?status=lost",
        "/me/games?turn=theirs",
        "/games?status=finished",
        "/games?limit=x",
        "/games?cursor=%25%25",
        "/me/games?cursor=bm90IGpzb24",
    ):
        refused(api.call("GET", path, player="alice"), 400, "invalid_request")
        refused(api.call("GET", path, player=NO_CLAIMS), 401, "unauthorized")
    refused(
        api.call("GET", "/games/abcdefgh12/moves?after=-1", player="alice"), 400, "invalid_request"
    )


def test_payload_too_large(api: Api, duel: str) -> None:
    with unchanged(api, duel):
        big = '{"tile": "6-6", "end": "' + "x" * 17000 + '"}'
        refused(post(api, duel, "play", big, "bob"), 413, "payload_too_large")


def test_conflict_after_bounded_retries(
    api: Api, privileged: Privileged, duel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone else writes the game before each of our saves: re-applied while still legal, a
    bounded number of times, then 409 ``conflict`` with the current game; our move never lands."""
    store = wiring.service().store
    real_save = store.save
    rivals: list[int] = []

    def save(record: Any, expected: int, **kwargs: Any) -> None:
        current = store.load(record.id)  # a rival change lands first (here: a no-op rewrite)
        assert current is not None
        current.version += 1
        real_save(current, current.version - 1)
        rivals.append(current.version)
        real_save(record, expected, **kwargs)

    monkeypatch.setattr(store, "save", save)
    reply = api.play(duel, "bob", "6-6")
    monkeypatch.undo()
    body = refused(reply, 409, "conflict")
    assert 2 <= len(rivals) <= 10
    view = api.get(duel, "bob").ok()
    assert view["version"] == rivals[-1] and body["game"] == view
    assert view["board"]["tiles"] == [] and "6-6" in view["you"]["hand"]
    privileged.assert_hides(duel, 1, body)


def throttled(*_args: Any, **_kwargs: Any) -> Any:
    raise ClientError(
        {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "Rate exceeded"}},
        "GetItem",
    )


@pytest.mark.parametrize("method", ["get_item", "put_item"])
def test_throttling_is_503_with_retry_after(
    api: Api, duel: str, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with unchanged(api, duel):
        monkeypatch.setattr(wiring.service().store.client, method, throttled)
        reply = api.play(duel, "bob", "6-6")
        monkeypatch.undo()
        refused(reply, 503, "unavailable")
        assert reply.header("Retry-After") and int(reply.header("Retry-After") or 0) > 0
    assert api.play(duel, "bob", "6-6").ok()["version"] == 3  # and then it works


def test_if_match_of_the_current_version_is_accepted(api: Api, duel: str) -> None:
    played = api.play(duel, "bob", "6-6", headers={"If-Match": '"2"'})
    assert played.ok()["version"] == 3 and played.header("ETag") == '"3-1"'
    drawn = api.draw(duel, "alice", headers={"If-Match": 'W/"3"'})
    assert drawn.ok()["version"] == 4
