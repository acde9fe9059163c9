"""A WebSocket's ``game_changed`` messages, each stamped when it arrived (a helper module:
``make bench`` does not run it)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any


class Inbox:
    """A socket's messages, each stamped when it arrived (a thread reads them)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=10)
        self.arrived: dict[tuple[str, int], tuple[float, dict[str, Any]]] = {}
        self.latest: dict[str, int] = {}  # per game, the highest version announced
        self.messages: list[tuple[float, dict[str, Any]]] = []  # every game_changed, in order
        self.changed = threading.Condition()
        self.frames = 0  # every frame received, and its bytes on the wire (RFC 6455 framing)
        self.wire_bytes = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.ws:
                at = time.perf_counter()
                size = len(raw.encode() if isinstance(raw, str) else raw)
                self.frames += 1
                self.wire_bytes += size + (2 if size < 126 else 4 if size < 65_536 else 10)
                message = json.loads(raw)
                if message.get("type") == "game_changed":
                    with self.changed:
                        key = (message["game"], message["version"])
                        self.arrived.setdefault(key, (at, message))
                        self.messages.append((at, message))
                        game = message["game"]
                        self.latest[game] = max(self.latest.get(game, 0), message["version"])
                        self.changed.notify_all()
        except ConnectionClosed:
            pass

    def wait(self, game: str, version: int, within: float) -> tuple[float, dict[str, Any]] | None:
        with self.changed:
            self.changed.wait_for(lambda: (game, version) in self.arrived, timeout=within)
            return self.arrived.get((game, version))

    def wait_newer(self, game: str, version: int, within: float) -> bool:
        """Whether a change of ``game`` past ``version`` was announced (within ``within`` s)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.latest.get(game, 0) > version, timeout=within)

    def wait_for(
        self, wanted: Callable[[dict[str, Any]], bool], within: float
    ) -> tuple[float, dict[str, Any]] | None:
        """The first message ``wanted`` accepts, and when it arrived (None: not within
        ``within`` s): several may share a game and version (``match_found`` and
        ``your_turn``), which ``wait`` does not tell apart."""

        def first() -> tuple[float, dict[str, Any]] | None:
            return next(((at, m) for at, m in self.messages if wanted(m)), None)

        with self.changed:
            self.changed.wait_for(lambda: first() is not None, timeout=within)
            return first()

    def close(self) -> None:
        self.ws.close()
