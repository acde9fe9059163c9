"""A finished match's analysis (engine/analysis.py): the values of a decision depend only on what
the deciding seat could see (the expert's hidden-information test, on the analysis' own path),
every decision of a person with a real choice is valued once, deterministically, within the
budget, and the points lost are what the choice played gave away against the best."""

from __future__ import annotations

import pytest
from domino.engine.analysis import _decide, analyse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.test_expert import READING, hidden_swapped, in_play
from tests.unit.test_replay import SEED, play_match

WORLDS = 12  # a test's worlds a decision (production: analysis.WORLDS)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    case=st.sampled_from(READING),
    seed=st.integers(0, 10_000),
    steps=st.integers(1, 40),
    shuffle_seed=st.integers(0, 10_000),
)
def test_a_decisions_values_never_read_what_its_seat_could_not_see(
    case: tuple[str, int], seed: int, steps: int, shuffle_seed: int
) -> None:
    found = in_play(*case, seed, steps)
    if found is None:
        return
    m, seat = found
    legal = m.legal_moves()
    if len(legal) < 2:
        return
    record = {"n": m.next_n, "seat": seat, "action": "play", "tile": str(legal[-1].tile),
              "end": legal[-1].end}  # fmt: skip
    mine = _decide(m, record, 99, WORLDS)
    theirs = _decide(hidden_swapped(m, seat, shuffle_seed), record, 99, WORLDS)
    assert mine == theirs


@pytest.mark.parametrize(("preset", "players"), [("dos-jugadores", 2), ("all-fives", 2),
                                                 ("tren-mexicano", 3)])  # fmt: skip
def test_every_choice_of_a_person_is_valued_once_within_the_budget(
    preset: str, players: int
) -> None:
    m, moves, _deals = play_match(preset, players)
    people = {0}  # seat 0 a person, the others bots
    first = analyse(m.rules, moves, seed=SEED, people=people, at=1_000, worlds=WORLDS)
    again = analyse(m.rules, moves, seed=SEED, people=people, at=1_000, worlds=WORLDS)
    assert first == again  # the same however often it runs
    assert first.decisions, "a whole match gives seat 0 some choice"
    numbers = [d.n for d in first.decisions]
    assert numbers == sorted(set(numbers))
    by_n = {r["n"]: r for r in moves}
    for d in first.decisions:
        assert d.seat == 0 and by_n[d.n]["seat"] == 0 and by_n[d.n]["action"] == "play"
        assert len(d.values) >= 2 and d.played in d.values and d.best in d.values
        assert d.values[d.best] == max(d.values.values()) and d.lost >= 0
    capped = analyse(
        m.rules, moves, seed=SEED, people=people, at=1_000, worlds=WORLDS, max_decisions=3
    )
    assert len(capped.decisions) == 3 and capped.skipped == len(first.decisions) - 3
    assert capped.decisions == first.decisions[:3]


def test_a_seat_that_left_is_not_analysed_after_it_left() -> None:
    m, moves, _deals = play_match("clasico", 3)  # seat of ply 9 left (a bot played on)
    left = next(r for r in moves if r["action"] == "leave")
    found = analyse(m.rules, moves, seed=SEED, people={left["seat"]}, at=1_000, worlds=WORLDS)
    assert all(d.n < left["n"] for d in found.decisions)
