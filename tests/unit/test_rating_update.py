"""How a finished match is ranked and rated (docs/api.md#ratings): winners first, penalty lower
is better, equal results tie, a leaver last (with pairs, the leaver's pair), and the update
openskill's Plackett-Luce makes of those ranks, a pair as one team."""

from __future__ import annotations

import pytest
from domino.engine import Match, resolve_rules
from domino.service.ratings import Rating, Side, standings
from domino.service.tally import finished, is_rated, rate
from domino.store.records import GameRecord, Seat
from openskill.models import PlackettLuce


def finished_match(
    preset: str,
    players: int,
    scores: list[int],
    winners: tuple[int, ...],
    forfeits: list[int] | None = None,
) -> tuple[GameRecord, Match]:
    match = Match.start(resolve_rules(preset, players), seed=1)
    match.scores = list(scores)
    match.match_winners_ = winners
    match.forfeits = list(forfeits or [])
    match.status = "finished"
    seats = [Seat(f"p{i}", f"P{i}") for i in range(players)]
    for seat in forfeits or []:
        seats[seat] = Seat(f"p{seat}", f"P{seat}", "easy")
    record = GameRecord("g", 9, "finished", preset, {"rated": True}, seats)
    return record, match


def ranks(sides: list[Side]) -> dict[tuple[int, ...], int]:
    return {side.seats: side.rank for side in sides}


def test_the_match_winner_ranks_first_then_the_higher_totals() -> None:
    record, match = finished_match("clasico", 3, [100, 40, 70], (0,))
    assert ranks(standings(record, match)) == {(0,): 0, (2,): 1, (1,): 2}


def test_equal_results_tie() -> None:
    record, match = finished_match("clasico", 3, [100, 40, 40], (0,))
    assert ranks(standings(record, match)) == {(0,): 0, (1,): 1, (2,): 1}


def test_under_penalty_the_lower_total_ranks_higher() -> None:
    record, match = finished_match("buho21", 3, [10, 30, 20], (0,))
    assert ranks(standings(record, match)) == {(0,): 0, (2,): 1, (1,): 2}


def test_a_leaver_ranks_last_whatever_their_seat_scored_after() -> None:
    record, match = finished_match("clasico", 3, [100, 150, 70], (0,), forfeits=[1])
    assert ranks(standings(record, match)) == {(0,): 0, (2,): 1, (1,): 2}


def test_two_leavers_tie_behind_everyone() -> None:
    record, match = finished_match("clasico", 4, [100, 150, 70, 5], (0,), forfeits=[1, 2])
    assert ranks(standings(record, match)) == {(0,): 0, (3,): 1, (1,): 2, (2,): 2}


def test_pairs_are_ranked_as_teams() -> None:
    record, match = finished_match("parejas-111", 4, [111, 80, 111, 80], (0, 2))
    assert ranks(standings(record, match)) == {(0, 2): 0, (1, 3): 1}


def test_a_pair_with_a_leaver_ranks_last() -> None:
    record, match = finished_match("parejas-111", 4, [60, 120, 60, 120], (0, 2), forfeits=[3])
    assert ranks(standings(record, match)) == {(0, 2): 0, (1, 3): 1}


def test_the_update_is_openskills_plackett_luce_with_pairs_as_teams() -> None:
    before = {
        0: Rating("a", "parejas-111:4", 30.0, 5.0, 12),
        1: Rating("b", "parejas-111:4"),
        2: Rating("c", "parejas-111:4", 20.0, 7.0, 3),
        3: Rating("d", "parejas-111:4", 27.0, 4.0, 40),
    }
    sides = [Side((1, 3), 0), Side((0, 2), 1)]
    after = rate(sides, before)
    model = PlackettLuce(mu=25.0, sigma=25.0 / 3.0)
    expected = model.rate(
        [
            [model.rating(), model.rating(27.0, 4.0)],
            [model.rating(30.0, 5.0), model.rating(20.0, 7.0)],
        ],
        ranks=[0, 1],
    )
    (b, d), (a, c) = expected
    for seat, want in ((0, a), (1, b), (2, c), (3, d)):
        assert after[seat].mu == pytest.approx(want.mu)
        assert after[seat].sigma == pytest.approx(want.sigma)
        assert after[seat].games == before[seat].games + 1
    assert after[1].mu > before[1].mu and after[0].mu < before[0].mu


def test_ties_move_equal_players_equally() -> None:
    before = {seat: Rating(f"p{seat}", "clasico:3") for seat in range(3)}
    after = rate([Side((0,), 0), Side((1,), 0), Side((2,), 1)], before)
    assert after[0] == after[1]._replace(player="p0")
    assert after[2].mu < 25.0 < after[0].mu


def test_only_a_finish_from_play_is_tallied() -> None:
    record, _match = finished_match("clasico", 3, [100, 40, 70], (0,))
    record.state = b"x"
    playing = GameRecord("g", 8, "playing", "clasico", {}, record.seats, b"x")
    assert finished(playing, record)
    assert not finished(record, record) and not finished(None, record)
    waiting = GameRecord("g", 1, "waiting", "clasico", {}, record.seats)
    assert not finished(waiting, record)


def test_a_rated_game_is_people_only_and_marked_rated() -> None:
    record, _match = finished_match("clasico", 3, [100, 40, 70], (0,))
    assert is_rated(record)
    assert not is_rated(GameRecord("g", 1, "finished", "clasico", {}, record.seats))
    with_bot = [*record.seats[:2], Seat(None, None, "easy")]
    assert not is_rated(GameRecord("g", 1, "finished", "clasico", {"rated": True}, with_bot))
