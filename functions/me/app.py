"""GET /me: who the token says the caller is (the claims API Gateway's authorizer verified)."""

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from domino.api.app import make_app
from domino.api.identity import caller_from_event

logger = Logger()
app = make_app(validation=False)


@app.get("/me")
def me() -> dict[str, str]:
    caller = caller_from_event(app.current_event.raw_event)
    return {"player": caller.player, "name": caller.name}


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
