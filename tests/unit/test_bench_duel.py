"""bench/duel.py: our strategist against ``dominoes``' bota_gorda, our engine mirroring theirs."""

from __future__ import annotations

from typing import Any

import pytest
from bench_modules import load_bench

try:
    import dominoes
except ImportError as error:  # a failure, not a skip: the bench extra is part of the dev setup
    raise ImportError(
        "tests/unit/test_bench_duel.py needs the PyPI package dominoes 6.1.0: "
        "pip install -e '.[bench]'"
    ) from error

from domino import engine
from domino.engine import Match, Play, Tile, choose_move

DEALS = (0, 1, 2)


duel = load_bench("duel")


class Watcher:
    """The strategist, checking every call: the seat on turn, on our side, seeing its own hand."""

    def __init__(self, our_team: int) -> None:
        self.our_team = our_team
        self.calls: list[tuple[int, int]] = []  # (seat, seed)

    def __call__(self, match: Match, seat: int, seed: int) -> Any:
        assert match.turn == seat and seat % 2 == self.our_team
        assert match.legal_moves(), "our bot is asked only when it has a tile to play"
        self.calls.append((seat, seed))
        return choose_move(match, seat, "strategist", seed=seed)


def test_the_deal_gives_every_tile_once_seven_a_seat_and_repeats() -> None:
    for deal in DEALS:
        hands = duel.deal_hands(deal)
        assert [len(hand) for hand in hands] == [7, 7, 7, 7]
        tiles = sorted(tile for hand in hands for tile in hand)
        assert tiles == sorted((a, b) for b in range(7) for a in range(b + 1))
        assert hands == duel.deal_hands(deal)
    assert duel.deal_hands(0) != duel.deal_hands(1)


@pytest.mark.parametrize("deal", DEALS)
def test_a_deal_played_both_ways_mirrors_and_scores_consistently(deal: int) -> None:
    won = 0
    for our_team in (0, 1):
        watcher = Watcher(our_team)
        hand = duel.play_hand(deal, our_team, watcher)  # raises MirrorError on any disagreement
        assert (hand.deal, hand.our_team) == (deal, our_team)
        assert not (hand.our_team_won and hand.their_team_won)
        if hand.our_team_won:
            assert hand.our_points > 0 == hand.their_points
        elif hand.their_team_won:
            assert hand.their_points > 0 == hand.our_points
        else:  # only a closed hand with equal pips is won by nobody
            assert hand.closed and hand.our_points == hand.their_points == 0
        ours, theirs = hand.team_points[our_team], hand.team_points[1 - our_team]
        assert (ours, theirs) == (hand.our_points, hand.their_points)
        # the decisions: one time per call, distinct seeds, our seats only
        assert len(hand.decision_times) == len(watcher.calls) > 0
        assert all(t >= 0 for t in hand.decision_times)
        seeds = [seed for _, seed in watcher.calls]
        assert len(set(seeds)) == len(seeds)
        assert {seat % 2 for seat, _ in watcher.calls} == {our_team}
        # 28 tiles: at most 28 plays, and a hand needs at least the 6-6 and a player's other 6
        assert 7 <= hand.plies <= 28 + 4 * 7
        # the same deal and seating repeat exactly (only the times change)
        again = duel.play_hand(deal, our_team, Watcher(our_team))
        assert again.our_team_won == hand.our_team_won
        assert (again.our_points, again.their_points, again.plies) == (
            hand.our_points,
            hand.their_points,
            hand.plies,
        )
        won += hand.our_team_won
    tally = duel.play_deals(range(deal, deal + 1), duel.LevelChooser("strategist")())
    assert tally.hands == 2 and tally.wins == won
    assert tally.wins + tally.losses + tally.ties == 2
    assert tally.deals_won[won] == 1 and sum(tally.deals_won) == 1


def _opened(deal: int) -> Any:
    """A mirror of ``deal`` with the 6-6 laid in both engines."""
    mirror = duel._Mirror(deal, dominoes, engine)
    mirror.play(mirror.game.turn, *mirror.game.valid_moves[0])
    mirror.check()
    return mirror


@pytest.mark.parametrize("deal", DEALS)
def test_the_mirror_notices_ends_swapped(deal: int) -> None:
    """Both ends show 6 after the opening: a tile laid on their left and on our right fits both
    boards, which then show the same numbers on opposite ends."""
    mirror = _opened(deal)
    seat = mirror.game.turn
    domino, left = mirror.game.valid_moves[0]
    assert left and mirror.match.ends == [6, 6]
    mirror.game.make_move(domino, True)
    mirror.match.apply(seat, Play(Tile(domino.first, domino.second), "right"), at=0)
    with pytest.raises(duel.MirrorError, match="open ends"):
        mirror.check()


@pytest.mark.parametrize("deal", DEALS)
def test_the_mirror_notices_a_move_made_on_one_side_only(deal: int) -> None:
    mirror = _opened(deal)
    mirror.game.make_move(*mirror.game.valid_moves[0])
    with pytest.raises(duel.MirrorError, match="holds"):
        mirror.check()


def test_our_left_played_on_their_right_is_refused() -> None:
    swap = duel._Mirror.to_theirs

    def swapped(self: Any, move: Any) -> tuple[Any, bool]:
        domino, left = swap(self, move)
        return domino, not left

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(duel._Mirror, "to_theirs", swapped)
        for deal in DEALS:
            with pytest.raises((duel.MirrorError, dominoes.EndsMismatchException)):
                duel.play_hand(deal, 0, Watcher(0))


def test_run_adds_up_the_chunks() -> None:
    factory = duel.LevelChooser("strategist")
    total = duel.run(len(DEALS), factory, workers=1, chunk=2)
    assert total.hands == 2 * len(DEALS) == total.wins + total.losses + total.ties
    assert sum(total.deals_won) == len(DEALS)
    assert len(total.times) > 0 and total.plies > 0
    one_chunk = duel.run(len(DEALS), factory, workers=1, chunk=len(DEALS))
    assert (one_chunk.wins, one_chunk.points, one_chunk.points_against) == (
        total.wins,
        total.points,
        total.points_against,
    )
    low, high = total.interval()
    assert 0.0 <= low <= total.win_rate() <= high <= 1.0


@pytest.mark.parametrize("deal", DEALS)
def test_bota_gorda_against_itself_wins_each_deal_once_or_ties_it(deal: int) -> None:
    """The package's reference run (no mirror): the same deterministic player on both sides, so
    swapping the seats swaps the winner."""
    first = duel.play_package_hand(deal, 0, "bota_gorda")
    second = duel.play_package_hand(deal, 1, "bota_gorda")
    assert first.our_team_won == second.their_team_won
    assert first.their_team_won == second.our_team_won
    assert (first.our_points, first.their_points) == (second.their_points, second.our_points)
    assert first.decision_times == () and first.plies >= 7
