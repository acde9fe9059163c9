"""Live updates: the WebSocket authorizer's token checks, the WebSocket events, and
``game_changed`` sent to every seated player's sockets (notification or null), once."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from domino.api.authorizer import Unauthorized, authorize, verify
from domino.api.websocket import handle
from domino.limits import MAX_SOCKETS
from domino.service.inbox import Notifier
from domino.service.live import LiveChannel, LiveUpdates
from domino.service.values import Caller, MakeMove, NewGame, TakeSeat
from domino.store.connections import Ledger, token_expired

from tests.deals import DOS_DEAL
from tests.unit.memory_store import MemoryInbox
from tests.unit.test_notices import Table

KEY = serialization.load_pem_private_key(
    (Path(__file__).resolve().parents[1] / "keys" / "issuer-test-key.pem").read_bytes(), None
)
PUBLIC = KEY.public_key()  # type: ignore[union-attr]
ALICE, BOB = Caller("alice", "Alice"), Caller("bob", "Bob")
ISSUER, AUDIENCE = "https://issuer.example/test", "example-client"


def token(key: Any = KEY, **changes: Any) -> str:
    now = int(time.time())
    claims = {"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 600}
    claims.update(changes)
    claims = {k: v for k, v in claims.items() if v is not None}
    return jwt.encode(claims, key, algorithm="RS256")


def keys(_token: str) -> Any:
    return PUBLIC


def test_a_good_token_is_verified() -> None:
    claims = verify(token(name="Alice"), ISSUER, AUDIENCE, keys)
    assert claims["sub"] == "alice"
    # a Cognito access token names its client in client_id, not aud
    assert verify(token(aud=None, client_id=AUDIENCE), ISSUER, AUDIENCE, keys)["sub"] == "alice"


OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.mark.parametrize(
    "bad",
    [
        token(exp=int(time.time()) - 3600),  # expired
        token(iss="https://elsewhere.example"),
        token(aud="another-client"),
        token(OTHER_KEY),  # signed by a key not the issuer's
        token(sub=None),
        token(sub="s" * 256),
        token(exp=None),
        jwt.encode({"sub": "alice", "iss": ISSUER, "aud": AUDIENCE}, "s" * 32, algorithm="HS256"),
        jwt.encode({"sub": "alice", "iss": ISSUER, "aud": AUDIENCE}, None, algorithm="none"),
        "not.a.token",
        "",
    ],
)
def test_a_bad_token_is_unauthorized(bad: str) -> None:
    with pytest.raises(Unauthorized):
        verify(bad, ISSUER, AUDIENCE, keys)


def test_the_authorizer_allows_with_the_caller_as_context(monkeypatch: pytest.MonkeyPatch) -> None:
    from domino.api import settings

    monkeypatch.setenv("JWT_ISSUER", ISSUER)
    monkeypatch.setenv("JWT_AUDIENCE", AUDIENCE)
    monkeypatch.setenv("DEV_MODE", "true")
    settings.settings.cache_clear()
    try:
        arn = "arn:aws:execute-api:us-east-1:0:api/live/$connect"
        event = {"methodArn": arn, "queryStringParameters": {"token": token(locale="en-GB")}}
        answer = authorize(event, keys)
        assert answer["principalId"] == "alice"
        assert answer["policyDocument"]["Statement"][0] == {
            "Action": "execute-api:Invoke",
            "Effect": "Allow",
            "Resource": arn,
        }
        context = answer["context"]
        assert {k: context.pop(k) for k in ("sub", "name", "locale")} == {
            "sub": "alice",
            "name": "alice",
            "locale": "en-GB",
        }
        # when the token was issued and expires, for $connect's and the notifier's checks
        assert set(context) == {"iat", "exp"} and int(context["exp"]) > int(context["iat"])
        with pytest.raises(Unauthorized):
            authorize({"methodArn": arn, "queryStringParameters": {}}, keys)
    finally:
        settings.settings.cache_clear()


class Connections:
    """In memory: the connections and the admission ledger (one version for all players)."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], str | None] = {}
        self.opened_at: dict[tuple[str, str], float] = {}
        self.expires: dict[tuple[str, str], int | None] = {}
        self.version = 0

    def add(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        expires: int | None = None,
    ) -> None:
        self.items[player, connection_id] = locale
        self.opened_at[player, connection_id] = at
        self.expires[player, connection_id] = expires

    def remove(self, player: str, connection_id: str, opened_before: int | None = None) -> None:
        if opened_before is None or self.opened_at.get((player, connection_id), 0) < opened_before:
            self.items.pop((player, connection_id), None)

    def of_player(self, player: str, now: int) -> list[tuple[str, str | None]]:
        return [(c, loc) for (p, c), loc in self.items.items() if p == player]

    def expired(self, player: str, now: int) -> list[str]:
        return [
            c
            for (p, c) in self.items
            if p == player and (exp := self.expires.get((p, c))) and token_expired(exp)
        ]

    def opened(self, player: str, now: int) -> list[tuple[str, int]]:
        return [(c, int(self.opened_at[p, c] * 1000)) for (p, c) in self.items if p == player]

    def ledger(self, player: str, now: int) -> Ledger:
        return Ledger(self.version, sorted(self.opened(player, now), key=lambda e: (e[1], e[0])))

    def admit(
        self,
        player: str,
        connection_id: str,
        at: float,
        locale: str | None,
        *,
        expires: int | None,
        token_issued: int | None,
        ledger: Ledger,
        evict: list[str],
    ) -> None:
        assert ledger.version == self.version
        self.version += 1
        for gone in evict:
            self.remove(player, gone)
        self.add(player, connection_id, at, locale, expires)


class Sockets:
    def __init__(self) -> None:
        self.sent: dict[str, list[dict[str, Any]]] = {}
        self.gone: set[str] = set()
        self.closed: list[str] = []
        self.opening: set[str] = set()

    def close(self, connection_id: str) -> None:
        self.closed.append(connection_id)

    def is_open(self, connection_id: str) -> bool:
        return connection_id not in self.gone | self.opening

    def post(self, connection_id: str, data: bytes) -> bool:
        if connection_id in self.gone:
            return False
        self.sent.setdefault(connection_id, []).append(json.loads(data))
        return True


def ws_event(route: str, player: str | None = "alice", **extra: Any) -> dict[str, Any]:
    context: dict[str, Any] = {"routeKey": route, "connectionId": "c-1"}
    if player:
        context["authorizer"] = {"principalId": player, "sub": player, "name": "Alice"}
    return {"requestContext": context, **extra}


def test_connect_ping_disconnect() -> None:
    connections = Connections()
    live = LiveUpdates(connections)
    assert handle(ws_event("$connect"), live) == {"statusCode": 200}
    assert connections.items == {("alice", "c-1"): None}
    pong = handle(ws_event("ping", body='{"action": "ping"}'), live)
    assert json.loads(pong["body"]) == {"type": "pong"}
    assert json.loads(handle(ws_event("$default"), live)["body"])["type"] == "error"
    assert handle(ws_event("$disconnect"), live) == {"statusCode": 200}
    assert connections.items == {}
    assert handle(ws_event("$connect", player=None), live)["statusCode"] == 401


def test_a_player_keeps_at_most_ten_sockets_the_oldest_closed() -> None:
    """Every change is posted to each of a player's sockets: the bound caps what one costs."""
    connections, sockets = Connections(), Sockets()
    now = [1000.0]
    live = LiveUpdates(connections, lambda: now[0], sockets)
    for number in range(MAX_SOCKETS + 2):
        now[0] += 1
        live.connect(Caller("alice", "Alice"), f"c-{number}")
    kept = {c for c, _ in connections.of_player("alice", int(now[0]))}
    assert kept == {f"c-{n}" for n in range(2, MAX_SOCKETS + 2)}
    assert sockets.closed == ["c-0", "c-1"]  # the oldest, closed as they were forgotten


def test_a_socket_whose_connect_still_runs_is_never_evicted() -> None:
    """Past the cap, the oldest established sockets make room; one still connecting (the
    management API does not know it yet) is skipped, and when every other one is still
    connecting the new one is refused (429) rather than the cap broken."""
    connections, sockets = Connections(), Sockets()
    now = [1000.0]
    live = LiveUpdates(connections, lambda: now[0], sockets)
    for number in range(MAX_SOCKETS):
        now[0] += 0.1
        assert live.connect(Caller("alice", "Alice"), f"c-{number}")
    sockets.opening.add("c-0")
    assert live.connect(Caller("alice", "Alice"), "c-new")
    assert sockets.closed == ["c-1"]  # c-0 is older, but still connecting
    sockets.opening.update(c for _, c in connections.items)
    event = ws_event("$connect")
    event["requestContext"]["connectionId"] = "c-refused"
    assert handle(event, live)["statusCode"] == 429
    assert len(connections.items) == MAX_SOCKETS and ("alice", "c-refused") not in connections.items


def test_a_socket_past_its_tokens_expiry_is_closed_not_posted_to() -> None:
    connections, sockets = Connections(), Sockets()
    live = LiveUpdates(connections, sockets=sockets)
    now = int(time.time())
    connections.add("alice", "fresh", now, None, now + 3600)
    connections.add("alice", "stale", now - 7200, None, now - 3600)
    LiveChannel(connections, sockets).changed("alice", "g" * 22, 3)
    assert set(sockets.sent) == {"fresh"} and sockets.closed == ["stale"]
    assert set(connections.items) == {("alice", "fresh")}
    event = ws_event("ping", body='{"action": "ping"}')
    event["requestContext"]["authorizer"]["exp"] = str(now - 3600)
    assert handle(event, live) == {"statusCode": 200}  # no pong: the socket is closed
    assert sockets.closed == ["stale", "c-1"]


def dealt_duel(connections: Connections, sockets: Sockets) -> tuple[Table, Any]:
    """A dealt dos-jugadores game whose notifier posts to ``sockets``, its stream drained."""
    table = Table()
    channel = LiveChannel(connections, sockets)
    table.notifier = Notifier(MemoryInbox(), [channel], channel)
    game = table.service.commands.create(ALICE, NewGame("dos-jugadores", 2, deal=DOS_DEAL))
    table.service.commands.join(BOB, game.game_id, TakeSeat(), None)
    table.drain()
    return table, game


def test_every_change_reaches_every_seated_players_sockets_once() -> None:
    """A change that notifies a player carries the notification; one that does not, null; a
    redelivered change posts the very same messages again (the client skips a version it
    holds), and only pushes are kept from going twice."""
    connections, sockets = Connections(), Sockets()
    connections.add("alice", "a-phone", 0, "en")
    connections.add("bob", "b-web", 0, None)
    table, game = dealt_duel(connections, sockets)
    to_alice = sockets.sent["a-phone"]
    assert {m["notification"]["type"] for m in to_alice} == {"player_joined", "game_started"}
    assert all(m["type"] == "game_changed" and m["version"] == 2 for m in to_alice)
    assert to_alice[0]["notification"]["title"] in ("New player", "Game on")  # her language
    [to_bob] = sockets.sent["b-web"]
    assert {k: to_bob[k] for k in ("type", "game", "version", "notification")} == {
        "type": "game_changed",
        "game": game.game_id,
        "version": 2,
        "notification": None,
    }
    assert to_bob["view"] == table.service.queries.get(BOB, game.game_id).view
    assert to_bob["moves"] == []
    table.read = 0
    table.drain()  # redelivered: the same two messages, ids and versions and all
    assert sockets.sent["a-phone"][2:] == to_alice[:2]
    sockets.gone.add("a-phone")
    table.service.commands.move(BOB, game.game_id, MakeMove("play", "6-6"), None)
    table.drain()
    assert ("alice", "a-phone") not in connections.items  # gone: forgotten


def test_a_connection_still_opening_is_not_forgotten() -> None:
    """API Gateway refuses posts to a connection whose $connect has not answered yet (410),
    like a gone one: a connection younger than OPENING_SECONDS stays."""
    connections, sockets = Connections(), Sockets()
    now = 1_800_000_000
    connections.add("alice", "new", now - 1, None)
    connections.add("alice", "old", now - 3600, None)
    sockets.gone.update({"new", "old"})
    LiveChannel(connections, sockets, clock=lambda: float(now)).changed("alice", "g" * 22, 3)
    assert set(connections.items) == {("alice", "new")}


def test_a_socket_carries_the_readers_view_and_the_moves_since_the_last_version() -> None:
    """docs/api.md "What a phone is sent": each seated player's view, exactly as GET answers
    it (their own hand only), and the move records since the previous version."""
    connections, sockets = Connections(), Sockets()
    connections.add("alice", "a-phone", 0, None)
    connections.add("bob", "b-web", 0, None)
    table, game = dealt_duel(connections, sockets)
    table.service.commands.move(BOB, game.game_id, MakeMove("play", "6-6"), None)
    table.drain()
    for player, caller, socket in (("alice", ALICE, "a-phone"), ("bob", BOB, "b-web")):
        last = sockets.sent[socket][-1]
        assert last["version"] == 3, player
        assert last["view"] == table.service.queries.get(caller, game.game_id).view, player
        page = table.service.queries.moves(caller, game.game_id, after=0)
        assert last["moves"] == page.moves and [m["tile"] for m in last["moves"]] == ["6-6"]
    bob_hand = set(table.service.queries.get(BOB, game.game_id).view["you"]["hand"])
    to_alice = json.dumps(sockets.sent["a-phone"])
    assert not any(f'"{tile}"' in to_alice for tile in bob_hand)  # never another hand


def test_a_message_past_32_kb_leaves_the_view_to_a_read(monkeypatch: pytest.MonkeyPatch) -> None:
    import domino.service.live as live_module

    monkeypatch.setattr(live_module, "MAX_MESSAGE_BYTES", 200)
    connections, sockets = Connections(), Sockets()
    connections.add("bob", "b-web", 0, None)
    dealt_duel(connections, sockets)
    [message] = sockets.sent["b-web"]
    assert message["view"] is None and message["moves"] is None and message["version"] == 2
