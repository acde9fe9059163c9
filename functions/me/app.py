"""GET /me (the caller: their player id, display name and muted notification types) and PATCH
/me (the display name they choose: seats they take afterwards show it; and the notification
types not pushed to their devices)."""

from typing import Any

from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.models import UpdateMeBody
from domino.api.request import caller
from domino.api.wiring import accounts

app = make_app(validation=False)


@app.get("/me")
def me() -> dict[str, Any]:
    return accounts().me(caller(app))


@app.patch("/me")
def update_me() -> dict[str, Any]:
    who = caller(app)  # 401 before 400
    return accounts().change_name(who, UpdateMeBody.parse(app.current_event.body))


handler = lambda_handler(app)
