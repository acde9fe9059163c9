"""A whole game over HTTP on the local runtime, two people and two bots, with everything
asynchronous watched at once: each player's inbox holds exactly the notifications the contract
promises (worked out here from the answers to the players' own requests), in version order,
none twice, none naming a tile; each registered phone got them in its platform's payload and its
language; each open socket got game_changed for every change; unread and read behave."""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from typing import Any

import pytest
from websockets.sync.client import connect

from local.process import Runtime
from tests.e2e.api_helpers import laid_tiles, tile

pytestmark = pytest.mark.e2e

TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")


class Socket:
    """A player's WebSocket, its messages gathered by a thread."""

    def __init__(self, runtime: Runtime, token: str) -> None:
        self.messages: list[dict[str, Any]] = []
        self.connection = connect(f"ws://127.0.0.1:{runtime.port}/ws?token={token}")
        self.connection.__enter__()  # as `with connect(...)` does; closed by close()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(self.connection.recv()))
        except Exception:  # closed
            return

    def versions(self, game: str) -> set[int]:
        return {m["version"] for m in self.messages if m.get("game") == game}

    def close(self) -> None:
        self.connection.close()


def inbox(runtime: Runtime, token: str) -> dict[str, Any]:
    status, _, body = runtime.request("GET", "/me/notifications?limit=100", token=token)
    assert status == 200, body
    return dict(body)


def settle(check: Any, within: float = 15) -> None:
    """Wait until ``check()`` holds (the stream pump and the notifier work behind the answers)."""
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, "the asynchronous work did not settle in time"
        time.sleep(0.1)


def test_a_game_with_people_and_bots_notifies_each_player_exactly(runtime: Runtime) -> None:
    tag = uuid.uuid4().hex[:8]
    ana, ben = f"ana{tag}", f"ben{tag}"
    tokens = {ana: runtime.token(ana, "Ana"), ben: runtime.token(ben, "Ben")}
    phones = {ana: ("apns", f"apns-{tag}", "en-GB"), ben: ("fcm", f"fcm-{tag}", None)}
    for player, (platform, token, locale) in phones.items():
        body = {"platform": platform, "token": token, **({"locale": locale} if locale else {})}
        status, _, _ = runtime.request(
            "PUT", f"/me/devices/phone-{tag}", body, token=tokens[player]
        )
        assert status == 204
    sockets = {p: Socket(runtime, t) for p, t in tokens.items()}
    try:
        status, _, created = runtime.request(
            "POST",
            "/games",
            {"preset": "clasico", "players": 4, "bots": 2, "rules": {"match": "single"}},
            token=tokens[ana],
        )
        assert status == 201, created
        game = created["id"]
        # every answer to a person's request: who asked, and the game after it
        answers: list[tuple[str, dict[str, Any]]] = []
        status, _, joined = runtime.request("POST", f"/games/{game}/join", {}, token=tokens[ben])
        assert status == 200, joined
        answers.append((ben, joined))
        seat_of = {ana: 0, ben: joined["you"]["seat"]}
        view = joined
        while view["status"] == "playing":
            player = ana if view["turn"] == seat_of[ana] else ben
            _, _, mine = runtime.request("GET", f"/games/{game}", token=tokens[player])
            you = mine["you"]
            if you["legal"]:
                action, body = "play", {k: v for k, v in you["legal"][0].items() if v}
            else:
                action, body = ("draw" if you["can_draw"] else "pass"), {}
            status, _, view = runtime.request(
                "POST", f"/games/{game}/{action}", body, token=tokens[player]
            )
            assert status == 200, view
            answers.append((player, view))

        # what each player must have been told (docs/api.md#notifications), from the answers
        expected: dict[str, set[tuple[int, str]]] = {ana: set(), ben: set()}
        expected[ana] |= {(joined["version"], "player_joined"), (joined["version"], "game_started")}
        for actor, after in answers:
            other = ana if actor == ben else ben
            if after["status"] == "finished":
                expected[other].add((after["version"], "game_over"))
            elif after["turn"] == seat_of[other]:
                expected[other].add((after["version"], "your_turn"))
        final = answers[-1][1]["version"]

        def told(player: str) -> list[dict[str, Any]]:
            return [n for n in inbox(runtime, tokens[player])["notifications"] if n["game"] == game]

        settle(lambda: all(len(told(p)) >= len(expected[p]) for p in expected))
        laid = laid_tiles(runtime, game, tokens[ana])
        time.sleep(0.5)  # anything more would have arrived by now
        for player in (ana, ben):
            notes = told(player)
            got = [(n["version"], n["type"]) for n in notes]
            assert len(got) == len(set(got)), f"{player} was told something twice"
            assert set(got) == expected[player], player
            versions = [v for v, _ in got]
            assert versions == sorted(versions, reverse=True), "newest first"
            # a text names only a tile laid on the table ("Ana played 6-4"), never a hidden one
            named = {tile(t) for n in notes for t in TILE.findall(n["title"] + n["body"])}
            assert named <= laid, sorted(named - laid)

        # the phones: each notification once, in the platform's payload and the phone's language
        def pushed(player: str) -> list[dict[str, Any]]:
            _, _, body = runtime.request("GET", "/dev/pushes")
            return [p for p in body["pushes"] if p["token"] == phones[player][1]]

        settle(lambda: all(len(pushed(p)) >= len(expected[p]) for p in expected))
        apns = pushed(ana)
        assert {(p["payload"]["version"], p["payload"]["type"]) for p in apns} == {
            (str(v), k) for v, k in expected[ana]
        }
        assert len(apns) == len(expected[ana])
        titles = {p["payload"]["aps"]["alert"]["title"] for p in apns}
        assert titles <= {"New player", "Game on", "Your turn", "Game over"}, titles
        assert all(p["payload"]["aps"]["thread-id"] == game for p in apns)
        fcm = [p["payload"]["fcmV1Message"]["message"] for p in pushed(ben)]
        assert {(m["data"]["version"], m["data"]["type"]) for m in fcm} == {
            (str(v), k) for v, k in expected[ben]
        }
        assert {m["notification"]["title"] for m in fcm} <= {"Te toca", "Partida terminada"}
        in_pushes = {tile(t) for p in apns + pushed(ben) for t in TILE.findall(json.dumps(p))}
        assert in_pushes <= laid, sorted(in_pushes - laid)

        # the sockets: a game_changed for every change each player saw an answer to
        changes = {after["version"] for _, after in answers}
        settle(lambda: all(changes <= s.versions(game) for s in sockets.values()))
        for player, socket in sockets.items():
            carried = {
                (m["version"], m["notification"]["type"])
                for m in socket.messages
                if m.get("game") == game and m["notification"]
            }
            assert carried == expected[player], player
        assert final in sockets[ana].versions(game)

        # the badge count and reading
        count = inbox(runtime, tokens[ana])["unread"]
        assert count >= len(expected[ana])
        newest = inbox(runtime, tokens[ana])["notifications"][0]["id"]
        status, _, _ = runtime.request(
            "POST", "/me/notifications/read", {"until": newest}, token=tokens[ana]
        )
        assert status == 204 and inbox(runtime, tokens[ana])["unread"] == 0
        assert inbox(runtime, tokens[ben])["unread"] >= len(expected[ben])
    finally:
        for socket in sockets.values():
            socket.close()
