"""The game API over HTTP on the local runtime (what `make run` serves): whole games, the rules
list, the contract's status codes, headers, idempotent replays and hidden tiles.

The detailed error-by-error suite runs the handlers in-process (tests/integration); this file
checks that the same contract holds end to end through the HTTP server, the dev tokens and the
API Gateway events the runtime builds.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.api_helpers import (
    Table,
    assert_moves_redacted,
    assert_nothing_hidden,
    etag,
    tile,
    tiles_named,
)

pytestmark = [pytest.mark.e2e, pytest.mark.long(25)]

PRESET_IDS = [
    "clasico",
    "dos-jugadores",
    "ida-y-vuelta",
    "parejas-111",
    "infantil",
    "multicolor-plus",
    "buho21",
    "pool",
    "cruzado",
    "chipre",
    "cubano",
    "all-fives",
    "muggins",
    "tren-mexicano",
]

# Hand 1 of the two-player games: seat 0 holds 6-6 and leads it; seat 1 holds no six and has
# to draw 4-6 (the top of the boneyard) before it can answer.
ALICE_HAND = ["6-6", "0-1", "1-3", "2-5", "3-3", "4-5", "5-5"]
BOB_HAND = ["0-0", "0-2", "1-1", "1-2", "2-2", "2-3", "0-3"]
BONEYARD = ["4-6", "0-4", "0-5", "0-6", "1-4", "1-5", "1-6"]
BONEYARD += ["2-4", "2-6", "3-4", "3-5", "3-6", "4-4", "5-6"]
DEAL = {"hands": [ALICE_HAND, BOB_HAND], "boneyard": BONEYARD}


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:8]}"


def new_game(
    rt: Runtime, token: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> dict[str, Any]:
    status, resp_headers, view = rt.request("POST", "/games", body, token=token, headers=headers)
    assert status == 201, view
    assert resp_headers["Location"] == f"/games/{view['id']}"
    assert etag(resp_headers) == '"1-0"'
    return view


def two_player_table(rt: Runtime, **extra: Any) -> Table:
    """alice (seat 0) and bob (seat 1) at a dealt dos-jugadores game with the fixed deal."""
    alice, bob = rt.token(unique("alice"), "Alice"), rt.token(unique("bob"), "Bob")
    body = {"preset": "dos-jugadores", "players": 2, "deal": DEAL, "seed": 11, **extra}
    view = new_game(rt, alice, body)
    status, headers, joined = rt.request("POST", f"/games/{view['id']}/join", {}, token=bob)
    assert status == 200, joined
    assert etag(headers) == '"2-1"'
    return Table(rt, view["id"], {0: alice, 1: bob}, version=2)


# ---------------------------------------------------------------------------- whole games


def test_two_players_play_a_whole_match_over_http(runtime: Runtime) -> None:
    alice, bob = runtime.token(unique("alice"), "Alice"), runtime.token(unique("bob"), "Bob")
    body = {
        "preset": "dos-jugadores",
        "players": 2,
        "deal": DEAL,
        "seed": 11,
        "rules": {"target": 100},
    }
    created = new_game(runtime, alice, body)
    assert (created["status"], created["version"], created["hand_number"]) == ("waiting", 1, 0)
    assert created["seats"][1]["player"] is None
    assert created["you"]["hand"] == []  # the deal is not shown before it happens
    assert_nothing_hidden(created)

    status, headers, joined = runtime.request("POST", f"/games/{created['id']}/join", {}, token=bob)
    assert status == 200, joined
    assert (joined["status"], joined["version"], joined["hand_number"]) == ("playing", 2, 1)
    assert etag(headers) == '"2-1"'
    assert joined["you"]["hand"] == sorted(BOB_HAND)
    assert (joined["turn"], joined["boneyard"], joined["drawable"]) == (0, 14, 14)
    assert_nothing_hidden(joined)

    table = Table(runtime, created["id"], {0: alice, 1: bob}, version=2)
    opening = table.get(0)
    assert opening["you"]["hand"] == sorted(ALICE_HAND)
    assert opening["you"]["legal"] == [{"tile": "6-6", "end": None}]

    # someone with no seat gets the public view: no `you`, no tile but the board
    watcher = runtime.token(unique("carol"))
    version = 2
    draws_in_hand_1 = 0
    for before, out in table.play_out():
        assert out["version"] == version + 1, "every accepted change adds exactly 1"
        version = out["version"]
        if before["hand_number"] == 1:
            # hand 1 is the fixed deal: the boneyard is drawn from the top, in order
            if table.actions[-1][1] == "draw":
                assert out["you"]["drawn"] == tile(BONEYARD[draws_in_hand_1])
                draws_in_hand_1 += 1
            other = ALICE_HAND if before["turn"] == 1 else BOB_HAND
            board = {t["tile"] for t in out["board"]["tiles"]}
            if out["hand_number"] == 1:
                hidden = {tile(t) for t in other + BONEYARD} - board - set(out["you"]["hand"])
                assert not tiles_named(out) & hidden
        if version % 25 == 0:
            status, _, public = runtime.request("GET", f"/games/{table.game_id}", token=watcher)
            assert status == 200 and "you" not in public
            assert_nothing_hidden(public)

    assert draws_in_hand_1 >= 1, "the deal makes bob draw in hand 1"
    final = table.get(0)
    assert final["status"] == "finished"
    assert final["turn"] is None
    result = final["result"]
    assert result is not None and result["match_over"] is True
    assert result == final["last_hand"]
    assert result["match_winners"], result
    winner = result["match_winners"][0]
    assert final["seats"][winner]["score"] >= 100
    assert final["you"]["legal"] == [] and not final["you"]["can_draw"]

    # the move log, every hand of it (older hands come from their archive items)
    plays = sum(1 for _, action, _ in table.actions if action == "play")
    for seat, token in ((0, alice), (1, bob), (None, watcher)):
        status, headers, log = runtime.get_retrying(
            f"/games/{table.game_id}/moves?after=0&limit=1000", token=token
        )
        assert status == 200, log
        assert log["next"] is None  # a whole match of dos-jugadores: under 1,000 moves
        moves = log["moves"]
        assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
        assert sum(1 for m in moves if m["action"] == "play") == plays
        assert sum(1 for m in moves if m["action"] in ("play", "draw", "pass")) == len(
            table.actions
        )
        assert_moves_redacted(moves, seat)
        assert moves[0] == {**moves[0], "seat": 0, "action": "play", "tile": "6-6", "end": None}
        status, _, later = runtime.request(
            "GET", f"/games/{table.game_id}/moves?after={len(moves) - 3}", token=token
        )
        assert [m["n"] for m in later["moves"]] == [len(moves) - 2, len(moves) - 1, len(moves)]


@pytest.mark.parametrize("opener", ["human", "bot"])
def test_a_game_with_a_bot_finishes_with_only_the_human_playing(
    runtime: Runtime, opener: str
) -> None:
    alice = runtime.token(unique("alice"), "Alice")
    hands = [ALICE_HAND, BOB_HAND] if opener == "human" else [BOB_HAND, ALICE_HAND]
    body = {
        "preset": "dos-jugadores",
        "players": 2,
        "bots": 1,
        "bot_level": "greedy",
        "deal": {"hands": hands, "boneyard": BONEYARD},
        "seed": 5,
        "rules": {"target": 100},
    }
    view = new_game(runtime, alice, body)
    assert view["status"] == "playing", "the bot fills the last seat: the deal is at creation"
    assert view["seats"][1]["bot"] is True and view["seats"][0]["bot"] is False
    assert view["turn"] == 0, "a bot on turn moves at once; the human is next"
    if opener == "bot":
        assert view["board"]["tiles"][0] == {"tile": "6-6", "seat": 1, "end": None}
    # what the creator got back is what is stored
    status, _, stored = runtime.request("GET", f"/games/{view['id']}", token=alice)
    assert status == 200
    assert (stored["version"], stored["hand_number"], stored["turn"]) == (
        view["version"],
        1,
        0,
    )
    assert stored["you"]["hand"] == view["you"]["hand"]

    table = Table(runtime, view["id"], {0: alice}, version=view["version"])
    for _ in range(2000):
        if view["status"] != "playing":
            break
        assert view["turn"] == 0, "after the human's request the bot has moved"
        before = view["version"]
        view = table.step(0, view)
        assert view["version"] > before
    assert view["status"] == "finished"
    assert view["result"]["match_over"] is True
    assert max(s["score"] for s in view["seats"]) >= 100


# ---------------------------------------------------------------------------- rules


def test_rules_lists_every_preset(runtime: Runtime) -> None:
    status, _, body = runtime.request("GET", "/rules")  # no token needed
    assert status == 200
    presets = body["presets"]
    assert [p["id"] for p in presets] == PRESET_IDS
    assert body["bot_levels"] == ["random", "greedy", "strategist", "expert"]
    assert body["default_bot_level"] == "expert"
    players = {p["id"]: (p["players"]["min"], p["players"]["max"]) for p in presets}
    assert players == {
        "clasico": (3, 5),
        "dos-jugadores": (2, 2),
        "ida-y-vuelta": (2, 2),
        "parejas-111": (4, 4),
        "infantil": (2, 5),
        "multicolor-plus": (2, 4),
        "buho21": (2, 4),
        "pool": (3, 5),
        "cruzado": (3, 5),
        "chipre": (4, 10),
        "cubano": (4, 4),
        "all-fives": (2, 4),
        "muggins": (2, 4),
        "tren-mexicano": (2, 8),
    }
    for preset in presets:
        assert preset["name"] and preset["source"]
        rules = preset["rules"]
        low, high = players[preset["id"]]
        counts = [str(n) for n in range(low, high + 1)]
        for field in ("hand_size", "reserve"):
            assert isinstance(rules[field], dict), (preset["id"], field)
            assert sorted(rules[field], key=int) == counts, (preset["id"], field)
            assert all(isinstance(v, int) for v in rules[field].values())
        assert rules["set"] in (6, 9, 12, 15)
    by_id = {p["id"]: p["rules"] for p in presets}
    assert by_id["clasico"]["hand_size"] == {"3": 6, "4": 6, "5": 5}
    assert by_id["dos-jugadores"]["hand_size"] == {"2": 7}
    assert by_id["infantil"]["hand_size"] == {str(n): 26 // n for n in range(2, 6)}
    assert by_id["chipre"]["hand_size"] == {
        "4": 13, "5": 11, "6": 9, "7": 7, "8": 6, "9": 6, "10": 5,
    }  # fmt: skip
    assert by_id["chipre"]["set"] == 9
    assert by_id["parejas-111"]["teams"] == "pairs"
    assert by_id["pool"]["stake"] == 1


# ---------------------------------------------------------------------------- errors


def error_code(status: int, body: Any) -> tuple[int, str]:
    assert isinstance(body, dict) and set(body["error"]) >= {"code", "message"}, body
    return status, body["error"]["code"]


def test_contract_status_codes_over_http(runtime: Runtime) -> None:
    table = two_player_table(runtime)
    gid, alice, bob = table.game_id, table.tokens[0], table.tokens[1]
    carol = runtime.token(unique("carol"))
    path = f"/games/{gid}"

    def request(method: str, url: str, body: Any = None, token: str | None = None, **kw: Any):
        status, headers, out = runtime.request(method, url, body, token=token, **kw)
        assert_nothing_hidden(out, table.get(0) if token == alice else None)
        return status, headers, out

    # 401 before anything else, even for a game that does not exist
    for method, url, body in (
        ("POST", "/games", {"preset": "clasico", "players": 3}),
        ("GET", path, None),
        ("POST", f"{path}/play", {"tile": "6-6"}),
        ("POST", "/games/doesnotexist0000/play", {"tile": "6-6"}),
    ):
        status, headers, out = runtime.request(method, url, body)
        assert error_code(status, out) == (401, "unauthorized"), (method, url)

    # 404 game_not_found, before the body is looked at
    for method, url, body in (
        ("GET", "/games/doesnotexist0000", None),
        ("POST", "/games/doesnotexist0000/play", b"{not json"),
        ("POST", "/games/doesnotexist0000/join", {}),
    ):
        status, _, out = runtime.request(method, url, body, token=alice)
        assert error_code(status, out) == (404, "game_not_found"), (method, url)

    # 400 invalid_request: malformed JSON, a tile outside the set, unknown preset, bad count
    for url, body in (
        ("/games", b"{not json"),
        (f"{path}/play", b'{"tile": '),
        (f"{path}/play", {"tile": "7-7"}),
        (f"{path}/play", {"tile": 66}),
        ("/games", {"preset": "nope", "players": 2}),
        ("/games", {"preset": "clasico", "players": 2}),
    ):
        status, _, out = runtime.request("POST", url, body, token=alice)
        assert error_code(status, out) == (400, "invalid_request"), (url, body)

    # 403 not_a_player: carol holds no seat
    status, _, out = runtime.request("POST", f"{path}/play", {"tile": "6-6"}, token=carol)
    assert error_code(status, out) == (403, "not_a_player")

    # 422 not_your_turn: seat 0 leads
    status, _, out = request("POST", f"{path}/play", {"tile": "0-0"}, token=bob)
    assert error_code(status, out) == (422, "not_your_turn")
    status, _, out = request("POST", f"{path}/draw", {}, token=bob)
    assert error_code(status, out) == (422, "not_your_turn")

    # 422 from the rules, without naming a hidden tile
    status, _, out = request("POST", f"{path}/play", {"tile": "0-0"}, token=alice)
    assert error_code(status, out) == (422, "tile_not_in_hand")
    status, _, out = request("POST", f"{path}/play", {"tile": "5-5"}, token=alice)
    assert error_code(status, out) == (422, "must_lead_opening_tile")

    # 409 game_full: both seats are taken
    status, _, out = runtime.request("POST", f"{path}/join", {}, token=carol)
    assert error_code(status, out) == (409, "game_full")

    # the contract's order: 400 before 403, 403 before 412, 412 before the rules' 422s
    stale = {"If-Match": '"1"'}
    status, _, out = runtime.request(
        "POST", f"{path}/play", {"tile": "7-7"}, token=carol, headers=stale
    )
    assert error_code(status, out) == (400, "invalid_request")
    status, _, out = runtime.request(
        "POST", f"{path}/play", {"tile": "6-6"}, token=carol, headers=stale
    )
    assert error_code(status, out) == (403, "not_a_player")
    status, _, out = request("POST", f"{path}/play", {"tile": "0-0"}, token=bob, headers=stale)
    assert error_code(status, out) == (412, "version_mismatch")

    # none of that changed the game
    view = table.get(0)
    assert view["version"] == 2

    # 412 version_mismatch: a stale If-Match, with the current view and ETag
    status, headers, out = request(
        "POST", f"{path}/play", {"tile": "6-6"}, token=alice, headers={"If-Match": '"1"'}
    )
    assert error_code(status, out) == (412, "version_mismatch")
    assert out["game"]["version"] == 2 and out["game"]["you"]["seat"] == 0
    assert etag(headers) == '"2-0"'
    assert table.get(0)["version"] == 2
    # ... and the current version is accepted, as the ETag the view answered
    status, headers, out = runtime.request(
        "POST", f"{path}/play", {"tile": "6-6"}, token=alice, headers={"If-Match": '"2-0"'}
    )
    assert status == 200, out
    assert (out["version"], etag(headers)) == (3, '"3-0"')

    # now bob is on turn with no six: he must draw, he may not pass
    status, _, out = request("POST", f"{path}/pass", {}, token=bob)
    assert error_code(status, out) == (422, "cannot_pass")
    status, _, out = request("POST", f"{path}/play", {"tile": "6-6"}, token=alice)
    assert error_code(status, out) == (422, "not_your_turn")
    assert table.get(1)["version"] == 3


def bare_post(
    rt: Runtime, path: str, token: str, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    """A POST with an empty body and only ``headers`` besides the token, as generated clients
    send the commands docs/openapi.yaml gives no body (Retrofit: no Content-Type at all)."""
    req = urllib.request.Request(rt.base + path, data=b"", method="POST")
    req.add_header("Authorization", f"Bearer {token}")
    for key, value in headers.items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, dict(resp.headers), json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def test_commands_without_a_body_as_generated_clients_send_them(runtime: Runtime) -> None:
    """draw, pass, leave (decline, rematch, nudge) declare no request body, so the generated
    clients send none: with no Content-Type (Retrofit, OkHttp) or with a JSON one (URLSession).
    Each answer holds what the next change's If-Match needs: its version and ETag."""
    table = two_player_table(runtime)
    path, alice, bob = f"/games/{table.game_id}", table.tokens[0], table.tokens[1]
    status, headers, view = runtime.request(
        "POST", f"{path}/play", {"tile": "6-6"}, token=alice, headers={"If-Match": '"2-0"'}
    )
    assert (status, view["version"], etag(headers)) == (200, 3, '"3-0"')
    # bob holds no six: a draw with no body and no type, If-Match the version alice's answer named
    status, headers, view = bare_post(runtime, f"{path}/draw", bob, {"If-Match": '"3"'})
    assert status == 200, view
    assert (view["version"], etag(headers), view["you"]["drawn"]) == (4, '"4-1"', "4-6")
    # the next change goes with the answer's own ETag, no GET between
    status, headers, view = runtime.request(
        "POST",
        f"{path}/play",
        {"tile": "4-6", "end": "right"},
        token=bob,
        headers={"If-Match": etag(headers)},
    )
    assert (status, view["version"], etag(headers)) == (200, 5, '"5-1"')
    # no body under any type reaches the rules (alice can play 4-5: she may not draw)
    status, _, out = bare_post(runtime, f"{path}/draw", alice, {"Content-Type": "text/plain"})
    assert (status, out["error"]["code"]) == (422, "must_play")
    # a leave with a JSON type and no body, as URLSession sends it
    status, headers, view = bare_post(
        runtime, f"{path}/leave", alice, {"Content-Type": "application/json", "If-Match": '"5"'}
    )
    assert status == 200, view
    # a bot took the seat (and played): the leaver now sees the public view, tagged as such
    assert (view["version"], etag(headers)) == (7, '"7-p"') and "you" not in view
    assert view["seats"][0]["bot"] is True


def test_idempotent_replays_over_http(runtime: Runtime) -> None:
    alice, bob = runtime.token(unique("alice")), runtime.token(unique("bob"))
    key = str(uuid.uuid4())
    body = {"preset": "dos-jugadores", "players": 2, "deal": DEAL}

    first = new_game(runtime, alice, body, headers={"Idempotency-Key": key})
    status, headers, again = runtime.request(
        "POST", "/games", body, token=alice, headers={"Idempotency-Key": key}
    )
    assert status == 201
    assert again == first, "a replay returns the first response"
    assert headers["Location"] == f"/games/{first['id']}"
    assert etag(headers) == '"1-0"'

    # the same key with another body
    status, _, out = runtime.request(
        "POST", "/games", {**body, "players": 2, "private": True}, token=alice,
        headers={"Idempotency-Key": key},
    )  # fmt: skip
    assert error_code(status, out) == (422, "idempotency_key_reused")

    # keys belong to the caller: bob's same key is his own, new game
    other = new_game(runtime, bob, body, headers={"Idempotency-Key": key})
    assert other["id"] != first["id"]

    # a move replayed is applied once
    gid = first["id"]
    status, _, _ = runtime.request("POST", f"/games/{gid}/join", {}, token=runtime.token("zed"))
    assert status == 200
    move_key = str(uuid.uuid4())
    results = []
    for _ in range(2):
        status, headers, out = runtime.request(
            "POST",
            f"/games/{gid}/play",
            {"tile": "6-6"},
            token=alice,
            headers={"Idempotency-Key": move_key},
        )
        assert status == 200, out
        results.append((out, etag(headers)))
    assert results[0] == results[1]
    assert results[0][0]["version"] == 3
    status, _, view = runtime.request("GET", f"/games/{gid}", token=alice)
    assert view["version"] == 3 and len(view["board"]["tiles"]) == 1
    # a different body under that key is refused, even though the first one succeeded
    status, _, out = runtime.request(
        "POST", f"/games/{gid}/play", {"tile": "5-5"}, token=alice,
        headers={"Idempotency-Key": move_key},
    )  # fmt: skip
    assert error_code(status, out) == (422, "idempotency_key_reused")
    # only successes are replayed: an error under a fresh key runs again and fails again
    bad_key = str(uuid.uuid4())
    for _ in range(2):
        status, _, out = runtime.request(
            "POST", f"/games/{gid}/play", {"tile": "5-5"}, token=alice,
            headers={"Idempotency-Key": bad_key},
        )  # fmt: skip
        assert error_code(status, out) == (422, "not_your_turn")


# ---------------------------------------------------------------------------- races over HTTP


def test_twenty_copies_of_one_play_over_http_apply_once(runtime: Runtime) -> None:
    """The runtime serves requests in parallel containers, so these really race on DynamoDB."""
    from concurrent.futures import ThreadPoolExecutor

    table = two_player_table(runtime)
    path = f"/games/{table.game_id}/play"

    def play(_: int) -> int:
        return runtime.request("POST", path, {"tile": "6-6"}, token=table.tokens[0])[0]

    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(play, range(20)))
    assert statuses.count(200) == 1, statuses
    assert set(statuses) <= {200, 409, 422}, statuses
    status, headers, view = runtime.request("GET", f"/games/{table.game_id}", token=table.tokens[1])
    assert status == 200 and view["version"] == 3 and etag(headers) == '"3-1"'
    assert [t["tile"] for t in view["board"]["tiles"]] == ["6-6"]


def test_two_players_racing_for_the_last_seat_over_http(runtime: Runtime) -> None:
    from concurrent.futures import ThreadPoolExecutor

    host = runtime.token(unique("host"))
    view = new_game(runtime, host, {"preset": "dos-jugadores", "players": 2})
    racers = [runtime.token(unique("racer")) for _ in range(2)]

    def join(token: str) -> tuple[int, Any]:
        status, _, body = runtime.request("POST", f"/games/{view['id']}/join", {}, token=token)
        return status, body

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(join, racers))
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 409], results
    assert [b["error"]["code"] for s, b in results if s == 409] == ["game_full"]
