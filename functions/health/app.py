"""GET /health: the readiness probe (no authentication, no database)."""

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.typing import LambdaContext
from domino.api.app import make_app

logger = Logger()
app = make_app(validation=False)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
