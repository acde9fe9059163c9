"""GET /rules: every preset with its name, source, player range and ruleset (no auth)."""

from typing import Any

from domino.api.app import make_app
from domino.api.http import lambda_handler, preset_list

app = make_app(validation=False)
PRESET_LIST = preset_list()


@app.get("/rules")
def rules() -> Any:
    return PRESET_LIST


handler = lambda_handler(app)
