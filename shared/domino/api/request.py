"""What a route reads of its request besides the body: the caller and a header."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from domino.api.identity import caller_from_event
from domino.service.errors import AccountBanned
from domino.service.values import Caller

__all__ = ["Caller", "caller", "header"]


def caller(app: APIGatewayHttpResolver) -> Caller:
    """The authenticated caller, unless the operator banned the account: then every token of
    it is 401, whatever the route. The profile's mark is read with the call's first GetItem,
    or alone before any other request or answer (``make_app``'s ``settle_ban``;
    docs/decisions.md, "Bans")."""
    from domino.api.wiring import account_store  # the composition root, built on first use

    found = caller_from_event(app.current_event.raw_event)
    account_store().refuse_if_banned(found.player, _refuse)
    return found


def _refuse() -> None:
    raise AccountBanned()


def header(app: APIGatewayHttpResolver, name: str) -> str | None:
    headers = app.current_event.headers or {}
    return headers.get(name.lower()) or headers.get(name)
