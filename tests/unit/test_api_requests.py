"""Request bodies (domino.api.models): what is accepted, what is refused, and how it is named."""

from __future__ import annotations

import json
from typing import Any

import pytest
from domino.api.errors import ApiError
from domino.api.models import CreateGame, JoinGame, PlayTile


def refused(model: Any, body: str | None) -> ApiError:
    with pytest.raises(ApiError) as caught:
        model.parse(body)
    assert caught.value.code == "invalid_request"
    assert caught.value.status == 400
    return caught.value


def test_a_create_body_gets_its_defaults_and_trimmed_text() -> None:
    game = CreateGame.parse(json.dumps({"preset": " clasico ", "players": 4, "name": " Ana "}))
    assert isinstance(game, CreateGame)
    assert (game.preset, game.players, game.name) == ("clasico", 4, "Ana")
    assert (game.bots, game.bot_level, game.on_timeout, game.private) == (
        0,
        "strategist",
        "auto",
        False,
    )
    assert game.rules is None and game.deal is None and game.seed is None
    assert game.deal_dict() is None


def test_a_dev_deal_is_read_as_nested_fields() -> None:
    body = {"preset": "clasico", "players": 2, "deal": {"hands": [["6-6"], ["5-5"]]}}
    game = CreateGame.parse(json.dumps(body))
    assert game.deal_dict() == {"hands": [["6-6"], ["5-5"]]}  # no boneyard: left out, not None
    with_boneyard = dict(body, deal={"hands": [["6-6"]], "boneyard": ["1-1"]})
    assert CreateGame.parse(json.dumps(with_boneyard)).deal_dict() == with_boneyard["deal"]


@pytest.mark.parametrize("players", ["4", 4.0, True, None, 11, 1])
def test_players_is_a_whole_number_in_range(players: Any) -> None:
    error = refused(CreateGame, json.dumps({"preset": "clasico", "players": players}))
    assert error.fields == ["players"]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ('{"tile": "5-3", "colour": "red"}', ["colour"]),  # unknown fields are refused
        ('{"tile": "53"}', ["tile"]),
        ('{"tile": "5-3", "end": ""}', ["end"]),
        ("{}", ["tile"]),
        ("[]", [""]),
    ],
)
def test_a_bad_play_names_the_failing_fields(body: str, fields: list[str]) -> None:
    assert refused(PlayTile, body).fields == fields


def test_a_tile_error_names_no_tile() -> None:
    error = refused(PlayTile, '{"tile": "9x9"}')
    assert "two numbers joined by '-'" in error.message
    assert "9x9" not in error.message


def test_invalid_json_is_said_plainly() -> None:
    error = refused(JoinGame, '{"seat": ')
    assert error.message == "The body is not valid JSON."
    assert error.fields == []


def test_an_empty_body_is_an_empty_object() -> None:
    for body in (None, "", "  "):
        join = JoinGame.parse(body)
        assert (join.seat, join.name) == (None, None)
    assert refused(PlayTile, None).fields == ["tile"]


@pytest.mark.parametrize("seat", ["1", 1.0, True, -1, 10])
def test_a_seat_is_a_whole_number_from_0_to_9(seat: Any) -> None:
    assert refused(JoinGame, json.dumps({"seat": seat})).fields == ["seat"]
