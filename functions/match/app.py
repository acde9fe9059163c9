"""Quick match: POST /match/tickets (search for strangers; matched at once when the queue
allows), GET /match/tickets/{id} and DELETE /match/tickets/{id} (docs/api.md#quick-match)."""

from typing import Any

from aws_lambda_powertools.event_handler import Response
from domino.api.app import json_response, make_app
from domino.api.entry import lambda_handler
from domino.api.idempotency import mutate
from domino.api.models import OpenTicket
from domino.api.request import Caller, caller
from domino.api.responses import Reply, no_content
from domino.api.wiring import quick_match

app = make_app(validation=False)


@app.post("/match/tickets")
def open_ticket() -> Response[Any]:
    body = app.current_event.body

    def command(who: Caller) -> Reply:
        ticket, ticket_id = quick_match().open(who, OpenTicket.parse(body))
        return Reply(201, ticket, {"Location": f"/match/tickets/{ticket_id}"})

    return mutate(app, command, "tickets_opened", precheck=lambda: OpenTicket.parse(body))


@app.get("/match/tickets/<ticket_id>")
def read_ticket(ticket_id: str) -> Response[Any]:
    return json_response(200, quick_match().read(caller(app), ticket_id))


@app.delete("/match/tickets/<ticket_id>")
def cancel_ticket(ticket_id: str) -> Response[Any]:
    quick_match().cancel(caller(app), ticket_id)
    return no_content()


handler = lambda_handler(app)
