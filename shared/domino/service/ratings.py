"""Ratings per pool (docs/api.md#ratings): the numbers every feature that seats strangers reads.

A **pool** is a preset and a player count, ``<preset>:<players>`` (``dos-jugadores:2``). The
model is Weng-Lin (OpenSkill's Plackett-Luce) with mu0 = 25 and sigma0 = 25/3; the number shown
is ``round(1000 + 40 * (mu - 3 * sigma))``, so a newcomer shows 1000. A rating is provisional
for its first ``PROVISIONAL_GAMES`` rated matches. The update itself (``openskill``) is imported
only where a finished rated match is rated, never on the play path.
"""

from __future__ import annotations

from domino.engine import PRESETS
from domino.engine.errors import InvalidInput
from domino.store.ratings import MU0, PROVISIONAL_GAMES, SIGMA0, Rating, shown_rating

__all__ = [
    "MU0",
    "PROVISIONAL_GAMES",
    "SIGMA0",
    "Rating",
    "parse_pool",
    "pool_name",
    "shown_rating",
]

#: a pool's text at most: a preset id, a colon and the player count
MAX_POOL_LENGTH = 64


def pool_name(preset: str, players: int) -> str:
    return f"{preset}:{players}"


def parse_pool(pool: str) -> tuple[str, int]:
    """``(preset, players)`` of a pool's text; ``InvalidInput`` for an unknown preset or a
    player count the preset is not played with."""
    preset_id, _, count = pool.partition(":") if len(pool) <= MAX_POOL_LENGTH else ("", "", "")
    preset = PRESETS.get(preset_id)
    if preset is None or not count.isdigit() or count != str(int(count)):
        raise InvalidInput("A pool is <preset>:<players>, such as dos-jugadores:2.")
    players = int(count)
    if not preset.min_players <= players <= preset.max_players:
        raise InvalidInput(
            "{preset} is played by {min} to {max} players.",
            preset=preset_id,
            min=preset.min_players,
            max=preset.max_players,
        )
    return preset_id, players
