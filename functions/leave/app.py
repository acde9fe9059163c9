"""POST /games/{id}/leave: free a seat before the deal, or hand it to a bot (a forfeit)."""

from domino.api.app import make_app
from domino.api.http import game_command, lambda_handler

app = make_app(validation=False)
game_command(app, "leave", "games_left")
handler = lambda_handler(app, records_metrics=True)
