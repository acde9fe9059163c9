"""GET /me: who the token says the caller is (the claims API Gateway's authorizer verified)."""

from domino.api.app import make_app
from domino.api.http import caller, lambda_handler

app = make_app(validation=False)


@app.get("/me")
def me() -> dict[str, str]:
    who = caller(app)
    return {"player": who.player, "name": who.name}


handler = lambda_handler(app)
