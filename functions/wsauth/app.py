"""The WebSocket API's $connect authorizer (a Lambda REQUEST authorizer: WebSocket APIs take no
JWT authorizer). Browsers cannot set headers on a WebSocket, so the token comes in the query
string (``?token=<JWT>``); it is verified as the HTTP API's JWT authorizer does (the same
issuer and audience, the issuer's keys from its JWKS, cached). A refused token raises
``Unauthorized``, which API Gateway answers 401 at the handshake."""

from typing import Any

from domino.api.authorizer import authorize
from domino.api.entry import entry_point


def on_connect(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    return authorize(event)


handler = entry_point(on_connect)
