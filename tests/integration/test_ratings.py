"""Ratings on DynamoDB Local (docs/api.md#ratings): a finished match counted exactly once under
redelivery and concurrency, the leaderboard index and histogram kept in step with the ratings,
a deleted account leaving both, and the reads of GET /players and /leaderboards."""

from __future__ import annotations

import os
import secrets
import threading
from typing import Any

import pytest
from domino.engine import Match, choose_move, encode, resolve_rules
from domino.service.errors import PlayerNotFound
from domino.service.ratings import RatingQueries, standings
from domino.service.tally import MatchTally, rate
from domino.store.accounts import DynamoAccounts
from domino.store.ratings import DynamoRatings, Rating, bucket_of
from domino.store.records import GameRecord, Seat, to_attributes, to_item
from domino.store.table import Table

pytestmark = pytest.mark.ddb


@pytest.fixture
def store(ddb_endpoint: str) -> DynamoRatings:
    return DynamoRatings(Table(os.environ["TABLE_NAME"]))


def uid(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(4)}"


def finish(
    preset: str,
    players: list[str],
    *,
    rated: bool = True,
    forfeits: tuple[int, ...] = (),
    created: int = 1_800_000_000,
    seed: int = 3,
) -> tuple[dict[str, Any], dict[str, Any], GameRecord, Match]:
    """The stream images of a single-hand match played out by bots going from playing to
    finished; ``forfeits`` leave at once (a bot plays their seat)."""
    rules = resolve_rules(preset, len(players), {"match": "single", "target": None})
    match = Match.start(rules, seed=seed, at=created)
    seats = [Seat(p, p.upper()) for p in players]
    for seat in forfeits:
        match.forfeit(seat, created)
        seats[seat] = Seat(players[seat], players[seat].upper(), "easy")
    game = uid("game")
    config = {"rated": True} if rated else {}
    for ply in range(5000):
        if match.status != "playing":
            break
        assert match.turn is not None
        before = encode(match)
        match.apply(match.turn, choose_move(match, match.turn, "greedy", seed=ply), created + ply)
    assert match.status == "finished"
    old = GameRecord(game, 40, "playing", preset, config, seats, before, created, created)
    new = GameRecord(
        game, 41, "finished", preset, config, seats, encode(match), created, created + 600
    )
    return to_attributes(to_item(old)), to_attributes(to_item(new)), new, match


def test_a_redelivered_finish_changes_ratings_and_stats_once(store: DynamoRatings) -> None:
    ana, ben = uid("ana"), uid("ben")
    old, new, record, match = finish("dos-jugadores", [ana, ben], seed=4)
    assert match.match_winners_ == (0,)  # the seed's hand: seat 0 goes out
    tally = MatchTally(store)
    assert tally.on_change(old, new) is True
    assert tally.on_change(old, new) is False  # the stream delivers at least once
    assert MatchTally(store).tally(record) is False  # a crash and a retry: the marker holds
    expected = rate(
        standings(record, match),
        {0: Rating(ana, "dos-jugadores:2"), 1: Rating(ben, "dos-jugadores:2")},
    )
    for seat, player in enumerate((ana, ben)):
        got = store.get(player, "dos-jugadores:2")
        assert got.games == 1
        assert got.mu == pytest.approx(expected[seat].mu)
        assert got.sigma == pytest.approx(expected[seat].sigma)
    assert store.get(ana, "dos-jugadores:2").mu > 25 > store.get(ben, "dos-jugadores:2").mu
    profile = RatingQueries(store).player(ana)
    assert profile["stats"] == {"matches": 1, "wins": 1, "forfeits": 0}
    assert profile["name"] == ana.upper()
    assert profile["ratings"] == [
        {
            "pool": "dos-jugadores:2",
            "rating": store.get(ana, "dos-jugadores:2").shown,
            "games": 1,
            "provisional": True,
        }
    ]
    assert RatingQueries(store).player(ben)["stats"] == {"matches": 1, "wins": 0, "forfeits": 0}


def test_an_unrated_match_counts_stats_only(store: DynamoRatings) -> None:
    ana, ben = uid("ana"), uid("ben")
    old, new, _record, _match = finish("dos-jugadores", [ana, ben], rated=False, forfeits=(0,))
    assert MatchTally(store).on_change(old, new) is True
    assert MatchTally(store).on_change(old, new) is False
    assert store.read(ana, "dos-jugadores:2") == (None, None, None)
    view = RatingQueries(store).player(ana)
    assert view["ratings"] == [] and view["stats"] == {"matches": 1, "wins": 0, "forfeits": 1}


def test_concurrent_rated_finishes_of_one_player_all_apply(store: DynamoRatings) -> None:
    """Six games of one player finish at once, each redelivered: each counts once, none lost
    to another's version conflict."""
    star = uid("star")
    finishes = [finish("dos-jugadores", [star, uid("rival")], seed=n) for n in range(6)]
    errors: list[BaseException] = []

    def deliver(old: dict[str, Any], new: dict[str, Any]) -> None:
        try:
            MatchTally(store, pause=0.005).on_change(old, new)
        except BaseException as err:
            errors.append(err)

    threads = [
        threading.Thread(target=deliver, args=(old, new))
        for old, new, _r, _m in finishes
        for _twice in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert store.get(star, "dos-jugadores:2").games == 6
    assert RatingQueries(store).player(star)["stats"]["matches"] == 6
    assert all(store.tallied(record.id) for _o, _n, record, _m in finishes)


def test_pairs_and_a_leaver_are_rated_as_the_contract_ranks_them(store: DynamoRatings) -> None:
    people = [uid("p") for _ in range(4)]
    old, new, record, match = finish("parejas-111", people, forfeits=(1,))
    assert MatchTally(store).on_change(old, new)
    got = [store.get(p, "parejas-111:4") for p in people]
    assert got[0].mu == pytest.approx(got[2].mu) and got[1].mu == pytest.approx(got[3].mu)
    assert got[0].mu > 25 > got[1].mu
    assert RatingQueries(store).player(people[1])["stats"]["forfeits"] == 1
    assert RatingQueries(store).player(people[3])["stats"]["forfeits"] == 0
    assert [(side.seats, side.rank) for side in standings(record, match)] == [
        ((0, 2), 0),
        ((1, 3), 1),
    ]


def test_a_player_deleted_before_the_game_is_rated_with_the_rest_but_not_written(
    store: DynamoRatings,
) -> None:
    ana, ben, cy = uid("ana"), uid("ben"), uid("cy")
    old, new, _record, _match = finish("clasico", [ana, ben, cy], created=1_800_000_000)
    DynamoAccounts(store.table).mark_deleted(cy, 1_800_000_100)  # during the game
    assert MatchTally(store).on_change(old, new)
    assert store.read(cy, "clasico:3") == (None, None, None)
    assert store.get(ana, "clasico:3").games == 1 and store.get(ben, "clasico:3").games == 1
    with pytest.raises(PlayerNotFound):
        RatingQueries(store).player(cy)


def test_an_unknown_player_is_not_found(store: DynamoRatings) -> None:
    for player in (uid("nobody"), "x" * 500):
        with pytest.raises(PlayerNotFound):
            RatingQueries(store).player(player)


def seed(store: DynamoRatings, pool: str, ratings: list[int], games: int = 12) -> list[str]:
    """Established players of the given shown ratings (sigma 1: shown = 1000 + 40 (mu - 3))."""
    players = []
    for shown in ratings:
        player = uid("r")
        mu = (shown - 1000) / 40 + 3
        RatingQueries(store).set_rating(player, pool, mu, 1.0, games, 1_800_000_000)
        players.append(player)
    return players


def histogram_total(store: DynamoRatings, pool: str) -> int:
    return sum(store.histogram(pool).values())


def test_the_leaderboard_pages_highest_first_and_leaves_provisional_ratings_out(
    store: DynamoRatings,
) -> None:
    pool = "chipre:7"
    players = seed(store, pool, [1200, 1500, 1300, 1500, 900])
    newcomer = seed(store, pool, [2000], games=3)[0]  # provisional: left out
    queries = RatingQueries(store)
    first = queries.leaderboard(pool, 2, None)
    assert [(r["rank"], r["rating"]) for r in first["players"]] == [(1, 1500), (1, 1500)]
    second = queries.leaderboard(pool, 2, first["next"])
    third = queries.leaderboard(pool, 2, second["next"])
    rows = first["players"] + second["players"] + third["players"]
    assert [(r["rank"], r["rating"]) for r in rows] == [
        (1, 1500),
        (1, 1500),
        (3, 1300),
        (4, 1200),
        (5, 900),
    ]
    assert third["next"] is None
    assert newcomer not in {r["player"] for r in rows}
    assert {r["player"] for r in rows} == set(players)
    assert all(r["games"] == 12 for r in rows)
    me = queries.mine(players[2], pool)  # 1300
    assert me == {
        "pool": pool,
        "rating": 1300,
        "games": 12,
        "provisional": False,
        "rank": 3,
        "percentile": me["percentile"],
    }
    assert me["percentile"] == pytest.approx(40.0, abs=1)  # 2 of the 5 below
    assert queries.mine(newcomer, pool)["rank"] is None
    assert queries.mine(newcomer, pool)["percentile"] is None
    assert queries.mine(uid("nobody"), pool) == {
        "pool": pool,
        "rating": 1000,
        "games": 0,
        "provisional": True,
        "rank": None,
        "percentile": None,
    }
    assert histogram_total(store, pool) == 5


def test_the_percentile_is_within_a_point_of_an_exact_count(store: DynamoRatings) -> None:
    pool = "chipre:8"
    import random

    rng = random.Random(7)
    shown = [round(rng.gauss(1300, 60)) for _ in range(150)] + [1300] * 20  # a crowded bucket
    players = seed(store, pool, shown)
    queries = RatingQueries(store)
    for player, rating in [*list(zip(players, shown, strict=True))[::7], (players[-1], 1300)]:
        exact = 100 * sum(1 for r in shown if r < rating) / len(shown)
        got = queries.mine(player, pool)
        assert got["percentile"] == pytest.approx(exact, abs=1), (rating, got)
        higher = sum(1 for r in shown if r > rating)
        assert got["rank"] == higher + 1


def test_ratings_crossing_out_of_provisional_enter_the_index_and_histogram(
    store: DynamoRatings,
) -> None:
    pool = "chipre:9"
    ana, ben = uid("ana"), uid("ben")
    RatingQueries(store).set_rating(ana, pool, 25.0, 3.0, 9, 1_800_000_000)
    RatingQueries(store).set_rating(ben, pool, 25.0, 3.0, 9, 1_800_000_000)
    assert histogram_total(store, pool) == 0
    assert RatingQueries(store).leaderboard(pool, 10, None)["players"] == []
    players = [ana, ben] + [uid("x") for _ in range(7)]
    old, new, _r, _m = finish("chipre", players)
    assert MatchTally(store).on_change(old, new)
    board = RatingQueries(store).leaderboard(pool, 10, None)["players"]
    assert {r["player"] for r in board} == {ana, ben}  # the others are still provisional
    counts = store.histogram(pool)
    assert sum(counts.values()) == 2
    for player in (ana, ben):
        assert counts[bucket_of(store.get(player, pool).shown)] >= 1
    MatchTally(store).on_change(old, new)  # redelivered: the histogram stays
    assert sum(store.histogram(pool).values()) == 2


def test_a_forgotten_player_leaves_the_leaderboard_and_the_histogram(
    store: DynamoRatings,
) -> None:
    pool = "chipre:10"
    stay, leave = seed(store, pool, [1100, 1400])
    RatingQueries(store).set_rating(leave, "chipre:6", 30.0, 2.0, None, 1_800_000_000)
    assert histogram_total(store, pool) == 2
    assert store.forget(leave) == 2
    assert [r["player"] for r in RatingQueries(store).leaderboard(pool, 10, None)["players"]] == [
        stay
    ]
    assert histogram_total(store, pool) == 1
    assert store.read(leave, "chipre:6") == (None, None, None)
    assert store.forget(leave) == 0  # DELETE /me again: nothing left


def test_setting_a_rating_twice_moves_its_histogram_count(store: DynamoRatings) -> None:
    pool = "cruzado:5"
    (ana,) = seed(store, pool, [1200])
    RatingQueries(store).set_rating(ana, pool, (1800 - 1000) / 40 + 3, 1.0, None, 1_800_000_000)
    counts = {b: c for b, c in store.histogram(pool).items() if c}
    assert counts == {bucket_of(1800): 1}
    assert store.get(ana, pool).games == 12  # the stored count is kept


def test_the_leaderboard_shows_the_name_chosen_with_patch_me(store: DynamoRatings) -> None:
    pool = "dos-jugadores:2"
    ana, ben = uid("ana"), uid("ben")
    for player in (ana, ben):
        RatingQueries(store).set_rating(player, pool, 25.0, 3.0, 12, 1_800_000_000)
    old, new, _r, _m = finish("dos-jugadores", [ana, ben], seed=4)
    assert MatchTally(store).on_change(old, new)

    def shown() -> dict[str, str]:
        rows = RatingQueries(store).leaderboard(pool, 100, None)
        while rows["next"]:  # other tests rate players in this pool too
            more = RatingQueries(store).leaderboard(pool, 100, rows["next"])
            rows = {"players": rows["players"] + more["players"], "next": more["next"]}
        return {r["player"]: r["name"] for r in rows["players"] if r["player"] in (ana, ben)}

    assert shown() == {ana: ana.upper(), ben: ben.upper()}  # the seats' names

    # PATCH /me: the profile first, then every rating the player holds
    DynamoAccounts(store.table).set_name(ana, "Anita", 1_800_000_700, None)
    _before, version, _name = store.read(ana, pool)
    assert store.rename(ana, "Anita") == 1
    assert shown() == {ana: "Anita", ben: ben.upper()}
    assert RatingQueries(store).player(ana)["name"] == "Anita"
    assert store.read(ana, pool)[1] == (version or 0) + 1  # a tally that read before retries

    # a later match whose seat still shows the old name keeps the chosen one
    old, new, _r, _m = finish("dos-jugadores", [ana, ben], seed=5)
    assert MatchTally(store).on_change(old, new)
    assert shown() == {ana: "Anita", ben: ben.upper()}
    assert store.rename(uid("nobody"), "Nadie") == 0  # no ratings: nothing to write
