"""GET /health: the readiness probe (no authentication, no database). Deployed, this function
is also the HTTP API's ``$default`` route: any unknown route reaches it and the resolver answers
404 ``not_found`` in the contract's shape (docs/api.md#deployed-differences)."""

from domino.api.app import make_app
from domino.api.entry import lambda_handler

app = make_app(validation=False)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


handler = lambda_handler(app)
