"""A whole `dos-jugadores` match over HTTP through the Python client openapi-python-client
generates from docs/openapi.yaml, and through nothing else: dev tokens, the presets, creating
(with a per-player-count `hand_size` override, the union generators used to drop), joining,
every play, draw and pass of two people until the match is over, the move log, the lists, a
304 and an error, each parsed into the generated models. A route, model or field the document
gets wrong for generators fails here the way it would fail a mobile team."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from local.process import Runtime

pytestmark = [pytest.mark.e2e, pytest.mark.long(30)]

NAMES = ("Alice", "Bob")


def test_a_whole_dos_jugadores_match_through_the_generated_client(
    runtime: Runtime, python_client: Any
) -> None:
    client = python_client.package
    from domino_client.api.dev import create_dev_token
    from domino_client.api.games import create_game, get_game, join_game
    from domino_client.api.me import get_me, list_my_games, list_notifications
    from domino_client.api.moves import draw_tile, list_moves, pass_turn, play_tile
    from domino_client.api.service import list_presets
    from domino_client.models import (
        ApiError,
        CreateGame,
        DevToken,
        DevTokenRequest,
        ErrorCode,
        GameView,
        JoinGame,
        ListMyGamesStatus,
        NotificationList,
        NotificationType,
        PerPlayerCount,
        PlayTile,
        PresetList,
        RulesOverrides,
    )

    public = client.Client(base_url=runtime.base, raise_on_unexpected_status=True)
    suffix = uuid.uuid4().hex[:8]
    alice, bob = players = tuple(f"{name.lower()}-{suffix}" for name in NAMES)
    people: dict[str, Any] = {}
    for player, name in zip(players, NAMES, strict=True):
        token = create_dev_token.sync(client=public, body=DevTokenRequest(player=player, name=name))
        assert isinstance(token, DevToken), token
        people[player] = client.AuthenticatedClient(
            base_url=runtime.base, token=token.token, raise_on_unexpected_status=True
        )
        me = get_me.sync(client=people[player])
        assert (me.player, me.name) == (player, name)

    presets = list_presets.sync(client=public)
    assert isinstance(presets, PresetList)
    preset = next(p for p in presets.presets if p.id == "dos-jugadores")
    assert (preset.players.min_, preset.players.max_) == (2, 2)
    assert preset.rules.hand_size.additional_properties == {"2": 7}
    assert preset.modes is not None and preset.modes["decenas"].unit == 10

    # the preset's own hand size, sent in the union's per-player-count form; a target of 100,
    # not the preset's 300: four hands and 133 moves instead of 22 and 627 (the same paths)
    body = CreateGame(
        preset="dos-jugadores",
        players=2,
        seed=7,
        rules=RulesOverrides(hand_size=PerPlayerCount(field_2=7), target=100),
    )
    view = create_game.sync(client=people[alice], body=body)
    assert isinstance(view, GameView), view
    assert view.status == "waiting" and view.rules.hand_size == 7
    game = view.id
    view = join_game.sync(game, client=people[bob], body=JoinGame())
    assert isinstance(view, GameView) and view.status == "playing"

    seat_of = {s.player: s.seat for s in view.seats}
    by_seat = {seat_of[p]: p for p in players}
    # a move out of turn is the contract's error, parsed into the generated model
    idle = by_seat[1 - view.turn]
    refused = pass_turn.sync_detailed(game, client=people[idle])
    assert refused.status_code == 422 and isinstance(refused.parsed, ApiError)
    assert refused.parsed.error.code == ErrorCode.NOT_YOUR_TURN

    moves = plays = draws = passes = 0
    while view.status == "playing":
        player = by_seat[view.turn]
        if view.you.seat != view.turn:  # the answer was the other player's view: read ours
            view = get_game.sync(game, client=people[player])
        assert isinstance(view, GameView) and view.you.seat == seat_of[player]
        if view.you.legal:
            choice = view.you.legal[0]
            play = PlayTile(tile=choice.tile, end=choice.end)
            view = play_tile.sync(game, client=people[player], body=play)
            plays += 1
        elif view.you.can_draw:
            view = draw_tile.sync(game, client=people[player])
            assert view.you.drawn in view.you.hand
            draws += 1
        else:
            assert view.you.can_pass
            view = pass_turn.sync(game, client=people[player])
            passes += 1
        assert isinstance(view, GameView), view
        moves += 1
        assert moves < 3000, "the match never ended"

    last = player  # whose move ended the match
    result = view.result
    assert view.status == "finished" and result is not None and result.match_over
    assert result.match_winners and max(s.score for s in view.seats) >= view.rules.target == 100
    assert view.hand_number >= 3, view.hand_number  # hands ended and new ones dealt
    assert plays and draws, (plays, draws, passes)

    # the whole log, page by page, as each player may see it
    for reader in players:
        logged: list[Any] = []
        after = 0
        while True:
            page = list_moves.sync(game, client=people[reader], after=after, limit=200)
            logged += page.moves
            if page.next_ is None:
                break
            after = page.next_
        assert [m.n for m in logged] == list(range(1, view.last_move + 1))
        assert {m.action for m in logged} >= {"play", "draw", "hand_over"}

    finished = list_my_games.sync(client=people[bob], status=ListMyGamesStatus.FINISHED)
    assert game in [g.id for g in finished.games]

    # a poll of an unchanged game: 304 and no body (the ETag: the version and alice's seat)
    tag = f'"{view.version}-{seat_of[alice]}"'
    again = get_game.sync_detailed(game, client=people[alice], if_none_match=tag)
    assert again.status_code == 304 and again.parsed is None

    # the match's end reaches the other player's inbox (game_over goes to everyone but the
    # player whose move ended it); waiting for it also lets the stream catch up before the
    # next test reads an inbox
    other = people[by_seat[1 - seat_of[last]]]
    deadline = time.monotonic() + 120
    while True:
        inbox = list_notifications.sync(client=other, limit=100)
        assert isinstance(inbox, NotificationList)
        over = [n for n in inbox.notifications if n.type_ == NotificationType.GAME_OVER]
        if over or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert over and over[0].game == game and over[0].version == view.version
