"""Pools and the rating players see (docs/api.md#ratings)."""

from __future__ import annotations

import pytest
from domino.engine.errors import InvalidInput
from domino.service.ratings import MU0, SIGMA0, Rating, parse_pool, pool_name, shown_rating


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    newcomer = Rating("ana", "dos-jugadores:2")
    assert (newcomer.mu, newcomer.sigma, newcomer.games) == (MU0, SIGMA0, 0)
    assert newcomer.shown == 1000 and newcomer.provisional
    assert not newcomer._replace(games=10).provisional


def test_the_shown_rating_is_1000_plus_40_conservative_skill() -> None:
    assert shown_rating(27.31, 1.9) == round(1000 + 40 * (27.31 - 5.7)) == 1864
    assert shown_rating(20.0, 8.0) == 1000 + 40 * (20 - 24)


def test_a_pool_is_a_preset_and_a_player_count_it_is_played_with() -> None:
    assert parse_pool(pool_name("dos-jugadores", 2)) == ("dos-jugadores", 2)
    assert parse_pool("clasico:4") == ("clasico", 4)


@pytest.mark.parametrize(
    "pool", ["", "clasico", "clasico:", "nope:2", "clasico:04", "clasico:+4", "clasico:9", "x" * 65]
)
def test_an_unknown_pool_is_invalid_input(pool: str) -> None:
    with pytest.raises(InvalidInput):
        parse_pool(pool)
