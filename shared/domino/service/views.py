"""The game view, summaries and move lists (docs/openapi.yaml), from a stored game and its state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domino.engine import Match, Ruleset, redact_move
from domino.engine.views import SeatStats
from domino.store.records import GameRecord, iso


def _seat_rows(
    record: GameRecord, stats: Sequence[SeatStats] | None, teams: list[int | None]
) -> list[dict[str, Any]]:
    """The seats of the view; before the deal (no ``stats``) nobody holds a tile or a point."""
    rows = []
    for index, seat in enumerate(record.seats):
        stat = stats[index] if stats else None
        rows.append(
            {
                "seat": index,
                "player": seat.player,
                "name": seat.name,
                "team": stat["team"] if stat else teams[index],
                "bot": seat.bot is not None,
                "invited": seat.invited,
                "away": seat.away,
                "tiles": stat["tiles"] if stat else 0,
                "score": stat["score"] if stat else 0,
                "chips": stat["chips"] if stat else None,
            }
        )
    return rows


def game_view(
    record: GameRecord,
    rules: Ruleset,
    match: Match | None,
    viewer: str | None,
    drawn: str | None = None,
) -> dict[str, Any]:
    """The caller's view (``you`` only for a seated caller); nothing hidden from them is in it."""
    seat = record.seat_of(viewer) if viewer else None
    teams: list[int | None] = [
        (i % 2 if rules.teams == "pairs" else None) for i in range(record.players)
    ]
    view: dict[str, Any] = {
        "id": record.id,
        "version": record.version,
        "status": record.status,
        "preset": record.preset,
        "private": bool(record.config.get("private")),
        "watchers": record.watchers,
        "rules": rules.to_json(),
    }
    if match is None:
        view.update(
            {
                "seats": _seat_rows(record, None, teams),
                "hand_number": 0,
                "opener": None,
                "turn": None,
                "reshuffles": 0,
                "pot": 0 if rules.stake is not None else None,
                "board": {"tiles": [], "ends": []},
                "boneyard": 0,
                "drawable": 0,
                "last_move": 0,
            }
        )
        if rules.in_play is not None:  # a game that counts its ends: none to count yet
            view["board"] = {**view["board"], "spinner": None, "count": 0}
        offers = rules.opening == "pair_lot"  # a game whose team chooses its leader
        if offers:
            view["lead"] = None
        if seat is not None:
            view["you"] = {
                "seat": seat,
                "hand": [],
                "legal": [],
                "can_draw": False,
                "can_pass": False,
                "drawn": None,
            }
            if offers:
                view["you"]["can_cede"] = False
        view.update({"last_hand": None, "result": _abandoned(record)})
    else:
        engine = match.view(seat)
        view["seats"] = _seat_rows(record, engine["seat_stats"], teams)
        view["hand_number"] = engine["hand_number"]
        view["opener"] = engine["opener"]
        view["turn"] = engine["turn"]
        view["reshuffles"] = engine["reshuffles"]
        view["pot"] = engine["pot"]
        view["board"] = engine["board"]
        view["boneyard"] = engine["boneyard"]
        view["drawable"] = engine["drawable"]
        view["last_move"] = match.next_n - 1  # a client holding fewer moves has missed some
        if "lead" in engine:
            view["lead"] = engine["lead"]
        if "you" in engine:
            view["you"] = {**engine["you"], "drawn": drawn}
        view["last_hand"] = engine["last_hand"]
        view["result"] = engine["result"]
    view.update(
        {
            "turn_timeout_hours": record.config.get("turn_timeout_hours"),
            "on_timeout": record.config.get("on_timeout"),
            "deadline": iso(record.deadline) if record.status == "playing" else None,
            "created_at": iso(record.created_at),
            "updated_at": iso(record.updated_at),
            "rematch": record.rematch,
        }
    )
    return view


def _abandoned(record: GameRecord) -> dict[str, Any] | None:
    if record.status != "finished":
        return None
    return {
        "hand_number": 0,
        "reason": "abandoned",
        "winners": [],
        "points": {},
        "hands": {},
        "match_over": True,
        "match_winners": [],
    }


def summary(record: GameRecord, turn: int | None, viewer: str | None) -> dict[str, Any]:
    your_turn = (
        viewer is not None
        and turn is not None
        and record.status == "playing"
        and record.seats[turn].player == viewer
        and record.seats[turn].bot is None
    )
    return {
        "id": record.id,
        "preset": record.preset,
        "status": record.status,
        "version": record.version,
        "players": record.players,
        "turn": turn if record.status == "playing" else None,
        "your_turn": your_turn,
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "bot": s.bot is not None,
                "open": s.free,
                "invited": s.invited,
                "away": s.away,
            }
            for i, s in enumerate(record.seats)
        ],
        "deadline": iso(record.deadline) if record.status == "playing" else None,
        "updated_at": iso(record.updated_at),
    }


def move_list(records: list[dict[str, Any]], viewer_seat: int | None) -> list[dict[str, Any]]:
    out = []
    for record in records:
        move = redact_move(record, viewer_seat)
        move["at"] = iso(move.get("at"))
        out.append(move)
    return out
