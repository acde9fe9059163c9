"""Conditional pre-moves: ``PUT`` and ``DELETE /games/{id}/premoves`` (docs/api.md
"Pre-moves").

A seated player stores lines (``engine.premoves``) while the match is played; they are kept in
the game item beside the state, for that player only, with the ``n`` of the last move made when
they were stored. Storing them is not a change of the game: the version stays, and the write
(``GameStore.set_premoves``) is refused if any other write came since the game was loaded, so
that neither the lines nor a move racing them is lost (the write path's save is refused the
same way once lines were stored: it applies its change again to the game with them). The write
path plays them (``writes.run_bots``) when their owner comes on turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domino.engine import InvalidInput, Play, parse_tile, validate_move
from domino.engine.errors import GameNotInProgress
from domino.engine.premoves import ACTIONS
from domino.service.errors import Conflict, GameNotFound, NotAPlayer
from domino.service.loaded import Game, load_game
from domino.service.ports import GameStore
from domino.service.values import Caller
from domino.store.errors import VersionConflict

#: stores tried against writes racing them
ATTEMPTS = 4


class PreMoves:
    def __init__(self, store: GameStore) -> None:
        self.store = store

    def put(
        self, caller: Caller, game_id: str, parse: Callable[[], list[dict[str, Any]]]
    ) -> dict[str, Any]:
        """Keep the caller's ``lines`` (replacing any), checked against the game's rules:
        ``{"lines", "version"}``, the lines as kept (tiles written low-high) and the game's
        version, unchanged. 404, 400 (``parse``), 403, 409 in that order."""
        game = load_game(self.store, game_id)
        lines = parse()
        return self._store(caller, game, lambda game, seat: [_line(game, seat, x) for x in lines])

    def delete(self, caller: Caller, game_id: str) -> None:
        """Forget the caller's lines (nothing to forget is no error)."""
        game = load_game(self.store, game_id)
        self._store(caller, game, lambda _game, _seat: [])

    def _store(
        self, caller: Caller, game: Game, checked: Callable[[Game, int], list[dict[str, Any]]]
    ) -> dict[str, Any]:
        for _attempt in range(ATTEMPTS):
            record, match = game.record, game.match
            seat = record.seat_of(caller.player)
            if seat is None:
                raise NotAPlayer("You have no seat in this game.")
            if record.status != "playing" or match is None:
                raise GameNotInProgress("The game is not in progress.")
            lines = checked(game, seat)
            kept = dict(record.premoves)
            if lines:
                kept[caller.player] = {"after": match.next_n - 1, "lines": lines}
            elif kept.pop(caller.player, None) is None:
                return {"lines": [], "version": record.version}  # nothing stored: no write
            record.premoves = kept
            try:
                self.store.set_premoves(record)
            except VersionConflict as lost:
                if lost.current is None:
                    raise GameNotFound() from None
                game = Game(lost.current)
                continue
            return {"lines": lines, "version": record.version}
        raise Conflict("The game changed while your request was applied; try again.")


def _line(game: Game, seat: int, line: dict[str, Any]) -> dict[str, Any]:
    """A line as kept: every move a move of another seat, every tile and end possible in this
    game (tiles written as the move log writes them), else ``InvalidInput``."""
    condition = []
    for move in line["if"]:
        other = move["seat"]
        if other == seat or not 0 <= other < game.record.players:
            raise InvalidInput(
                "A pre-move line names the moves of the other seats: seat {seat} is not one.",
                seat=other,
            )
        action = move["action"]
        if action not in ACTIONS or (action != "play") != (move.get("tile") is None):
            raise InvalidInput("A play in a pre-move line names its tile; a draw or a pass none.")
        if action == "play":
            condition.append({"seat": other, "action": action, **_play(game, move)})
        else:
            condition.append({"seat": other, "action": action})
    return {"if": condition, "then": _play(game, line["then"])}


def _play(game: Game, spec: dict[str, Any]) -> dict[str, Any]:
    """``{"tile", "end"?}`` checked as a play of this game's rules, the tile as logged."""
    rules = game.rules
    play = Play(parse_tile(spec["tile"], rules.set), spec.get("end"))
    validate_move(rules, play)
    out: dict[str, Any] = {"tile": str(play.tile)}
    if play.end is not None:
        out["end"] = play.end
    return out


__all__ = ["ATTEMPTS", "PreMoves"]
