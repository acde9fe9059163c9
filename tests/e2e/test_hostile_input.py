"""A table of hostile requests over HTTP on the local runtime (issue 11, "Hostile input").

Each row is one request a client should never send: bodies that are not JSON or not objects,
duplicate keys, deep nesting, huge numbers, NaN, unicode and control characters, tiles that
are no tiles, game ids with traversal or 10,000 characters, garbage cursors, wrong methods and
content types, bad tokens (missing, expired, tampered, ``alg: none``, ...), a stranger acting on
a seat, 10,000-character idempotency keys. For every row: the contract's status and code in
the error shape ``{"error": {"code", "message", "params"}}``, no 5xx, no tile the caller may
not see anywhere in the answer, and nothing changed (both players' views of the game, and the
games they hold, the same after as before).
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import time
import warnings
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import jwt
import pytest

from local.process import Runtime
from tests.integration.client import tiles_shown

pytestmark = [pytest.mark.e2e, pytest.mark.long(40)]

#: every tile of double-six, the set of the game under attack
DOUBLE_SIX = {f"{a}-{b}" for a in range(7) for b in range(a, 7)}
LONG = "x" * 10_000


@dataclass(frozen=True)
class Row:
    """One hostile request and what the contract answers it."""

    name: str
    method: str
    path: str  # "{game}" stands for the game under attack
    body: bytes | None = None
    status: int = 400
    code: str = "invalid_request"
    as_: str = "alice"  # whose token: alice, bob, carol (no seat), none, or a key of BAD_TOKENS
    headers: dict[str, str] = field(default_factory=dict)


def js(value: Any) -> bytes:
    return json.dumps(value).encode()


def b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def bad_tokens(secret: bytes, good: str) -> dict[str, str]:
    """Tokens the runtime must refuse (401), each wrong in one way."""
    now = int(time.time())
    claims = {"sub": "alice-h", "iss": "domino-local", "aud": "domino-local", "iat": now}
    ok = {**claims, "exp": now + 3600}
    header, payload, signature = good.split(".")
    forged = {**json.loads(base64.urlsafe_b64decode(payload + "==")), "sub": "bob-h"}
    return {
        "expired": jwt.encode({**claims, "iat": now - 7200, "exp": now - 3600}, secret, "HS256"),
        "tampered": f"{header}.{b64(forged)}.{signature}",
        "bad_signature": f"{header}.{payload}.{signature[:-4]}AAAA",
        "alg_none": f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(ok)}.",
        "hs512": hs512(ok, secret),
        "other_key": jwt.encode(ok, b"k" * 32, "HS256"),
        "exp_null": jwt.encode({**claims, "exp": None}, secret, "HS256"),
        "nbf_future": jwt.encode({**ok, "nbf": now + 3600}, secret, "HS256"),
        "sub_number": jwt.encode({**ok, "sub": 12345}, secret, "HS256"),
        "no_sub": jwt.encode({k: v for k, v in ok.items() if k != "sub"}, secret, "HS256"),
        "other_issuer": jwt.encode({**ok, "iss": "evil"}, secret, "HS256"),
        "garbage": "not.a.token",
        "empty_parts": "..",
    }


def hs512(claims: dict[str, Any], secret: bytes) -> str:
    with warnings.catch_warnings():  # PyJWT warns that the key is short for HS512: it is meant
        warnings.simplefilter("ignore")
        return jwt.encode(claims, secret, "HS512")


GAME = "/games/{game}"
PLAY = GAME + "/play"
BAD_TILES = [
    "7-7",
    "6-6-6",
    "-1-3",
    " 6-6",
    "6-6 ",
    "06-06",
    "0-6\n",
    "",
    "6",
    "6-",
    "\uff16-\uff16",
]
BAD_TILES += ["6\u20136", "6-6\u0000", "\u202e6-6", "a-b", "99-99", "1e1-0", "0x6-6"]

ROWS: list[Row] = [
    # bodies that are not JSON objects
    Row("not json", "POST", PLAY, b"tile=6-6"),
    Row("truncated json", "POST", PLAY, b'{"tile": "6-6"'),
    Row("json array", "POST", PLAY, b'["6-6"]'),
    Row("json string", "POST", PLAY, b'"6-6"'),
    Row("json null", "POST", PLAY, b"null"),
    Row("json number", "POST", PLAY, b"42"),
    Row("invalid utf-8", "POST", PLAY, b'{"tile": "\xff\xfe"}'),
    Row("utf-16 body", "POST", PLAY, '{"tile": "7-7"}'.encode("utf-16")),
    Row("bom then json", "POST", PLAY, b'\xef\xbb\xbf{"tile": "7-7"}'),
    Row("not json, on create", "POST", "/games", b"preset=clasico"),
    Row("array on create", "POST", "/games", b"[]"),
    Row("not json on draw", "POST", GAME + "/draw", b"{"),
    Row("array on draw", "POST", GAME + "/draw", b"[]"),
    Row("not json on join", "POST", GAME + "/join", b"\x00\x01"),
    # duplicate keys: either value is refused
    Row("duplicate tile", "POST", PLAY, b'{"tile": "x", "tile": "7-7"}'),
    Row("duplicate end", "POST", PLAY, b'{"tile": "7-7", "end": "up", "end": "left"}'),
    # nesting: under 16 KiB it is 400, over it 413 before any parsing
    Row("8,000-deep array", "POST", PLAY, b'{"tile": ' + b"[" * 8000 + b"]" * 8000 + b"}"),
    Row("10,000-deep array", "POST", PLAY, b"[" * 10_000 + b"]" * 10_000, 413, "payload_too_large"),
    Row("8,000-deep create", "POST", "/games", b'{"rules":' + b"[" * 8000 + b"]" * 8000 + b"}"),
    Row("1,000-deep dev token", "POST", "/dev/token", b"[" * 1000 + b"]" * 1000, as_="none"),
    Row("10,000-deep dev token", "POST", "/dev/token", b"{" * 10_000, as_="none"),
    Row("17 KiB body", "POST", PLAY, js({"tile": "x" * 17_000}), 413, "payload_too_large"),
    # numbers
    *[
        Row(f"players {text}", "POST", "/games", b'{"preset": "clasico", "players": ' + text + b"}")
        for text in (b"1e400", b"-1e400", b"NaN", b"Infinity", b"-Infinity", b"4.0", b"true")
    ],
    Row("players 5,000 digits", "POST", "/games", b'{"preset":"clasico","players":' + b"9" * 5000),
    Row("players 5,000 digits, closed", "POST", "/games", b'{"players":' + b"9" * 5000 + b"}"),
    *[
        Row(
            f"turn_timeout_hours {text!r}",
            "POST",
            "/games",
            b'{"preset": "dos-jugadores", "players": 2, "turn_timeout_hours": ' + text + b"}",
        )
        for text in (b"NaN", b"Infinity", b"true", b'"1e2"', b"1e308", b"0", b"-1", b"[1]")
    ],
    *[
        Row(
            f"seed {text!r}",
            "POST",
            "/games",
            b'{"preset": "clasico", "players": 4, "seed": ' + text + b"}",
        )
        for text in (b'"7"', b"true", b"1.5", b"1e400", b"NaN", b"-1")
    ],
    Row("private yes", "POST", "/games", js({"preset": "clasico", "players": 4, "private": "yes"})),
    Row("private 1", "POST", "/games", js({"preset": "clasico", "players": 4, "private": 1})),
    Row("preset padded", "POST", "/games", js({"preset": " clasico", "players": 4})),
    Row("preset unicode", "POST", "/games", js({"preset": "clásico", "players": 4})),
    Row("preset control", "POST", "/games", js({"preset": "clasico\u0000", "players": 4})),
    Row("bots huge", "POST", "/games", js({"preset": "clasico", "players": 4, "bots": 10**30})),
    Row(
        "name rtl override",
        "POST",
        "/games",
        js({"preset": "clasico", "players": 4, "name": "\u202eevil"}),
    ),
    Row("unknown field", "POST", "/games", js({"preset": "clasico", "players": 4, "admin": True})),
    Row("move after -1", "GET", GAME + "/moves?after=-1"),
    Row("move after text", "GET", GAME + "/moves?after=abc"),
    Row("move after huge", "GET", GAME + "/moves?after=" + "9" * 5000),
    # tiles that are no tiles of the game: 400 before the rules see them (or who is on turn)
    *[Row(f"tile {tile!r}", "POST", PLAY, js({"tile": tile})) for tile in BAD_TILES],
    *[
        Row(f"tile {tile!r} (bob)", "POST", PLAY, js({"tile": tile}), as_="bob")
        for tile in BAD_TILES[:3]
    ],
    Row("tile number", "POST", PLAY, js({"tile": 66})),
    Row("tile list", "POST", PLAY, js({"tile": [6, 6]})),
    Row("tile object", "POST", PLAY, js({"tile": {"a": 6, "b": 6}})),
    Row("tile null", "POST", PLAY, js({"tile": None})),
    Row("no tile", "POST", PLAY, js({})),
    Row("end unknown", "POST", PLAY, js({"tile": "0-0", "end": "north"})),
    Row("end padded", "POST", PLAY, js({"tile": "0-0", "end": "left "})),
    Row("end control", "POST", PLAY, js({"tile": "0-0", "end": "left\n"})),
    Row("draw with body", "POST", GAME + "/draw", js({"tile": "6-6"})),
    Row("pass with body", "POST", GAME + "/pass", js({"force": True})),
    Row("join name control", "POST", GAME + "/join", js({"name": "bob\u0007"}), as_="carol"),
    Row("join seat text", "POST", GAME + "/join", js({"seat": "1"}), as_="carol"),
    Row("join seat huge", "POST", GAME + "/join", js({"seat": 10**20}), as_="carol"),
    # unicode and control characters elsewhere
    Row("dev token player newline", "POST", "/dev/token", js({"player": "alice\n"}), as_="none"),
    Row("dev token player nul", "POST", "/dev/token", js({"player": "ali\u0000ce"}), as_="none"),
    Row("dev token player emoji", "POST", "/dev/token", js({"player": "🂡"}), as_="none"),
    Row(
        "dev token name rtl",
        "POST",
        "/dev/token",
        js({"player": "x", "name": "\u202e"}),
        as_="none",
    ),
    Row("dev token name number", "POST", "/dev/token", js({"player": "x", "name": 7}), as_="none"),
    Row("dev token array", "POST", "/dev/token", b"[]", as_="none"),
    Row("me name control", "PATCH", "/me", js({"name": "a\u0008b"})),
    Row("me name lone surrogate", "PATCH", "/me", b'{"name": "\\ud800"}'),
    Row(
        "device token control",
        "PUT",
        "/me/devices/phone-h",
        js({"platform": "fcm", "token": "a\bb"}),
    ),
    Row("device platform", "PUT", "/me/devices/phone-h", js({"platform": "sms", "token": "abc"})),
    # dot segments: a client that normalises them would send DELETE /me/devices/.. as DELETE /me
    *[
        Row(f"device id {device} {method}", method, f"/me/devices/{device}", body)
        for device in (".", "..", "%2E", "%2e%2E")
        for method, body in (("DELETE", None), ("PUT", js({"platform": "fcm", "token": "abc"})))
    ],
    *[
        Row(f"device locale {locale!r}", "PUT", "/me/devices/phone-h", js(body))
        for locale in ("es\u0000", "en\n", "\u202een", "en\u2069", "en\u200e", "e s")
        for body in ({"platform": "fcm", "token": "abc", "locale": locale},)
    ],
    *[
        Row(f"blank name {name!r}", "PATCH", "/me", js({"name": name}))
        for name in ("\u200b", "\u2060", "\ufeff", "\u3164", "\u2800", "\U000e0041", " \u034f ")
    ],
    Row("blank join name", "POST", GAME + "/join", js({"name": "\u3164"}), as_="carol"),
    Row("read until object", "POST", "/me/notifications/read", js({"until": {"$gt": ""}})),
    # game ids: traversal, 10,000 characters, odd bytes
    Row("traversal", "GET", "/games/..%2F..%2Fetc%2Fpasswd", status=404, code="game_not_found"),
    Row(
        "traversal play", "POST", "/games/..%2Fme/play", js({"tile": "7-7"}), 404, "game_not_found"
    ),
    Row("dotdot id", "GET", "/games/..", status=404, code="game_not_found"),
    Row("10,000-char id", "GET", "/games/" + LONG, status=404, code="game_not_found"),
    Row(
        "10,000-char id play",
        "POST",
        f"/games/{LONG}/play",
        js({"tile": "7-7"}),
        404,
        "game_not_found",
    ),
    Row("nul in id", "GET", "/games/%00", status=404, code="game_not_found"),
    Row("unicode id", "GET", "/games/" + quote("ジ" * 20), status=404, code="game_not_found"),
    Row("pk injection", "GET", "/games/" + quote("x#GAME"), status=404, code="game_not_found"),
    Row(
        "other game's moves",
        "GET",
        "/games/" + "A" * 22 + "/moves",
        status=404,
        code="game_not_found",
    ),
    # cursors and list parameters
    *[
        Row(f"cursor {name}", "GET", f"{path}?cursor={quote(cursor)}")
        for path in ("/games", "/me/games", "/me/notifications")
        for name, cursor in (
            ("garbage", "garbage"),
            ("base64 json", base64.urlsafe_b64encode(b'{"pk": "GAME#x", "sk": "GAME"}').decode()),
            ("control", "\u0000\n"),
            ("10,000", LONG),
        )
    ],
    Row("limit negative", "GET", "/me/games?limit=-1"),
    Row("limit huge", "GET", "/games?limit=" + "9" * 100),
    Row("limit text", "GET", "/me/notifications?limit=ten"),
    Row("status unknown", "GET", "/me/games?status=deleted"),
    Row("updated_after garbage", "GET", "/me/games?updated_after=yesterday"),
    # issue 20's three 500s: an empty index key, Unicode digits, a cursor before updated_after
    Row("cursor empty fields", "GET", "/games?cursor=eyJ1IjogIiIsICJpIjogIiJ9"),
    Row("cursor empty fields mine", "GET", "/me/games?cursor=eyJ1IjogIiIsICJpIjogIiJ9"),
    *[
        Row(f"updated_after digits {year}", "GET", f"/me/games?updated_after={quote(when)}")
        for year in (
            "\U0001d7d0\U0001d7ce\U0001d7d0\U0001d7d4",
            "\uff12\uff10\uff12\uff16",
            "\u0662\u0660\u0662\u0666",
        )
        for when in (f"{year}-11-30T12:00:00Z",)
    ],
    Row(
        "cursor before updated_after",
        "GET",
        "/me/games?updated_after=2099-01-01T00:00:00Z&cursor="
        + quote(
            base64.urlsafe_b64encode(js({"u": "2026-11-30T12:00:00Z", "i": "A" * 22})).decode()
        ),
    ),
    # wrong methods and content types
    Row("DELETE a game", "DELETE", GAME, status=404, code="not_found"),
    Row("PUT play", "PUT", PLAY, js({"tile": "7-7"}), 404, "not_found"),
    Row("GET play", "GET", PLAY, status=404, code="not_found"),
    Row("PATCH games", "PATCH", "/games", js({}), 404, "not_found"),
    Row("BREW", "BREW", GAME, status=404, code="not_found"),
    Row("lowercase get", "get", GAME, status=404, code="not_found"),
    Row("GET dev token", "GET", "/dev/token", status=404, code="not_found", as_="none"),
    Row("text/plain play", "POST", PLAY, b"7-7", headers={"Content-Type": "text/plain"}),
    Row(
        "form play",
        "POST",
        PLAY,
        b"tile=7-7",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    ),
    Row("xml create", "POST", "/games", b"<game/>", headers={"Content-Type": "application/xml"}),
    # tokens
    Row("no token", "GET", GAME, status=401, code="unauthorized", as_="none"),
    Row("no token play", "POST", PLAY, js({"tile": "7-7"}), 401, "unauthorized", as_="none"),
    *[
        Row(f"token {kind}", "POST", PLAY, js({"tile": "0-0"}), 401, "unauthorized", as_=kind)
        for kind in (
            "expired",
            "tampered",
            "bad_signature",
            "alg_none",
            "hs512",
            "other_key",
            "exp_null",
            "nbf_future",
            "sub_number",
            "no_sub",
            "other_issuer",
            "garbage",
            "empty_parts",
        )
    ],
    Row("basic auth", "GET", GAME, status=401, code="unauthorized", as_="basic"),
    Row("bearer only", "GET", "/me/games", status=401, code="unauthorized", as_="bearer_only"),
    # another player's token on a seat: 403 before any rule
    *[
        Row(
            f"stranger {action}", "POST", f"{GAME}/{action}", js(body), 403, "not_a_player", "carol"
        )
        for action, body in (("play", {"tile": "0-0"}), ("draw", {}), ("pass", {}), ("leave", {}))
    ],
    # idempotency keys and other headers
    Row(
        "10,000-char idempotency key",
        "POST",
        GAME + "/draw",
        js({}),
        headers={"Idempotency-Key": LONG},
    ),
    Row(
        "10,000-char idempotency key, create",
        "POST",
        "/games",
        js({"preset": "clasico", "players": 4, "bots": 3}),
        headers={"Idempotency-Key": LONG},
    ),
    Row(
        "idempotency key spaces", "POST", GAME + "/pass", js({}), headers={"Idempotency-Key": "a b"}
    ),
    Row("if-match garbage", "POST", GAME + "/pass", js({}), headers={"If-Match": "garbage"}),
    Row(
        "if-match huge",
        "POST",
        GAME + "/pass",
        js({}),
        headers={"If-Match": '"' + "9" * 5000 + '"'},
    ),
    Row(
        "if-match stale",
        "POST",
        GAME + "/draw",
        js({}),
        412,
        "version_mismatch",
        headers={"If-Match": '"1"'},
    ),
]


class Attack:
    """Two players in a game being played, a stranger, and the means to check the game is as
    it was and that an answer names no tile its caller cannot see."""

    def __init__(self, rt: Runtime) -> None:
        from local.tokens import load_secret

        self.rt = rt
        run = os.getpid()
        self.tokens = {
            "alice": rt.token(f"hostile-alice-{run}", "Alice"),
            "bob": rt.token(f"hostile-bob-{run}", "Bob"),
            "carol": rt.token(f"hostile-carol-{run}", "Carol"),
        }
        status, _, view = rt.request(
            "POST", "/games", {"preset": "dos-jugadores", "players": 2, "seed": 11}, self.alice
        )
        assert status == 201, view
        self.game = view["id"]
        status, _, view = rt.request("POST", f"/games/{self.game}/join", {}, self.bob)
        assert status == 200 and view["status"] == "playing", view
        self.tokens.update(bad_tokens(load_secret(), self.alice))
        self.tokens["basic"] = "Basic YWxpY2U6cGFzcw=="
        self.tokens["bearer_only"] = "Bearer"
        self.before = self.state()

    @property
    def alice(self) -> str:
        return self.tokens["alice"]

    @property
    def bob(self) -> str:
        return self.tokens["bob"]

    def state(self) -> dict[str, Any]:
        """Everything a hostile request must leave as it was."""
        out: dict[str, Any] = {}
        for who in ("alice", "bob", "carol"):
            status, _, view = self.rt.request("GET", f"/games/{self.game}", token=self.tokens[who])
            assert status == 200, view
            out[who] = view
            status, _, mine = self.rt.request("GET", "/me/games", token=self.tokens[who])
            assert status == 200, mine
            out[f"{who} games"] = sorted((g["id"], g["version"]) for g in mine["games"])
        return out

    def hidden_from(self, who: str) -> set[str]:
        """The tiles ``who`` may not see: all but their own hand and the board."""
        view = self.before.get(who) or self.before["carol"]
        own = set(view.get("you", {}).get("hand", [])) if "you" in view else set()
        board = {t["tile"] for t in view["board"]["tiles"]}
        return DOUBLE_SIX - own - board

    def send(self, row: Row) -> tuple[int, dict[str, str], bytes]:
        """The request as written (raw bytes, any method, any header), on a new connection."""
        conn = http.client.HTTPConnection("127.0.0.1", self.rt.port, timeout=30)
        try:
            conn.putrequest(
                row.method, row.path.replace("{game}", self.game), skip_accept_encoding=True
            )
            headers = {"Content-Type": "application/json", **row.headers}
            if row.body is not None:
                headers["Content-Length"] = str(len(row.body))
            token = self.tokens.get(row.as_)
            if token is not None:
                scheme = "" if row.as_ in ("basic", "bearer_only") else "Bearer "
                headers["Authorization"] = scheme + token
            for key, value in headers.items():
                conn.putheader(key, value)
            conn.endheaders(row.body)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()


@pytest.fixture(scope="module")
def attack(runtime: Runtime) -> Attack:
    return Attack(runtime)


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_hostile_request(attack: Attack, row: Row) -> None:
    status, headers, raw = attack.send(row)
    assert status < 500, (status, raw[:500])
    assert headers.get("Content-Type") == "application/json", headers
    body = json.loads(raw)
    assert (status, body["error"]["code"]) == (row.status, row.code), body
    error = body["error"]
    assert set(error) - {"fields"} == {"code", "message", "params"}, error
    assert isinstance(error["message"], str) and isinstance(error["params"], dict), error
    leaked = tiles_shown(body) & attack.hidden_from(row.as_)
    assert not leaked, f"{row.as_} was shown hidden tiles {sorted(leaked)}: {body}"
    assert attack.state() == attack.before, "a hostile request changed the game"


def chunked(body: bytes, size: int = 100) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


DEV_TOKEN_CHUNKED = (
    b"POST /dev/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n"
)
#: what HTTP itself refuses, sent as raw bytes: (name, request, status, code)
RAW: list[tuple[str, bytes, int, str]] = [
    ("bad chunk size", DEV_TOKEN_CHUNKED + b"zz\r\nabc\r\n0\r\n\r\n", 400, "invalid_request"),
    ("chunk size overflow", DEV_TOKEN_CHUNKED + b"fffffffffff\r\n", 400, "invalid_request"),
    (
        "chunk longer than said",
        DEV_TOKEN_CHUNKED + b"2\r\nabcdef\r\n0\r\n\r\n",
        400,
        "invalid_request",
    ),
    (
        "chunked 1,000-deep",
        DEV_TOKEN_CHUNKED + chunked(b"[" * 1000 + b"]" * 1000),
        400,
        "invalid_request",
    ),
    ("chunked 20 KiB", DEV_TOKEN_CHUNKED + chunked(b" " * 20_000, 4000), 413, "payload_too_large"),
    (
        "content-length text",
        b"POST /dev/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: ten\r\n\r\n{}",
        400,
        "invalid_request",
    ),
    (
        "content-length negative",
        b"POST /dev/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: -1\r\n\r\n{}",
        400,
        "invalid_request",
    ),
    (
        "body shorter than said",
        b"POST /dev/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{}",
        400,
        "invalid_request",
    ),
    (
        "long request line",
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
        414,
        "invalid_request",
    ),
    (
        "long header",
        b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n",
        431,
        "invalid_request",
    ),
    ("garbage request line", b"GARBAGE\r\n\r\n", 400, "invalid_request"),
    ("unknown method", b"BREW /games HTTP/1.1\r\nHost: localhost\r\n\r\n", 404, "not_found"),
]


def raw_exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """Send ``request`` as is, half-close, read the whole answer: (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("name,request_bytes,status,code", RAW, ids=[r[0] for r in RAW])
def test_what_http_refuses_is_a_json_error(
    attack: Attack, name: str, request_bytes: bytes, status: int, code: str
) -> None:
    got, raw = raw_exchange(attack.rt.port, request_bytes)
    assert got == status, (got, raw[:300])
    error = json.loads(raw)["error"]
    assert (error["code"], set(error)) == (code, {"code", "message", "params"}), error
    assert attack.state() == attack.before
