"""POST /games/{id}/join: take a seat; filling the last seat deals the first hand."""

from domino.api.app import make_app
from domino.api.http import game_command, lambda_handler

app = make_app(validation=False)
game_command(app, "join", "games_joined")
handler = lambda_handler(app, records_metrics=True)
