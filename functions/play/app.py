"""POST /games/{id}/play: lay a tile on an end."""

from domino.api.app import make_app
from domino.api.http import game_command, lambda_handler

app = make_app(validation=False)
game_command(app, "play", "moves_played")
handler = lambda_handler(app, records_metrics=True)
