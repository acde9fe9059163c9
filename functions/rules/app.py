"""GET /rules: every preset with its name, source, player range and ruleset (no auth)."""

from typing import Any

from domino.api.app import make_app
from domino.api.entry import lambda_handler
from domino.api.responses import Reply, digest_tag, preset_list, respond

app = make_app(validation=False)
PRESET_LIST = preset_list()
PRESET_TAG = digest_tag(PRESET_LIST)  # the presets change only with a deployment


@app.get("/rules")
def rules() -> Any:
    return respond(Reply(200, PRESET_LIST, {"ETag": PRESET_TAG}), app)


handler = lambda_handler(app)
