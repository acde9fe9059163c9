"""Request bodies (domino.api.models): what is accepted, what is refused, and how it is named."""

from __future__ import annotations

import json
from typing import Any

import pytest
from domino.api.errors import InvalidRequest, error_parts
from domino.api.models import (
    CreateGame,
    JoinGame,
    PlayTile,
    check_empty,
    parse_if_match,
    utc_second,
)
from domino.service.values import MakeMove, NewGame, TakeSeat


def refused(model: Any, body: str | None) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as caught:
        model.parse(body)
    assert caught.value.code == "invalid_request"
    assert error_parts(caught.value)[0] == 400
    return caught.value


@pytest.mark.parametrize(
    ("request_type", "command"), [(CreateGame, NewGame), (JoinGame, TakeSeat), (PlayTile, MakeMove)]
)
def test_each_body_makes_the_service_command_of_the_same_fields(
    request_type: Any, command: Any
) -> None:
    names = set(command._fields) - {"kind"}  # a play's kind is its route
    assert set(request_type.FIELDS) == names


def test_a_create_body_gets_its_defaults_and_a_trimmed_name() -> None:
    game = CreateGame.parse(json.dumps({"preset": "clasico", "players": 4, "name": " Ana "}))
    assert isinstance(game, NewGame)
    assert (game.preset, game.players, game.name) == ("clasico", 4, "Ana")
    assert (game.bots, game.bot_level, game.on_timeout, game.private) == (
        0,
        "expert",
        "auto",
        False,
    )
    assert game.rules is None and game.deal is None and game.seed is None


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "clasico", "players": 4, "seed": "7"},
        {"preset": "clasico", "players": 4, "seed": True},
        {"preset": "clasico", "players": 4, "private": "yes"},
        {"preset": "clasico", "players": 4, "private": 1},
        {"preset": "clasico", "players": 4, "turn_timeout_hours": True},
        {"preset": "clasico", "players": 4, "turn_timeout_hours": "1e2"},
        {"preset": "clasico", "players": True},
    ],
)
def test_a_create_body_of_wrong_types_is_refused_not_coerced(body: dict[str, object]) -> None:
    with pytest.raises(InvalidRequest):
        CreateGame.parse(json.dumps(body))


def test_a_preset_is_taken_as_sent() -> None:  # " clasico" is no preset: the engine says 400
    assert CreateGame.parse(json.dumps({"preset": " clasico", "players": 4})).preset == " clasico"


@pytest.mark.parametrize("tile", [" 6-6", "6-6 ", "06-06", "0-6\n", "6 - 6", "-1-3", "6-6-6"])
def test_tile_texts_outside_the_apis_form_are_refused(tile: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        PlayTile.parse(json.dumps({"tile": tile}))
    assert caught.value.fields == ["tile"]


def test_a_dev_deal_is_read_as_nested_fields() -> None:
    body = {"preset": "clasico", "players": 2, "deal": {"hands": [["6-6"], ["5-5"]]}}
    game = CreateGame.parse(json.dumps(body))
    assert game.deal == {"hands": [["6-6"], ["5-5"]]}  # no boneyard: left out, not None
    with_boneyard = dict(body, deal={"hands": [["6-6"]], "boneyard": ["1-1"]})
    assert CreateGame.parse(json.dumps(with_boneyard)).deal == with_boneyard["deal"]


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
    assert "two numbers joined by a hyphen" in error.message
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


def test_a_play_is_a_move_command() -> None:
    assert PlayTile.parse('{"tile": "3-5", "end": "left"}') == MakeMove("play", "3-5", "left")


@pytest.mark.parametrize("body", [None, "", " ", "{}", " { } "])
def test_an_empty_body_is_none_or_an_empty_object(body: str | None) -> None:
    check_empty(body)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{", "The body is not valid JSON."),
        ("[]", "This request takes an empty JSON object: {}."),
        ('{"tile": "3-5"}', "This request takes an empty JSON object: {}."),
        # deeper than the JSON parser goes: a 400 like any other body that is not {}
        ("[" * 1000 + "]" * 1000, "This request takes an empty JSON object: {}."),
        ("[" * 100_000 + "]" * 100_000, "This request takes an empty JSON object: {}."),
    ],
)
def test_a_body_where_none_is_taken_is_refused(body: str, message: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        check_empty(body)
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("value", "version"), [('"4"', 4), ('W/"12"', 12), ("7", 7), ('"4-1"', 4), ('W/"12-p"', 12)]
)
def test_if_match_names_a_version(value: str, version: int) -> None:
    assert parse_if_match(value) == version


@pytest.mark.parametrize(
    "value", ['"v4"', "*", '""', '"-1"', '"1.5"', '"\u00b2"', "²", "9" * 13, '"4-x"', '"4-"', '"4']
)
def test_if_match_is_a_version_or_refused(value: str) -> None:
    with pytest.raises(InvalidRequest):
        parse_if_match(value)


@pytest.mark.parametrize(
    ("value", "utc"),
    [
        ("2026-11-30T12:00:00Z", "2026-11-30T12:00:00Z"),
        ("2026-11-30t12:00:00.999999999z", "2026-11-30T12:00:00Z"),  # to the second below
        ("2026-11-30T13:00:00.25+01:00", "2026-11-30T12:00:00Z"),
        ("2026-11-30T11:30:00-00:30", "2026-11-30T12:00:00Z"),
        ("2026-12-01T00:30:00+01:00", "2026-11-30T23:30:00Z"),
        ("2026-12-31T23:59:60Z", "2026-12-31T23:59:59Z"),  # a leap second
    ],
)
def test_a_time_is_any_rfc_3339_form(value: str, utc: str) -> None:
    assert utc_second(value, "updated_after") == utc


@pytest.mark.parametrize(
    "value",
    [
        "\U0001d7d0\U0001d7ce\U0001d7d0\U0001d7d4-11-30T12:00:00Z",  # mathematical digits
        "\uff12\uff10\uff12\uff16-11-30T12:00:00Z",  # fullwidth
        "\u0662\u0660\u0662\u0666-11-30T12:00:00Z",  # Arabic-Indic
        "2026-11-30T12:00:00",  # no offset
        "2026-11-30",
        "2026-02-30T12:00:00Z",
        "2026-11-30T24:00:00Z",
        "2026-11-30T12:00:00+24:00",
        "2026-11-30T12:00:00+01:60",
        "2026-11-30T12:00:00.Z",
        "0001-01-01T00:00:00+01:00",  # before the first representable second
        "2026-11-30T12:00:00Z\n",
    ],
)
def test_a_time_in_anything_else_is_refused(value: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        utc_second(value, "updated_after")
    assert caught.value.fields == ["query.updated_after"]
