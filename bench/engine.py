"""Benchmark of the rules engine: prints figures, asserts nothing.

    python bench/engine.py [--quick] [--tree PATH] [--json FILE]

Times are CPU time of this process (``time.process_time``), so that other load on the machine
skews them less. Per preset: random self-play games/s (a game = a whole match under the
preset's rules) and plies/s, median of 3 runs; hands/s; peak memory of one match (tracemalloc);
the largest encoded state seen at any step of any game over every player count (move times
advancing by random correspondence-style gaps of 0 s to 1 day); a whole ``tren-mexicano`` match
(13 rounds) of 8 strategist players, their choices included. Then ``parejas-111`` (one hand,
as the ``dominoes`` package plays one game) against the PyPI package ``dominoes`` 6.1.0 (its
4-player game, random legal moves until it ends), side by side, and microseconds per ply of
legal_moves + apply.

The comparison is like for like: each game on both sides includes its deal (ours unseeded, from
the CSPRNG, as production deals; theirs ``random.shuffle``), its play and its end and scoring; both
pick uniformly among the legal moves with the same ``random.Random``, with no bot view building on
either side. Both open as ``parejas-111`` does (``highest_double`` with every tile dealt): the
holder of 6-6 leads it (theirs ``Game.new(starting_domino=Domino(6, 6))``, which finds the holder
and plays it; without it seat 0 would lead any tile, a different game: 27.0 % of its games block,
against 24.9 % of ours and 25.2 % of theirs opened with 6-6, at 22.5 plays a game each). Our loop
also calls ``can_draw`` and applies a pass for a stuck seat, which their ``make_move`` does by
itself (their plies count no passes). Both are timed the same way, the clock read once every
``BATCH`` games (a read of ``process_time`` costs about 0.8 us, 2 % of one of our games and 0.5 %
of one of theirs when read after each). Runs alternate, median of 3 (one with ``--quick``).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from _tree import add_common_arguments, use_tree, write_json

#: domino.engine of the tree measured (--tree), imported once that tree is on sys.path
E: Any = None

LIKE_FOR_LIKE = (
    "like for like: one 4-player hand each, deal included (ours: CSPRNG, unseeded; theirs: "
    "random.shuffle), the holder of 6-6 leads it, uniform random legal moves from the same "
    "random.Random, passes included (theirs automatic, not counted as plies), scoring included"
)

#: games between two reads of the clock (``timed``): a read costs about 0.8 us of CPU here,
#: which read after every game would weigh 2 % on one of our games and 0.5 % on one of theirs
BATCH = 8

#: the player count each preset is timed at
TIMED_COUNT = {
    "clasico": 4,
    "dos-jugadores": 2,
    "ida-y-vuelta": 2,
    "parejas-111": 4,
    "infantil": 4,
    "multicolor-plus": 4,
    "buho21": 4,
    "pool": 4,
    "cruzado": 4,
    "chipre": 6,
}


def self_play(rules, seed: int | None, rnd: Callable[[], float]) -> tuple[int, int]:
    """One match of random legal moves; returns (plies, hands). ``seed`` None: shuffles from
    the CSPRNG, as in production."""
    m = E.Match.start(rules, seed=seed)
    plies = 0
    while m.status == "playing":
        legal = m.legal_moves()
        move = legal[int(rnd() * len(legal))] if legal else (E.DRAW if m.can_draw() else E.PASS)
        m.apply(m.turn, move, plies)
        plies += 1
    return plies, m.hand_number


def timed(fn: Callable[[], tuple[int, int]], budget: float) -> tuple[float, float, float]:
    """Run ``fn`` for about ``budget`` seconds: (games/s, plies/s, hands/s). The clock is read
    once every ``BATCH`` games, so that its cost is not timed as the games'."""
    games = plies = hands = 0
    start = time.process_time()
    while True:
        for _ in range(BATCH):
            p, h = fn()
            plies += p
            hands += h
        games += BATCH
        elapsed = time.process_time() - start
        if elapsed >= budget:
            return games / elapsed, plies / elapsed, hands / elapsed


def median3(fn: Callable[[], tuple[int, int]], budget: float, runs: int) -> tuple[float, ...]:
    results = [timed(fn, budget) for _ in range(runs)]
    return tuple(statistics.median(r[i] for r in results) for i in range(3))


def max_encoded(pid: str, games: int) -> int:
    preset = E.PRESETS[pid]
    biggest = 0
    for n in range(preset.min_players, preset.max_players + 1):
        rules = E.resolve_rules(pid, n)
        for seed in range(games):
            rng = random.Random(seed)
            at = 1_700_000_000
            m = E.Match.start(rules, seed=seed, at=at)
            while m.status == "playing":
                legal = m.legal_moves()
                move = rng.choice(legal) if legal else (E.DRAW if m.can_draw() else E.PASS)
                at += rng.choice((0, 0, 2, 30, 300, 3600, rng.randrange(86_400)))
                m.apply(m.turn, move, at)
                biggest = max(biggest, len(E.encode(m)))
    return biggest


def peak_memory(rules) -> int:
    tracemalloc.start()
    self_play(rules, 7, random.Random(7).random)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def ply_cost(rules, games: int) -> float:
    """Microseconds per ply of legal_moves + apply (with the random pick), deals excluded."""
    rnd = random.Random(3).random
    plies = 0
    spent = 0.0
    for first in range(0, games, 100):  # dealt in small batches: a few matches in memory at once
        matches = [E.Match.start(rules, seed=s) for s in range(first, min(first + 100, games))]
        start = time.process_time()
        for m in matches:
            while m.status == "playing":
                legal = m.legal_moves()
                move = (
                    legal[int(rnd() * len(legal))]
                    if legal
                    else (E.DRAW if m.can_draw() else E.PASS)
                )
                m.apply(m.turn, move, plies)
                plies += 1
        spent += time.process_time() - start
    return spent / plies * 1e6


def dominoes_game(rnd: Callable[[], float], dominoes: Any, opening: Any) -> tuple[int, int]:
    """One game of the ``dominoes`` package: its deal (``random.shuffle``), the holder of
    ``opening`` (6-6) leads it, as ours under ``highest_double``, then random legal moves (it
    passes for a stuck seat by itself) until it ends; returns (plies, 1), the lead included."""
    game = dominoes.Game.new(starting_domino=opening)
    plies = 1  # the lead, which ``Game.new`` plays
    while game.result is None:
        moves = game.valid_moves
        game.make_move(*moves[int(rnd() * len(moves))])
        plies += 1
    return plies, 1


def strategist_match_ms(E: Any, pid: str, players: int, matches: int) -> float:
    """Median CPU milliseconds of a whole match of ``pid`` with ``players`` strategist bots
    (their choices included)."""
    rules = E.resolve_rules(pid, players)
    times = []
    for seed in range(matches):
        match = E.Match.start(rules, seed=seed, at=0)
        started = time.process_time()
        k = 0
        while match.status == "playing":
            seat = match.turn
            match.apply(seat, E.choose_move(match, seat, "strategist", seed=k), k)
            k += 1
        times.append(time.process_time() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short budgets, one run each")
    add_common_arguments(ap)
    args = ap.parse_args()
    use_tree(args.tree)
    global E
    E = importlib.import_module("domino.engine")
    figures: dict[str, Any] = {"games_per_s": {}}
    budget, runs, enc_games = (0.3, 1, 2) if args.quick else (1.0, 3, 6)

    print(
        f"{'preset':16} {'n':>2} {'games/s':>9} {'hands/s':>9} {'plies/s':>9} "
        f"{'peak KiB':>8} {'max bytes':>9}"
    )
    for pid in E.PRESETS:
        n = TIMED_COUNT.get(pid, 4)  # a preset this script does not know yet: 4 players
        rules = E.resolve_rules(pid, n)
        rng = random.Random(1)
        seeds = iter(range(10**9))
        games, plies, hands = median3(
            lambda r=rules, s=seeds, g=rng: self_play(r, next(s), g.random), budget, runs
        )
        peak = peak_memory(rules)
        size = max_encoded(pid, enc_games)
        figures["games_per_s"][pid] = games
        print(
            f"{pid:16} {n:>2} {games:>9.0f} {hands:>9.0f} {plies:>9.0f} {peak / 1024:>8.1f} "
            f"{size:>9}"
        )

    if "tren-mexicano" in E.PRESETS:  # a tree from before it (bench/compare.py) goes without
        train_ms = strategist_match_ms(E, "tren-mexicano", 8, 3 if args.quick else 10)
        figures["tren_mexicano_8_strategists_ms"] = train_ms
        print(
            f"tren-mexicano, 8 strategist players, a whole match (13 rounds): {train_ms:.1f} ms "
            "(median, CPU)"
        )

    print()
    one_hand = E.resolve_rules("parejas-111", 4, {"match": "single", "target": None})
    rng = random.Random(2)
    try:
        import dominoes
    except ImportError:
        dominoes = None
        print("dominoes 6.1.0 is not installed (pip install dominoes==6.1.0): no comparison")
    else:
        double_six = dominoes.Domino(6, 6)
    print(LIKE_FOR_LIKE)
    # many short interleaved rounds, so that a machine whose speed drifts slows both sides alike;
    # the ratio is the median of the per-round ratios (each round: ours, then theirs)
    ours_runs, theirs_runs = [], []
    rounds = 5 if args.quick else 15
    for _ in range(rounds):
        ours_runs.append(timed(lambda: self_play(one_hand, None, rng.random), 0.3))
        if dominoes is not None:
            theirs_runs.append(timed(lambda: dominoes_game(rng.random, dominoes, double_six), 0.3))
    ours = tuple(statistics.median(r[i] for r in ours_runs) for i in range(3))
    print(
        f"parejas-111, one hand: {ours[0]:.0f} games/s, {ours[1]:.0f} plies/s, "
        f"{1e6 / ours[1]:.2f} us per ply (legal_moves + apply, deal and scoring included)"
    )
    ply_us = ply_cost(one_hand, 1000 if args.quick else 5000)
    print(f"legal_moves + apply alone: {ply_us:.2f} us per ply")
    figures.update(one_hand_games_per_s=ours[0], ply_us=ply_us)
    if theirs_runs:
        theirs = tuple(statistics.median(r[i] for r in theirs_runs) for i in range(3))
        print(f"dominoes 6.1.0, 4 players: {theirs[0]:.0f} games/s, {theirs[1]:.0f} plies/s")
        ratios = sorted(o[0] / t[0] for o, t in zip(ours_runs, theirs_runs, strict=True))
        quartiles = statistics.quantiles(ratios, n=4)
        median = statistics.median(ratios)
        print(
            f"ratio (games/s): median of {rounds} interleaved rounds {median:.2f}x"
            f" (quartiles {quartiles[0]:.2f}x-{quartiles[2]:.2f}x; medians' ratio "
            f"{ours[0] / theirs[0]:.2f}x)"
        )
        figures["ratio_to_dominoes"] = median
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
