"""POST /games/{id}/draw: draw from the boneyard (the view's you.drawn holds the tile)."""

from domino.api.app import make_app
from domino.api.http import game_command, lambda_handler

app = make_app(validation=False)
game_command(app, "draw", "tiles_drawn")
handler = lambda_handler(app, records_metrics=True)
