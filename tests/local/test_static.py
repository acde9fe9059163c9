"""The web client's files as the local runtime serves them (local/static.py): ``GET /`` is
web/index.html and ``/web/<file>`` the rest, with their content types and ETags; nothing outside
web/ is reachable, and every API route and the 404 of an unknown route stay as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from local import static

from .test_server import Server, assert_error


def get(
    server: Server, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    lines = [f"GET {path} HTTP/1.1", "Host: localhost", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return server.raw("\r\n".join(lines).encode() + b"\r\n\r\n")


def test_the_page_is_served_at_the_root(server: Server) -> None:
    status, headers, body = get(server, "/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == (static.WEB_ROOT / "index.html").read_bytes()
    assert headers["Cache-Control"] == "no-cache"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, _, _ = get(server, "/?join=abc")  # the join link is the page too
    assert status == 200


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/web/app.js", "text/javascript; charset=utf-8"),
        ("/web/config.js", "text/javascript; charset=utf-8"),
        ("/web/style.css", "text/css; charset=utf-8"),
    ],
)
def test_assets_have_their_content_types(server: Server, path: str, content_type: str) -> None:
    status, headers, body = get(server, path)
    assert status == 200
    assert headers["Content-Type"] == content_type
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert body == (static.WEB_ROOT / path.removeprefix("/web/")).read_bytes()


def test_an_unchanged_file_is_304_with_its_etag(server: Server) -> None:
    _, headers, _ = get(server, "/web/app.js")
    etag = headers["ETag"]
    status, again, body = get(server, "/web/app.js", {"If-None-Match": etag})
    assert (status, body, again["ETag"]) == (304, b"", etag)
    status, _, body = get(server, "/web/app.js", {"If-None-Match": '"other"'})
    assert status == 200 and body


def test_if_none_match_is_read_as_rfc_9110_says(server: Server) -> None:
    """``*`` and weak tags match (§13.1.2: If-None-Match compares weakly), in a list too,
    empty list elements ignored; another tag or a header that is no list of tags sends the file."""
    _, headers, _ = get(server, "/web/app.js")
    etag = headers["ETag"]
    for sent in ("*", f"W/{etag}", f'"a", W/{etag}', f'W/"b",{etag}', f'"a", , {etag} '):
        status, again, body = get(server, "/web/app.js", {"If-None-Match": sent})
        assert (status, body, again["ETag"]) == (304, b"", etag), sent
    for sent in ('W/"other"', '"a", "b"', etag.strip('"'), f"{etag[:-1]}", f"{etag}, junk"):
        status, _, body = get(server, "/web/app.js", {"If-None-Match": sent})
        assert status == 200 and body, sent


@pytest.mark.parametrize(
    "path",
    [
        "/web/../template.yaml",
        "/web/%2e%2e/template.yaml",
        "/web/%2E%2E/%2E%2E/etc/passwd",
        "/web/..%2ftemplate.yaml",
        "/web/..%5ctemplate.yaml",
        "/web/%2fetc/passwd",
        "//etc/passwd",
        "/web//etc/passwd",
        "/web/",
        "/web/vendor",
        "/web/.hidden.js",
        "/web/app.js%00.css",
        "/web/missing.js",
        "/web/../local/server.py",
        "/index.html",
        "/app.js",
    ],
)
def test_nothing_outside_web_is_served(server: Server, path: str) -> None:
    status, headers, body = get(server, path)
    assert status == 404, body[:200]
    assert headers["Content-Type"] == "application/json"
    assert json.loads(body)["error"]["code"] == "not_found"


def test_resolve_refuses_a_symlink_out_of_the_root(tmp_path: Path) -> None:
    root = tmp_path / "web"
    root.mkdir()
    (root / "ok.js").write_text("ok")
    (tmp_path / "secret.js").write_text("secret")
    (root / "out.js").symlink_to(tmp_path / "secret.js")
    assert static.resolve("/web/ok.js", root) == (root / "ok.js").resolve()
    assert static.resolve("/web/out.js", root) is None
    assert static.resolve("/web/ok.py", root) is None


def test_api_routes_and_unknown_routes_are_unchanged(server: Server) -> None:
    assert_error(server.request("GET", "/nope"), 404, "not_found")
    assert_error(server.request("POST", "/"), 404, "not_found")  # only GET and HEAD are the page
    assert_error(server.request("DELETE", "/web/app.js"), 404, "not_found")
    status, _, body = server.request("GET", "/health")
    assert status == 200 and body["function"] == "HealthFunction"
