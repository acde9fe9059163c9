"""Play a whole game through the API: every seat's moves taken from ``you.legal`` / can_draw /
can_pass, with the contract's checks after every request (versions, ETag, hidden tiles, scores)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domino.engine import Match

from tests.integration.client import Api, Privileged, Reply, tiles_shown

OUTSIDER = "outsider"  # a caller with no seat, who gets the public view


def check_reply(reply: Reply, status: int = 200) -> dict[str, Any]:
    body = reply.ok(status)
    viewer = body["you"]["seat"] if "you" in body else "p"
    assert reply.header("ETag") == f'"{body["version"]}-{viewer}"'
    assert reply.header("Vary") == "Authorization"
    return body


class Table:
    """A dealt game and the players of its human seats; ``play_out`` finishes the match."""

    def __init__(
        self, api: Api, privileged: Privileged, game: str, players: dict[int, str], version: int
    ) -> None:
        self.api, self.privileged, self.game = api, privileged, game
        self.players = players  # seat -> player id (human seats only)
        self.version = version
        self.last_n = 0  # the last move number seen in GET /moves
        self.points: Counter[int] = Counter()  # Σ last_hand.points per seat
        self.hands_seen: set[int] = set()
        self.requests = 0
        self.draws = 0

    # ------------------------------------------------------------------ checks

    def check_view(
        self, player: str | None, body: dict[str, Any], match: Match | None = None
    ) -> None:
        seat = next((s for s, p in self.players.items() if p == player), None)
        if seat is None:
            assert "you" not in body
        else:
            assert body["you"]["seat"] == seat
        self.privileged.assert_hides(match or self.game, seat, body)

    def check_moves(self, player: str, hand: Match | None = None) -> list[dict[str, Any]]:
        """GET /moves after the last seen: drawn tiles only for their drawer, nothing hidden."""
        seat = next(s for s, p in self.players.items() if p == player)
        body = self.api.moves(self.game, player, self.last_n).ok()
        moves = body["moves"]
        assert body["next"] is None
        assert [m["n"] for m in moves] == list(range(self.last_n + 1, self.last_n + 1 + len(moves)))
        for move in moves:
            drew = move["action"] == "draw" or move.get("move") == "draw"
            if drew:
                assert ("tile" in move) == (move["seat"] == seat), move
        hand = hand or self.privileged.match(self.game)
        assert hand is not None
        current = [m for m in moves if m["hand_number"] == hand.hand_number]
        leaked = tiles_shown(current) & self.privileged.hidden(hand, seat)
        assert not leaked, (leaked, current)
        if moves:
            self.last_n = moves[-1]["n"]
        return moves

    def check_change(
        self, actor: str, body: dict[str, Any], before: int, match: Match | None = None
    ) -> None:
        """One accepted change is one version; bots that moved inline after it add theirs."""
        if not any(seat["bot"] for seat in body["seats"]):
            assert body["version"] - before == 1
            self.version = body["version"]
            if self.requests % 4 == 0:  # the log (and its hidden tiles), now and then
                self.check_moves(actor, match)
            return
        moves = self.check_moves(actor, match)
        changes = [m for m in moves if m["action"] != "hand_over"]
        humans = [m for m in changes if m["seat"] in self.players and m["action"] != "leave"]
        assert len(humans) <= 1, changes
        assert body["version"] - before == max(1, len(changes)), (before, body["version"], moves)
        self.version = body["version"]

    def check_scores(self, body: dict[str, Any]) -> None:
        last = body["last_hand"]
        if last is None:
            return
        assert set(last) >= {
            "hand_number",
            "reason",
            "winners",
            "points",
            "hands",
            "match_over",
            "match_winners",
        }
        assert last["reason"] in ("domino", "closed")
        assert set(last["points"]) == set(last["hands"]) == {str(s["seat"]) for s in body["seats"]}
        if last["hand_number"] not in self.hands_seen:
            self.hands_seen.add(last["hand_number"])
            for seat, points in last["points"].items():
                self.points[int(seat)] += points
            if last["reason"] == "domino":
                assert any(last["hands"][str(w)] == [] for w in last["winners"]), last
        if not (body["rules"]["teams"] == "pairs" and body["rules"]["out_scoring"] == "penalty"):
            assert [s["score"] for s in body["seats"]] == [
                self.points[s["seat"]] for s in body["seats"]
            ]

    # ------------------------------------------------------------------ play

    def view(self, player: str) -> dict[str, Any]:
        body = check_reply(self.api.get(self.game, player))
        assert body["version"] == self.version  # a read changes nothing
        self.check_view(player, body)
        return body

    def act(self, player: str, view: dict[str, Any]) -> dict[str, Any]:
        you = view["you"]
        if you["legal"]:
            choice = you["legal"][0]
            fits = sum(1 for p in you["legal"] if p["tile"] == choice["tile"])
            end = choice["end"] if fits > 1 else None  # `end` may be left out when it fits once
            reply = self.api.play(self.game, player, choice["tile"], end)
        elif you["can_draw"]:
            reply = self.api.draw(self.game, player)
            self.draws += 1
        else:
            assert you["can_pass"], you
            reply = self.api.pass_(self.game, player)
        self.requests += 1
        body = check_reply(reply)
        if you["can_draw"] and not you["legal"]:
            drawn = body["you"]["drawn"]
            assert drawn is not None
            assert drawn in body["you"]["hand"] or body["hand_number"] != view["hand_number"]
        else:
            assert body["you"]["drawn"] is None
        match = self.privileged.match(self.game)
        self.check_view(player, body, match)
        self.check_change(player, body, view["version"], match)
        self.check_scores(body)
        if self.requests % 10 == 0:
            self.probe(player, body, match)
        return body

    def probe(self, player: str, body: dict[str, Any], match: Match | None) -> None:
        """A non-player's public view, and a refused move whose message names no tile."""
        public = check_reply(self.api.get(self.game, OUTSIDER))
        assert public["version"] == self.version
        self.check_view(None, public, match)
        if (
            body["status"] == "playing"
            and body["turn"] != body["you"]["seat"]
            and body["you"]["hand"]
        ):
            refused = self.api.play(self.game, player, body["you"]["hand"][0])
            assert (refused.status, refused.code) == (422, "not_your_turn")
            self.privileged.assert_hides(match or self.game, body["you"]["seat"], refused.body)

    def play_out(self, max_requests: int = 3000) -> dict[str, Any]:
        """Play until the match is over; returns the final view of seat 0's player."""
        some = next(iter(self.players.values()))
        body = self.view(some)
        while body["status"] == "playing":
            assert self.requests < max_requests, "the match does not end"
            turn = body["turn"]
            player = self.players[turn]
            body = self.act(
                player, body if body.get("you", {}).get("seat") == turn else self.view(player)
            )
        assert body["status"] == "finished"
        self.check_moves(some)
        final = self.view(some)
        for player in self.players.values():
            self.view(player)
        for seat, player in self.players.items():  # the whole log, archived hands included
            moves = self.api.moves(self.game, player).ok()["moves"]
            assert [m["n"] for m in moves] == list(range(1, self.last_n + 1))
            for move in moves:
                if move["action"] == "draw" or move.get("move") == "draw":
                    assert ("tile" in move) == (move["seat"] == seat), move
        public = check_reply(self.api.get(self.game, OUTSIDER))
        self.check_view(None, public)
        check_final(final)
        return final


def check_final(body: dict[str, Any]) -> None:
    result = body["result"]
    assert result is not None and result == body["last_hand"]
    assert result["match_over"] is True
    assert body["turn"] is None and body["deadline"] is None
    assert body["you"]["legal"] == [] and not body["you"]["can_draw"]
    assert not body["you"]["can_pass"]
    rules, seats = body["rules"], body["seats"]
    scores = {s["seat"]: s["score"] for s in seats}
    winners = result["match_winners"]
    if result.get("draw"):
        assert winners == []
        return
    assert winners
    forfeits = result.get("forfeits", [])
    assert not set(winners) & set(forfeits)
    if forfeits:  # the best of the others wins (docs/rules.md#match-end)
        scores = {s: v for s, v in scores.items() if s not in forfeits}
        best = (min if rules["out_scoring"] == "penalty" else max)(scores.values())
        assert {scores[w] for w in winners} == {best}, (scores, winners)
    elif rules["match"] == "target":
        if rules["out_scoring"] == "penalty":
            assert max(scores.values()) >= rules["target"]
            assert {scores[w] for w in winners} == {min(scores.values())}
        else:
            assert all(scores[w] >= rules["target"] for w in winners)
            assert {scores[w] for w in winners} == {max(scores.values())}
    if rules["teams"] == "pairs":
        assert {w % 2 for w in winners} == {winners[0] % 2} and len(winners) == 2


def start(
    api: Api,
    privileged: Privileged,
    preset: str,
    players: list[str],
    *,
    bots: int = 0,
    **options: Any,
) -> Table:
    """Create as ``players[0]``, join the others in seat order; checks versions 1, 2, … and
    that the change filling the last seat deals."""
    seats = len(players) + bots
    reply = api.create(players[0], preset=preset, players=seats, bots=bots, **options)
    body = check_reply(reply, 201)
    game = body["id"]
    assert reply.header("Location") == f"/games/{game}"
    assert body["version"] == 1
    if len(players) > 1:
        assert body["status"] == "waiting" and body["hand_number"] == 0
        assert body["turn"] is None and body["opener"] is None
        assert [s["player"] for s in body["seats"]] == [players[0]] + [None] * (seats - 1 - bots)
    for index, player in enumerate(players[1:], start=1):
        body = check_reply(api.join(game, player))
        assert body["version"] == index + 1
        assert body["you"]["seat"] == index
        dealt = index == len(players) - 1
        assert body["status"] == ("playing" if dealt else "waiting")
        assert body["hand_number"] == (1 if dealt else 0)
    table = Table(api, privileged, game, dict(enumerate(players)), body["version"])
    table.check_view(players[-1], body)
    table.check_moves(players[-1])  # bots that led moved within the change that dealt
    return table
