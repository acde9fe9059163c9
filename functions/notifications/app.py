"""GET /me/notifications (the inbox, newest first, and the unread count) and
POST /me/notifications/read (that notification and every older one are read)."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import ReadNotifications
from domino.api.request import caller
from domino.api.responses import no_content, respond_page
from domino.api.wiring import inbox

app = make_app()


@app.get("/me/notifications")
def notifications(
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cursor: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
) -> Response[Any]:
    page, unread = inbox().page(caller(app), limit, cursor)
    return respond_page(app, page, "notifications", unread=unread)


@app.post("/me/notifications/read")
def read() -> Response[Any]:
    who = caller(app)  # 401 before 400
    inbox().mark_read(who, ReadNotifications.parse(app.current_event.body).until)
    return no_content()


handler = lambda_handler(app)
