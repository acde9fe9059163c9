"""GET /health: the readiness probe (no authentication, no database)."""

from domino.api.app import make_app
from domino.api.http import lambda_handler

app = make_app(validation=False)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


handler = lambda_handler(app)
