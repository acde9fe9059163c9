"""Helpers shared by the engine unit tests: fixed deals and terse moves."""

from __future__ import annotations

from domino.engine import CEDE, DRAW, PASS, Match, Play, full_set, parse_tile, resolve_rules


def rest_of(top: int, hands: list[list[str]], first: list[str] | None = None) -> list[str]:
    """The boneyard for a fixed deal: ``first`` on top, then every other tile in id order."""
    first = first or []
    used = {str(parse_tile(t, top)) for hand in hands for t in hand}
    used |= {str(parse_tile(t, top)) for t in first}
    return [str(parse_tile(t, top)) for t in first] + [
        str(t) for t in full_set(top) if str(t) not in used
    ]


def start(
    preset: str,
    players: int,
    hands: list[list[str]],
    boneyard_top: list[str] | None = None,
    overrides: dict | None = None,
    seed: int = 0,
) -> Match:
    rules = resolve_rules(preset, players, overrides)
    deal = {"hands": hands, "boneyard": rest_of(rules.set, hands, boneyard_top)}
    return Match.start(rules, seed=seed, deal=deal, at=1000)


def play(m: Match, seat: int, tile: str, end: str | None = None, at: int = 1001):
    return m.apply(seat, Play(parse_tile(tile, m.rules.set), end), at)


def draw(m: Match, seat: int, at: int = 1001):
    return m.apply(seat, DRAW, at)


def pass_(m: Match, seat: int, at: int = 1001):
    return m.apply(seat, PASS, at)


def random_step(m: Match, rng) -> None:
    if m.can_cede() and rng.random() < 0.5:  # a pair choosing its leader: half the time, cede
        m.apply(m.turn, CEDE, 0)
        return
    legal = m.legal_moves()
    move = rng.choice(legal) if legal else (DRAW if m.can_draw() else PASS)
    m.apply(m.turn, move, 0)
