"""The local runtime's listening HTTP server: what every request handler shares.

It holds the template, the dev token's secret, the containers the functions run in, the dev
clock, the schedules, moto's SNS, the WebSocket hub (``local.websocket``, on the same port)
and the names it answers as (``local.guards``); each connection gets its own thread and
``local.handler.RequestHandler``, and closes after a lingering read (``local.bodies``).
"""

from __future__ import annotations

import sys
from http.server import ThreadingHTTPServer
from typing import Any

from local import websocket
from local.bodies import IDLE_TIMEOUT_SECONDS, REQUEST_TIMEOUT_SECONDS, linger
from local.containers import Containers
from local.environment import DevClock
from local.guards import Names
from local.handler import RequestHandler
from local.schedules import ScheduleSource
from local.sns import LocalSns
from local.template import Template
from local.websocket import WebSocketHub


class LocalRuntime(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default listen backlog is 5: a burst of clients (a race test, a load
    # test) would see connections reset before the threads accept them
    request_queue_size = 128

    def shutdown_request(self, request: Any) -> None:
        """Close after a lingering read (``linger``)."""
        linger(request)
        self.close_request(request)

    def __init__(
        self,
        address: tuple[str, int],
        template: Template,
        secret: bytes,
        containers: Containers,
        quiet: bool = False,
        clock: DevClock | None = None,
        schedules: list[ScheduleSource] | None = None,
        sns: LocalSns | None = None,
        ws_idle_timeout: float = websocket.IDLE_TIMEOUT_SECONDS,
        ws_max_age: float = websocket.MAX_CONNECTION_SECONDS,
        idle_timeout: float = IDLE_TIMEOUT_SECONDS,
        request_timeout: float = REQUEST_TIMEOUT_SECONDS,
    ) -> None:
        super().__init__(address, RequestHandler)
        self.idle_timeout, self.request_timeout = idle_timeout, request_timeout
        self.names = Names(address[0], int(self.server_address[1]))
        self.template = template
        self.secret = secret
        self.containers = containers
        self.quiet = quiet
        self.clock = clock
        self.schedules = schedules or []
        self.sns = sns
        api = template.websocket_api
        self.websockets = (
            None
            if api is None
            else WebSocketHub(
                api,
                secret,
                containers,
                idle_timeout=ws_idle_timeout,
                max_age=ws_max_age,
                log=None if quiet else lambda line: print(line, file=sys.stderr, flush=True),
            )
        )

    def run_schedule(self, source: ScheduleSource, event: dict[str, Any]) -> Any:
        return self.containers.invoke(source.code_uri, source.handler, source.function, event)
