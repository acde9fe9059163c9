"""Conditional pre-moves through the handlers on DynamoDB Local: stored without a change of
the game, played in the write that hands their owner the turn, cleared on a mismatch, refused
with the contract's codes, never seen by anyone else, and never lost to a racing move."""

from __future__ import annotations

import json
from typing import Any

import pytest
from domino.service.loaded import Game
from domino.store.dynamo import DynamoGameStore
from domino.store.errors import VersionConflict

from tests.deals import PREMOVE_DEAL
from tests.integration.client import Api, Privileged

pytestmark = pytest.mark.ddb

# players of these tests only
ANA, BEN, CID = "pre-ana", "pre-ben", "pre-cid"
#: ANA (seat 0) holds 5-6; BEN (seat 1) holds 6-6 and must lead it
DEAL = PREMOVE_DEAL
AFTER_THE_LEAD = [{"seat": 1, "action": "play", "tile": "6-6"}]


def dealt(api: Api) -> str:
    game = api.create(ANA, preset="dos-jugadores", players=2, deal=DEAL).ok(201)["id"]
    api.join(game, BEN).ok()
    return str(game)


def put(api: Api, game: str, lines: Any, player: str = ANA) -> Any:
    return api.call("PUT", f"/games/{game}/premoves", {"lines": lines}, player=player)


def test_a_matching_line_is_played_in_the_write_that_hands_over_the_turn(
    api: Api, privileged: Privileged
) -> None:
    game = dealt(api)
    before = api.get(game, BEN).ok()
    lines = [
        {"if": [{"seat": 1, "action": "draw"}], "then": {"tile": "5-6", "end": "left"}},
        {"if": AFTER_THE_LEAD, "then": {"tile": "6-5", "end": "right"}},
    ]
    stored = put(api, game, lines).ok()
    assert stored["version"] == before["version"]  # not a change of the game
    assert stored["lines"][1]["then"] == {"tile": "5-6", "end": "right"}  # written as logged
    assert api.get(game, BEN).ok()["version"] == before["version"]
    led = api.play(game, BEN, "6-6").ok()
    # the lead and ANA's reply in one write: two changes, and BEN on turn again
    assert (led["version"], led["turn"]) == (before["version"] + 2, 1)
    moves = api.moves(game, BEN).ok()["moves"]
    assert [(m["seat"], m.get("tile"), m.get("end"), m.get("premove")) for m in moves] == [
        (1, "6-6", None, None),
        (0, "5-6", "right", True),
    ]
    assert privileged.record(game).premoves == {}  # played, then every line cleared


def test_no_matching_line_clears_them_all_and_the_owner_plays_by_hand(
    api: Api, privileged: Privileged
) -> None:
    game = dealt(api)
    put(api, game, [{"if": [{"seat": 1, "action": "pass"}], "then": {"tile": "0-0"}}]).ok()
    assert ANA in privileged.record(game).premoves
    led = api.play(game, BEN, "6-6").ok()
    assert led["turn"] == 0  # nothing played for ANA
    assert privileged.record(game).premoves == {}
    assert "premove" not in api.moves(game, ANA).ok()["moves"][-1]


def test_lines_are_seen_by_nobody_else(api: Api, privileged: Privileged) -> None:
    game = dealt(api)
    secret = [{"if": AFTER_THE_LEAD, "then": {"tile": "5-6", "end": "left"}}]
    put(api, game, secret).ok()
    seen = [
        api.get(game, BEN).ok(),
        api.moves(game, BEN).ok(),
        api.call("GET", "/me/notifications", player=BEN).ok(),
        api.call("GET", f"/games/{game}", player=CID).ok(),
    ]
    for body in seen:
        text = json.dumps(body)
        assert "premove" not in text and "lines" not in text and "5-6" not in text
    assert privileged.record(game).premoves[ANA]["lines"] == secret


def test_refusals_change_nothing(api: Api, privileged: Privileged) -> None:
    game = dealt(api)
    own_seat = [{"if": [{"seat": 0, "action": "pass"}], "then": {"tile": "0-0"}}]
    no_tile = [{"if": [{"seat": 1, "action": "play"}], "then": {"tile": "0-0"}}]
    drawn_tile = [{"if": [{"seat": 1, "action": "draw", "tile": "1-2"}], "then": {"tile": "0-0"}}]
    bad_tile = [{"if": [], "then": {"tile": "7-7"}}]
    bad_end = [{"if": [], "then": {"tile": "0-0", "end": "north"}}]
    too_many = [{"if": [], "then": {"tile": "0-0"}}] * 21
    too_long = [{"if": [{"seat": 1, "action": "pass"}] * 13, "then": {"tile": "0-0"}}]
    for lines in (own_seat, no_tile, drawn_tile, bad_tile, bad_end, too_many, too_long):
        reply = put(api, game, lines)
        assert (reply.status, reply.code) == (400, "invalid_request"), lines
    stranger = put(api, game, [], player=CID)
    assert (stranger.status, stranger.code) == (403, "not_a_player")
    missing = put(api, "NoSuchGame00000000000a", [])
    assert (missing.status, missing.code) == (404, "game_not_found")
    waiting = api.create(CID, preset="dos-jugadores", players=2).ok(201)["id"]
    early = put(api, waiting, [], player=CID)
    assert (early.status, early.code) == (422, "game_not_in_progress")
    assert privileged.record(game).premoves == {}
    forgotten = api.call("DELETE", f"/games/{game}/premoves", player=ANA)
    assert forgotten.status == 204


def test_a_move_racing_the_lines_is_applied_again_with_them(
    api: Api, privileged: Privileged
) -> None:
    """A move's write loaded the game before the lines were stored: its save is refused (the
    item's writer changed though its version did not), so neither is lost."""
    game = dealt(api)
    store: DynamoGameStore = privileged.store
    stale = store.load(game)
    assert stale is not None
    put(api, game, [{"if": AFTER_THE_LEAD, "then": {"tile": "5-6", "end": "left"}}]).ok()
    changed = Game(stale)
    changed.record.actor = BEN
    with pytest.raises(VersionConflict) as lost:
        store.save(changed.record, stale.version)
    assert lost.value.current is not None and ANA in lost.value.current.premoves
    # through the handler the same race ends with both: the lead, then the reply
    led = api.play(game, BEN, "6-6").ok()
    assert led["turn"] == 1
