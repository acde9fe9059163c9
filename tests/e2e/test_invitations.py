"""Invitations, declines, rematches and opponents over HTTP on the local runtime: every
route's answers and error codes as the contract gives them, the notifications its stream pump
delivers, and one rematch when every seat asks at the same moment."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from local.process import Runtime
from tests.e2e.test_notifications import wait_for

pytestmark = pytest.mark.e2e

SINGLE = {"match": "single"}


class Players:
    """Fresh players with tokens (the runtime is shared by the session's tests)."""

    def __init__(self, rt: Runtime, *names: str) -> None:
        tag = uuid.uuid4().hex[:6]
        self.rt = rt
        self.ids = [f"{name}{tag}" for name in names]
        self.tokens = {
            pid: rt.token(pid, name.title()) for pid, name in zip(self.ids, names, strict=True)
        }

    def call(self, player: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        status, _, answer = self.rt.request(method, path, body, token=self.tokens[player])
        return status, answer

    def ok(self, player: str, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        got, answer = self.call(player, method, path, body)
        assert got == status, (method, path, got, answer)
        return answer

    def refused(
        self, player: str, method: str, path: str, body: Any, status: int, code: str
    ) -> Any:
        got, answer = self.call(player, method, path, body)
        assert (got, answer["error"]["code"]) == (status, code), answer
        return answer

    def play_out(self, game: str, seated: list[str]) -> dict[str, Any]:
        """Play the match to its end, each seat its first legal play, else draw, else pass."""
        for _ in range(500):
            view = self.ok(seated[0], "GET", f"/games/{game}")
            if view["status"] != "playing":
                return dict(view)
            player = seated[view["turn"]]
            you = self.ok(player, "GET", f"/games/{game}")["you"]
            if you["legal"]:
                play = {"tile": you["legal"][0]["tile"], "end": you["legal"][0]["end"]}
                self.ok(player, "POST", f"/games/{game}/play", play)
            else:
                action = "draw" if you["can_draw"] else "pass"
                self.ok(player, "POST", f"/games/{game}/{action}", {})
        raise AssertionError("the match does not end")

    def finished(self, seated: list[str], preset: str = "dos-jugadores") -> str:
        body = {"preset": preset, "players": len(seated), "rules": SINGLE}
        game = self.ok(seated[0], "POST", "/games", body, status=201)["id"]
        for player in seated[1:]:
            self.ok(player, "POST", f"/games/{game}/join", {})
        self.play_out(game, seated)
        return str(game)


def kinds(rt: Runtime, token: str, count: int, kind: str) -> set[tuple[str, str]]:
    inbox = wait_for(rt, token, count, kind=kind)
    return {(n["type"], n["game"]) for n in inbox["notifications"]}


def test_an_invitee_is_told_takes_the_reserved_seat_and_strangers_cannot(runtime: Runtime) -> None:
    ps = Players(runtime, "ana", "ben", "cal")
    ana, ben, cal = ps.ids
    for bad in ([ana], [ben, ben], [ben, cal], [""]):
        body = {"preset": "dos-jugadores", "players": 2, "invite": bad}
        error = ps.refused(ana, "POST", "/games", body, 400, "invalid_request")["error"]
        assert [f.split(".")[0] for f in error["params"]["fields"]] == ["invite"], error
    assert ps.ok(ana, "GET", "/me/games")["games"] == []  # nothing was created

    body = {"preset": "dos-jugadores", "players": 2, "invite": [ben]}
    view = ps.ok(ana, "POST", "/games", body, status=201)
    game = view["id"]
    assert view["seats"][1]["player"] == ben and view["seats"][1]["invited"] is True
    assert ("invited", game) in kinds(runtime, ps.tokens[ben], 1, "invited")
    listed = ps.ok(ben, "GET", "/me/games?status=waiting")["games"]
    assert [g["id"] for g in listed] == [game] and listed[0]["seats"][1]["invited"] is True
    ps.refused(cal, "POST", f"/games/{game}/join", {}, 409, "game_full")
    ps.refused(cal, "POST", f"/games/{game}/join", {"seat": 1}, 409, "seat_taken")
    ps.refused(cal, "POST", f"/games/{game}/decline", {}, 403, "not_invited")
    joined = ps.ok(ben, "POST", f"/games/{game}/join", {})
    assert joined["status"] == "playing" and joined["seats"][1]["invited"] is False
    ps.refused(ben, "POST", f"/games/{game}/decline", {}, 403, "not_invited")  # joined now


def test_a_decline_frees_the_seat_and_the_creator_hears_of_it(runtime: Runtime) -> None:
    ps = Players(runtime, "dia", "eli", "fil")
    dia, eli, fil = ps.ids
    body = {"preset": "dos-jugadores", "players": 2, "invite": [eli]}
    game = ps.ok(dia, "POST", "/games", body, status=201)["id"]
    ps.refused(eli, "POST", "/games/NoSuchGame0001/decline", {}, 404, "game_not_found")
    ps.refused(dia, "POST", f"/games/{game}/decline", {}, 403, "not_invited")
    view = ps.ok(eli, "POST", f"/games/{game}/decline", {})
    assert view["seats"][1]["player"] is None and view["status"] == "waiting"
    assert ("invite_declined", game) in kinds(runtime, ps.tokens[dia], 1, "invite_declined")
    assert ps.ok(eli, "GET", "/me/games")["games"] == []
    assert ps.ok(fil, "POST", f"/games/{game}/join", {})["status"] == "playing"


def test_a_rematch_over_http(runtime: Runtime) -> None:
    ps = Players(runtime, "gus", "hal", "ivy")
    gus, hal, ivy = ps.ids
    running = ps.ok(gus, "POST", "/games", {"preset": "dos-jugadores", "players": 2}, status=201)
    ps.ok(hal, "POST", f"/games/{running['id']}/join", {})
    ps.refused(gus, "POST", f"/games/{running['id']}/rematch", {}, 409, "match_not_over")
    ps.refused(ivy, "POST", f"/games/{running['id']}/rematch", {}, 403, "not_a_player")

    game = ps.finished([gus, hal])
    assert ps.ok(gus, "GET", f"/games/{game}")["rematch"] is None
    ps.refused(ivy, "POST", f"/games/{game}/rematch", {}, 403, "not_a_player")
    ps.refused(gus, "POST", f"/games/{game}/rematch", {"x": 1}, 400, "invalid_request")
    ps.refused(gus, "POST", "/games/NoSuchGame0001/rematch", {}, 404, "game_not_found")
    status, headers, made = runtime.request(
        "POST", f"/games/{game}/rematch", {}, token=ps.tokens[hal]
    )
    assert status == 201 and headers["Location"] == f"/games/{made['id']}", made
    assert [(s["player"], s["invited"]) for s in made["seats"]] == [(hal, False), (gus, True)]
    assert ps.ok(gus, "GET", f"/games/{game}")["rematch"] == made["id"]
    assert ("rematch", made["id"]) in kinds(runtime, ps.tokens[gus], 1, "rematch")
    again = ps.ok(gus, "POST", f"/games/{game}/rematch", {})
    assert again["id"] == made["id"] and again["status"] == "playing"

    ps.play_out(made["id"], [hal, gus])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the stream pump counts the finished matches
        opponents = ps.ok(gus, "GET", "/me/opponents")["opponents"]
        if opponents and opponents[0]["matches"] == 2:
            break
        time.sleep(0.1)
    assert [(o["player"], o["name"], o["matches"]) for o in opponents] == [(hal, "Hal", 2)]
    ps.refused(gus, "GET", "/me/opponents?cursor=bm9wZQ", None, 400, "invalid_request")
    ps.refused(gus, "GET", "/me/opponents?limit=101", None, 400, "invalid_request")


def test_every_seat_asking_at_once_gets_one_rematch(runtime: Runtime) -> None:
    ps = Players(runtime, "jo", "kai", "lu")
    game = ps.finished(ps.ids, preset="clasico")
    start = threading.Barrier(len(ps.ids))

    def ask(player: str) -> tuple[int, Any]:
        start.wait()
        return ps.call(player, "POST", f"/games/{game}/rematch", {})

    with ThreadPoolExecutor(len(ps.ids)) as pool:
        answers = list(pool.map(ask, ps.ids))
    assert sorted(status for status, _ in answers) == [200, 200, 201], answers
    assert len({body["id"] for _, body in answers}) == 1
    new = answers[0][1]["id"]
    assert ps.ok(ps.ids[0], "GET", f"/games/{game}")["rematch"] == new
    assert ps.ok(ps.ids[0], "GET", f"/games/{new}")["status"] == "playing"


def test_blocks_refuse_invitations_and_rematches_both_ways(runtime: Runtime) -> None:
    ps = Players(runtime, "ana", "ben", "cal")
    ana, ben, cal = ps.ids
    game = ps.finished([ana, ben])
    ps.ok(ben, "PUT", f"/me/blocks/{ana}", status=204)
    body = {"preset": "clasico", "players": 3, "invite": [cal, ben]}
    ps.refused(ana, "POST", "/games", body, 403, "blocked")  # ana is blocked by ben
    ps.refused(ben, "POST", "/games", {**body, "invite": [ana]}, 403, "blocked")  # ben blocks
    assert ps.ok(ana, "GET", "/me/games?status=waiting")["games"] == []  # nothing was made
    ps.refused(ana, "POST", f"/games/{game}/rematch", {}, 403, "blocked")
    ps.ok(ben, "DELETE", f"/me/blocks/{ana}", status=204)
    ps.ok(ana, "POST", f"/games/{game}/rematch", {}, status=201)
