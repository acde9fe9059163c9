"""A match's record played again: for every preset at every player count, a whole match of bots
(with a timeout and a leave) is recorded as the service
records it (its seed, each hand's deal as made, every move), then fed back to the engine: from
the deals with the seed, and from the deals alone where no later lot decides a lead; both give
the same result, hand by hand."""

from __future__ import annotations

from typing import Any

import pytest
from domino.engine import PRESETS, Match, choose_move, resolve_rules
from domino.engine.movelog import held
from domino.engine.replay import dealt, replay

CASES = [
    (preset.id, players)
    for preset in PRESETS.values()
    for players in range(preset.min_players, preset.max_players + 1)
]
SEED = 2**127 + 12345  # the size of a production seed (writes.SEED_BITS)


def play_match(preset: str, players: int) -> tuple[Match, list[dict[str, Any]], dict[int, Any]]:
    """A match of greedy bots to its end: the match, every move record, each hand's deal."""
    rules = resolve_rules(preset, players)
    m = Match.start(rules, seed=SEED, at=1_000)
    moves: list[dict[str, Any]] = []
    deals = {1: dealt(m, 1)}
    at = 1_000
    for ply in range(20_000):
        if m.status != "playing" or m.turn is None:
            break
        at += 7
        hand = m.hand_number
        if ply == 3:
            m.timeout(m.turn, "auto", at)  # a turn run out
        elif ply == 9 and players > 2:
            m.forfeit(m.turn, at)  # a player leaves; a bot plays on for them
        else:
            m.apply(m.turn, choose_move(m, m.turn, "greedy" if ply % 3 else "random"), at)
        if m.hand_number != hand:
            moves += [dict(r) for r in m.previous_hand_moves]  # what the archive keeps
            deals[m.hand_number] = dealt(m, m.hand_number)
    assert m.status == "finished", (preset, players)
    moves += [dict(r) for r in held(m)][len(m.prev_log) :]
    return m, moves, deals


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_a_record_fed_back_gives_the_same_result(preset: str, players: int) -> None:
    m, moves, deals = play_match(preset, players)
    assert [r["n"] for r in moves] == list(range(1, len(moves) + 1))  # nothing lost
    again = replay(m.rules, moves, seed=SEED, deals=deals, at=1_000)
    assert again.result() == m.result() and again.scores == m.scores
    assert {n: dealt(again, n) for n in deals} == deals
    lots_later = m.rules.opening == "lot" and m.rules.next_round != "same_as_first"
    if not lots_later:  # the deals alone decide every hand (hand 1's lot given)
        lot = first_opener(moves) if m.rules.opening in ("lot", "pair_lot") else None
        alone = replay(m.rules, moves, seed=None, deals=deals, lot=lot, at=1_000)
        assert alone.result() == m.result()


def first_opener(moves: list[dict[str, Any]]) -> int:
    """The seat hand 1's lot chose: the seat of its first move (a cede is that seat's too)."""
    return int(next(r["seat"] for r in moves if r["hand_number"] == 1 and r["action"] != "leave"))


def test_a_dev_deal_takes_a_records_deal_by_seat() -> None:
    m, _moves, deals = play_match("dos-jugadores", 2)
    seats, boneyard = deals[1]
    by_seat = {str(s): tiles for s, tiles in enumerate(seats)}
    again = Match.start(m.rules, deal={"by_seat": by_seat, "boneyard": boneyard})
    assert dealt(again, 1) == deals[1]
