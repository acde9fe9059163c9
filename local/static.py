"""The web client's files (``web/``), served by the local runtime beside the API.

``GET /`` is ``web/index.html`` and ``GET /web/<file>`` any other file of ``web/``; no API
route starts with ``/web/`` and ``/`` has none, so no route of the template changes. Only the
suffixes below are served, with their content types; a path that leaves ``web/`` (``..``, an
encoded slash or backslash, a symlink out) or names a folder, a dotfile or any other suffix is
not found. Answers carry a strong ``ETag`` (a digest of the bytes) and ``Cache-Control:
no-cache``: a browser revalidates every load and gets 304 for what did not change, as RFC 9110
§13.1.2 reads ``If-None-Match``: ``*``, or a list of tags compared weakly (``W/"x"`` matches
``"x"``).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import unquote

from local.paths import REPO_ROOT

WEB_ROOT = REPO_ROOT / "web"
PREFIX = "/web/"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
#: what the page may load and connect to: itself, and an API and WebSocket elsewhere when
#: web/config.js or the query string names one
POLICY = (
    "default-src 'self'; img-src 'self' data:; connect-src 'self' http: https: ws: wss:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


#: one element of an If-None-Match list, an entity-tag (RFC 9110 §8.8.3: ``[W/] "<etagc>*"``) or
#: nothing (§5.6.1: empty elements are ignored), and the comma after it; ``*`` is matched apart
ENTITY_TAG = re.compile(r'[ \t]*(?:(?:W/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(?:,|$)')


def none_match(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` names the current ``etag`` (a strong ``"<tag>"``): ``*``
    (the file exists), or a tag of the list equal to it by weak comparison. A list that does
    not parse as entity-tags matches nothing (the file is sent whole)."""
    if if_none_match is None:
        return False
    text = if_none_match.strip(" \t")
    if text == "*":
        return True
    opaque = etag.removeprefix("W/")[1:-1]
    position, found = 0, False
    while position < len(text):
        tag = ENTITY_TAG.match(text, position)
        if tag is None or tag.end() == position:
            return False
        found = found or (tag[1] is not None and tag[1] == opaque)
        position = tag.end()
    return found


def is_static(path: str) -> bool:
    """Whether a request path (without its query) belongs to the web client."""
    return path == "/" or path.startswith(PREFIX)


def resolve(path: str, root: Path = WEB_ROOT) -> Path | None:
    """The file a static path names, or None when it names none that may be served."""
    if path == "/":
        relative = "index.html"
    elif path.startswith(PREFIX):
        relative = unquote(path[len(PREFIX) :])
    else:
        return None
    parts = relative.split("/")
    if (
        not relative
        or "\\" in relative
        or "\x00" in relative
        or any(part in ("", ".", "..") or part.startswith(".") for part in parts)
    ):
        return None
    base = root.resolve()
    try:
        target = (base / relative).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(base) or not target.is_file():
        return None
    if target.suffix.lower() not in CONTENT_TYPES:
        return None
    return target


def answer(
    path: str, if_none_match: str | None, root: Path = WEB_ROOT
) -> tuple[int, bytes, dict[str, str]] | None:
    """Status, body and headers for a GET of a static path, or None when it is not found."""
    target = resolve(path, root)
    if target is None:
        return None
    body = target.read_bytes()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {
        "Content-Type": CONTENT_TYPES[target.suffix.lower()],
        "ETag": etag,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if target.suffix.lower() == ".html":
        headers["Content-Security-Policy"] = POLICY
    if none_match(if_none_match, etag):
        return 304, b"", headers
    return 200, body, headers
