"""Where the client keeps the API's URL and the player's token, and how env vars override them.

The file is ``$XDG_CONFIG_HOME/domino/config.json`` (``~/.config/domino/config.json`` without
the variable), written with mode 0600 because it holds a bearer token. ``DOMINO_URL``,
``DOMINO_WS_URL`` and ``DOMINO_TOKEN`` override what the file says, so scripts and tests can
run without touching it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "http://127.0.0.1:3000"


@dataclass(frozen=True)
class Settings:
    """What a command needs to reach the API as the logged-in player."""

    #: the HTTP API's base URL, without a trailing slash
    url: str = DEFAULT_URL
    #: the bearer token (a dev token locally, a Cognito/OIDC JWT when deployed); never printed
    token: str | None = None
    #: the WebSocket URL; None derives it from ``url`` as the local runtime serves it
    ws_url: str | None = None
    #: hosted sign-in (``login --hosted``): the domain and client id, and the refresh token
    #: that renews ``token`` when it is about to expire
    auth_domain: str | None = None
    client_id: str | None = None
    refresh_token: str | None = None

    @property
    def websocket_url(self) -> str:
        """The local runtime serves its WebSocket at ``/ws`` on the HTTP port; a deployed stack
        has a separate WebSocket API, whose URL ``login --ws-url`` stores."""
        if self.ws_url:
            return self.ws_url
        parts = urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/ws", "", ""))


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "domino" / "config.json"


def load() -> Settings:
    """The file's settings, then the environment's overrides."""
    stored: dict[str, str | None] = {}
    path = config_path()
    if path.exists():
        stored = json.loads(path.read_text())
    url = os.environ.get("DOMINO_URL") or stored.get("url") or DEFAULT_URL
    token = os.environ.get("DOMINO_TOKEN") or stored.get("token")
    ws_url = os.environ.get("DOMINO_WS_URL") or stored.get("ws_url")
    if os.environ.get("DOMINO_TOKEN"):  # a token given from outside is used as it is
        return Settings(url=url.rstrip("/"), token=token, ws_url=ws_url)
    return Settings(
        url=url.rstrip("/"),
        token=token,
        ws_url=ws_url,
        auth_domain=stored.get("auth_domain"),
        client_id=stored.get("client_id"),
        refresh_token=stored.get("refresh_token"),
    )


def save(settings: Settings) -> Path:
    """Writes the file readable by its owner only (created so, never widened afterwards)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(asdict(settings), file, indent=2)
    path.chmod(0o600)  # an older file may have been created with wider rights
    return path
