"""DELETE /me: delete the caller's account (games left as a leave leaves them, devices, inbox,
connections and profile removed, the stack's user pool's user deleted). Idempotent: 204 again.

A function of its own: it alone may delete users of the user pool and items across a player's
partition, and it may take longer than a move (every active game is left)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import make_app
from domino.api.entry import count, lambda_handler
from domino.api.request import caller
from domino.api.responses import no_content
from domino.api.wiring import accounts

app = make_app(validation=False)


@app.delete("/me")
def delete_me() -> Response[Any]:
    accounts().delete(caller(app))
    count("accounts_deleted")
    return no_content()


handler = lambda_handler(app, records_metrics=True)
