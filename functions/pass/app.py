"""POST /games/{id}/pass: pass when you can neither play nor draw."""

from domino.api.app import make_app
from domino.api.http import game_command, lambda_handler

app = make_app(validation=False)
game_command(app, "pass", "turns_passed")
handler = lambda_handler(app, records_metrics=True)
