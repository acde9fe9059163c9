"""Computer players' strength: the expert against the other levels and against ``bota_gorda``.

    python bench/bots.py [--deals N] [--quick] [--budget-ms MS | --samples N]
                         [--presets P[:N],...] [--opponents L,...] [--no-duel] [--workers W]
                         [--told hands|asleep|partner] [--reads WHO:BETA:DEALT]
                         [--tree PATH] [--json FILE]
    python bench/bots.py --calibrate [--budget-ms MS]

Hands, not matches: each line plays the first hand of ``Match.start(rules, seed=k)`` for deals
k = 0 .. N - 1 (default 2,000; ``--quick`` 100), and prints A's share of the hands won with its
95 % Wilson score interval, A's share of the hand points both sides scored, the hands nobody won,
and A's time per decision (p50 and p99, over every decision and over those with a choice).

Lines: A = ``expert`` against B = ``strategist``, ``greedy`` and ``random`` on ``dos-jugadores``
(one against one), ``parejas-111`` (pairs 0+2 vs 1+3) and ``clasico`` with 4 players (every seat
for itself: A holds seats 0 and 2, B seats 1 and 3, and a hand counts as A's when one of A's seats
wins it). Then the expert against the ``dominoes`` 6.1.0 package's ``bota_gorda`` in that
package's own 4-player pairs game (``bench/duel.py``: ``dominoes`` referees and scores, our engine
mirrors every move so our bot sees only its seat's view).

A ``tren-mexicano`` round (``--presets tren-mexicano:4``) is judged by the lower total instead:
it counts as A's when A's seats end it holding fewer pips than B's (the preset's penalty).

Duplicate deals, so that the luck of the deal cancels: every deal is played twice, A on the seats
of parity 0 and then on those of parity 1. Every decision gets its own seed from (deal, seating,
ply).

The expert thinks for ``--budget-ms`` of wall clock a move, default 14.5 ms: what the product's
50 ms budget buys on Lambda at the template's 512 MB, which gets 512/1769 of a vCPU (AWS gives a
whole vCPU at 1,769 MB); calibrated as docs/engine.md "How fast it thinks" says. A time budget
makes the figures vary a little from run to run; ``--samples N`` fixes the worlds a move instead,
and a run then repeats exactly. Keep the machine otherwise idle: a busy core gives the expert
fewer worlds in its budget. The deals are spread over ``--workers`` processes (2).

``--told`` is a what-if, never the product's: the expert's worlds put in, as they are, every
hand (the search with nothing hidden), the tiles out of play, its partner's hand, or only the
numbers its partner holds none of; the rest is dealt from its seat's knowledge as usual. It
tells what each hidden part is worth.

``--reads WHO:BETA:DEALT`` is another: each world the expert keeps is drawn from DEALT dealt
as usual, weighted by how likely the strategist's score (softmax BETA) made the plays of WHO
(``opponents`` or ``all`` the other seats) in it (bench/_reading.py). DEALT written ``mSTEPS``
draws the worlds from a Metropolis chain instead, STEPS proposed swaps of two unseen tiles a
world (``chain_observe``).

``--calibrate`` prints, on one process, what the budget buys: microseconds a rollout (one hand
played out from a position on plain ints, ``expert._play_from``: the line's own loop or any
layout's) and the worlds the expert deals a move within the budget, on positions of strategist
play where the seat has a choice.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from _stats import Z95, decision_seed, percentile
from _tally import Tally, play_duplicate
from _tree import add_common_arguments, banner, footer, use_tree, write_json

#: the presets measured, with their player counts
PRESETS = (("dos-jugadores", 2), ("parejas-111", 4), ("clasico", 4))
OPPONENTS = ("strategist", "greedy", "random")
#: the product's budget (template.yaml BOT_BUDGET_MS) as this machine runs it on a 512 MB Lambda
LAMBDA_BUDGET_MS = 50.0
LAMBDA_VCPU_SHARE = 512 / 1769
DEFAULT_BUDGET_MS = round(LAMBDA_BUDGET_MS * LAMBDA_VCPU_SHARE, 1)  # 14.5
DEALS_PER_TASK = 25  # one task a worker takes at a time (50 hands)


# ------------------------------------------------------------------------------ pure helpers


def paired_half_width(twice: int, once: int, never: int, z: float = Z95) -> float:
    """Half-width of the normal interval of the win rate from the per-deal scores (a deal won
    with both seatings scores 1, with one 1/2, with neither 0): the deals are independent."""
    deals = twice + once + never
    if deals < 2:
        return float("nan")
    mean = (twice + once / 2) / deals
    spread = twice * (1 - mean) ** 2 + once * (0.5 - mean) ** 2 + never * mean**2
    return z * math.sqrt(spread / (deals - 1) / deals)


def side_levels(a: str, b: str, players: int, seating: int) -> list[str]:
    """Each seat's level: A on the seats of parity ``seating`` (2 players: seat 0, then seat 1;
    4 players: 0+2, then 1+3), B on the others."""
    return [a if seat % 2 == seating else b for seat in range(players)]


def outcome(winners: list[int] | tuple[int, ...], seating: int) -> int:
    """1 when A (the seats of parity ``seating``) won the hand, -1 when B did, 0 when nobody (or,
    never in these presets, both)."""
    a_won = any(seat % 2 == seating for seat in winners)
    b_won = any(seat % 2 != seating for seat in winners)
    if a_won == b_won:
        return 0
    return 1 if a_won else -1


def side_points(points: tuple[int, ...], seating: int, pairs: bool) -> tuple[int, int]:
    """(A's, B's) points of a hand: a pair's points show on both its seats (count one); players
    for themselves add up by side."""
    if pairs:
        return points[seating], points[1 - seating]
    mine = sum(p for seat, p in enumerate(points) if seat % 2 == seating)
    return mine, sum(points) - mine


# ------------------------------------------------------------------------------ play


#: what ``--told`` tells the expert beyond its seat's knowledge (a what-if of the benchmark,
#: never the product's): every hand and the boneyard, the tiles out of play, the partner's hand, or
#: only the numbers the partner holds none of (the most a signal of voids between partners says)
TOLD = ("hands", "asleep", "partner", "partner-voids")


#: ``expert.observe`` as the engine has it, before a what-if wraps it
_SEAT_OBSERVE: Any = None


def told_observe(told: str, observe: Any) -> Any:
    """``observe`` (the seat's knowledge) for an expert told ``told`` (``TOLD``): its worlds are
    dealt from its seat's knowledge with that part of the hidden information put in as it is."""
    from domino.engine import expert
    from domino.engine.tiles import SUIT

    class Told:
        def __init__(self, match: Any, seat: int) -> None:
            partner = (seat + 2) % 4
            if told.startswith("partner") and match.rules.teams != "pairs":
                raise ValueError(f"--told {told}: only a preset played in pairs has a partner")
            know = observe(match, seat)
            self.boneyard = list(match.boneyard)
            known = 0
            if told == "asleep":
                known = sum(1 << t for t in self.boneyard)
            self.partner = partner if told == "partner" else -1
            self.partner_hand = match.hands[partner] if told == "partner" else 0
            known |= self.partner_hand
            counts = [0 if s == self.partner else c for s, c in enumerate(know.counts)]
            void = list(know.void)
            if told == "partner-voids":
                for number in range(match.rules.set + 1):
                    if not match.hands[partner] & SUIT[number]:
                        void[partner] |= SUIT[number]
            self.hands = list(match.hands) if told == "hands" else None
            self.know = expert.Knowledge(
                seat=seat,
                players=know.players,
                mine=know.mine,
                unseen=[t for t in know.unseen if not known >> t & 1],
                counts=counts,
                boneyard=0 if told == "asleep" else know.boneyard,
                void=void,
                caps=know.caps,
            )

        def __getattr__(self, name: str) -> Any:  # the rest of the knowledge, as told
            return getattr(self.know, name)

        def sample(self, rng: Any) -> tuple[list[int], list[int]]:
            if self.hands is not None:
                return list(self.hands), list(self.boneyard)
            hands, boneyard = self.know.sample(rng)
            if self.partner >= 0:
                hands[self.partner] = self.partner_hand
            return hands, self.boneyard if told == "asleep" else boneyard

    return Told


def play_hand(
    rules: Any, deal: int, seating: int, levels: list[str], thinking: dict[str, Any], tally: Tally
) -> tuple[int, int, int]:
    """The first hand of deal ``deal``: (A's outcome, A's points, B's points); A's decision
    times go to ``tally``."""
    from domino.engine import Match, choose_move, expert

    thinking = dict(thinking)
    told = thinking.pop("told", None)
    reads = thinking.pop("reads", None)
    if told is not None or reads is not None:  # this process plays only this benchmark's hands
        global _SEAT_OBSERVE
        _SEAT_OBSERVE = _SEAT_OBSERVE or expert.observe  # what each what-if wraps, once
        if told is not None:
            expert.observe = told_observe(told, _SEAT_OBSERVE)
        else:
            from _reading import chain_observe, reading_observe

            who, beta, count, chain = reads
            reader = chain_observe if chain else reading_observe
            expert.observe = reader(who, beta, count, _SEAT_OBSERVE)

    match = Match.start(rules, seed=deal, at=0)
    a = levels[seating]
    ply = 0
    while match.status == "playing" and match.hand_number == 1:
        seat = match.turn
        if seat is None:
            raise RuntimeError(f"deal {deal}: a hand in play with nobody on turn")
        level = levels[seat]
        seed = decision_seed(deal, seating, ply)
        if seat % 2 == seating:
            choice = len({p.tile.id for p in match.legal_moves()}) > 1
            started = time.perf_counter()
            move = choose_move(match, seat, a, seed=seed, **(thinking if a == "expert" else {}))
            spent = time.perf_counter() - started
            tally.times.append(spent)
            if choice:
                tally.chosen.append(spent)
        else:
            move = choose_move(match, seat, level, seed=seed)
        ply += 1
        match.apply(seat, move, ply)
    tally.plies += ply
    last = match.last
    if last is None:
        raise RuntimeError(f"deal {deal}: the hand ended without a result")
    mine, theirs = side_points(last.points, seating, rules.teams == "pairs")
    if rules.layout == "trains":  # Mexican Train: a round is the lower total's (penalty points)
        return (mine < theirs) - (mine > theirs), mine, theirs
    return outcome(last.winners, seating), mine, theirs


def play_deals(
    preset: str, players: int, a: str, b: str, deals: range, thinking: dict[str, Any]
) -> Tally:
    """Every deal of ``deals`` played twice, A's seats swapped the second time."""
    from domino.engine import resolve_rules

    rules = resolve_rules(preset, players)
    if players not in (2, 4):
        raise SystemExit(f"{preset}: two sides need 2 or 4 players")

    def hand(deal: int, seating: int, tally: Tally) -> None:
        levels = side_levels(a, b, players, seating)
        tally.count(*play_hand(rules, deal, seating, levels, thinking, tally))

    return play_duplicate(deals, hand)


Job = tuple[int, str, int, str, str, int, int, dict[str, Any]]


def _task(job: Job) -> tuple[int, Tally]:
    line, preset, players, a, b, first, stop, thinking = job
    return line, play_deals(preset, players, a, b, range(first, stop), thinking)


def _start_worker(shared: str) -> None:
    """A worker measures the same tree (``use_tree`` ran in the parent: forked workers inherit
    its path, spawned ones are given it here)."""
    if shared not in sys.path:
        sys.path.insert(0, shared)
    importlib.import_module("domino.engine")


def run_lines(
    lines: list[tuple[str, int, str, str]],
    deals: int,
    workers: int,
    shared: str,
    thinking: dict[str, Any],
) -> Iterator[tuple[int, Tally]]:
    """Each line's tally, in line order, as soon as its last deals are in."""
    jobs: list[Job] = [
        (i, preset, players, a, b, first, min(first + DEALS_PER_TASK, deals), thinking)
        for i, (preset, players, a, b) in enumerate(lines)
        for first in range(0, deals, DEALS_PER_TASK)
    ]
    left = [sum(1 for job in jobs if job[0] == i) for i in range(len(lines))]
    tallies = [Tally() for _ in lines]
    if workers <= 1:
        results: Iterator[tuple[int, Tally]] = map(_task, jobs)
        pool = None
    else:
        pool = Pool(workers, initializer=_start_worker, initargs=(shared,))
        results = pool.imap(_task, jobs)
    try:
        for line, tally in results:
            tallies[line].add(tally)
            left[line] -= 1
            if left[line] == 0:
                yield line, tallies[line]
    finally:
        if pool is not None:
            pool.close()
            pool.join()


# ------------------------------------------------------------------------------ calibration

#: the presets calibrated: every layout, pairs, a big star table, and a deal with tiles asleep
CALIBRATED = (
    ("dos-jugadores", 2),
    ("parejas-111", 4),
    ("clasico", 4),
    ("cruzado", 4),
    ("chipre", 8),
    ("cubano", 4),
)


def positions(preset: str, players: int, count: int) -> list[Any]:
    """``count`` first-hand positions of strategist play where the seat on turn has a choice."""
    import random

    from domino.engine import Match, choose_move, resolve_rules

    rules = resolve_rules(preset, players)
    found = []
    deal = 0
    while len(found) < count:
        match = Match.start(rules, seed=deal)
        rng = random.Random(deal)
        stop = rng.randrange(0, 12 * players)
        ply = 0
        while match.status == "playing" and match.hand_number == 1 and ply < stop:
            match.apply(match.turn, choose_move(match, match.turn, "strategist", seed=ply), ply)
            ply += 1
        playing = match.status == "playing" and match.hand_number == 1 and match.open_arms
        if playing and len({p.tile.id for p in match.legal_moves()}) > 1:
            found.append(match)
        deal += 1
    return found


def calibrate(budget_ms: float) -> dict[str, Any]:
    import random

    from domino.engine import expert

    print(
        f"\n{'preset':14} {'layout':6} {'us a rollout':>12} "
        f"{'worlds a move at ' + str(budget_ms) + ' ms: p10':>34} {'p50':>5} {'p90':>5}"
    )
    figures: dict[str, Any] = {}
    for preset, players in CALIBRATED:
        found = positions(preset, players, 200)
        worlds = []
        for k, match in enumerate(found):
            thought = expert.think(match, match.turn, random.Random(k), budget_ms=budget_ms)
            worlds.append(thought.worlds)
        prepared = []
        for k, match in enumerate(found):
            hands, boneyard = expert.observe(match, match.turn).sample(random.Random(k))
            prepared.append((expert._table(match), hands, boneyard))
        started = time.perf_counter()
        for _ in range(5):
            for table, hands, boneyard in prepared:
                expert._play_from(table, hands, boneyard)
        us = (time.perf_counter() - started) / (5 * len(prepared)) * 1e6
        worlds.sort()
        print(
            f"{preset:14} {found[0].layout.name:6} {us:>12.0f} "
            f"{percentile(worlds, 0.1):>34.0f} {percentile(worlds, 0.5):>5.0f} "
            f"{percentile(worlds, 0.9):>5.0f}",
            flush=True,
        )
        figures[preset] = {
            "us_per_rollout": us,
            "worlds_p10": percentile(worlds, 0.1),
            "worlds_p50": percentile(worlds, 0.5),
            "worlds_p90": percentile(worlds, 0.9),
        }
    print("(a rollout: a world's hands from the table, the hand played out on plain ints, scored)")
    return figures


# ------------------------------------------------------------------------------ report


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:.1f}" if values else "-"


def _figures(tally: Tally) -> dict[str, Any]:
    times, chosen = tally.times, tally.chosen
    never, once, twice = tally.deals_won
    return {
        **tally.figures(),
        "wins": tally.wins,
        "paired_half_width": paired_half_width(twice, once, never),
        "ms_p50": percentile(times, 0.5) * 1000 if times else None,
        "ms_p99": percentile(times, 0.99) * 1000 if times else None,
        "ms_p50_with_a_choice": percentile(chosen, 0.5) * 1000 if chosen else None,
        "ms_p99_with_a_choice": percentile(chosen, 0.99) * 1000 if chosen else None,
        "decisions": len(times),
        "cpu_seconds": tally.cpu,
    }


def _row(label: str, tally: Tally) -> str:
    low, high = tally.interval()
    return (
        f"{label:36} {tally.hands:>6} {tally.wins:>6} {tally.win_rate():>7.1%} "
        f"{f'{low:.1%}-{high:.1%}':>13} {tally.points_share():>7.1%} {tally.ties:>5} "
        f"{_ms(tally.times, 0.5):>6} {_ms(tally.times, 0.99):>6} {_ms(tally.chosen, 0.5):>6} "
        f"{_ms(tally.chosen, 0.99):>6} {tally.cpu:>6.0f}"
    )


def line_of(text: str, players_of: dict[str, int]) -> tuple[str, int]:
    """``--presets``'s ``pid`` or ``pid:n``: a preset and its player count (``PRESETS``'s, else
    the preset's least)."""
    from domino.engine import PRESETS as ALL

    pid, _, count = text.partition(":")
    return pid, int(count) if count else players_of.get(pid, ALL[pid].min_players)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=None, help="deals a line (default 2000)")
    parser.add_argument("--quick", action="store_true", help="100 deals a line")
    think = parser.add_mutually_exclusive_group()
    think.add_argument(
        "--budget-ms",
        type=float,
        default=DEFAULT_BUDGET_MS,
        help=f"the expert's thinking time a move (default {DEFAULT_BUDGET_MS}: 50 ms on Lambda)",
    )
    think.add_argument("--samples", type=int, default=None, help="worlds a move instead")
    parser.add_argument("--presets", default=",".join(p for p, _ in PRESETS))
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--no-duel", action="store_true", help="leave out bota_gorda's line")
    parser.add_argument("--calibrate", action="store_true", help="what the budget buys, only")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--told",
        choices=TOLD,
        help="a what-if: tell the expert all hands, the tiles asleep, its partner's hand or voids",
    )
    parser.add_argument(
        "--reads",
        metavar="WHO:BETA:DEALT",
        help="a what-if: worlds weighted by the strategist's score of the plays of WHO "
        "(opponents or all), softmax BETA, one kept of DEALT, or mSTEPS: a chain of STEPS "
        "swaps a world (bench/_reading.py)",
    )
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/bots.py", tree)

    from domino.engine import resolve_rules

    if args.calibrate:
        write_json(args.json, calibrate(args.budget_ms))
        footer(started)
        return 0
    deals = args.deals if args.deals is not None else 100 if args.quick else 2000
    players_of = dict(PRESETS)
    presets = [line_of(p, players_of) for p in args.presets.split(",") if p]
    opponents = [b for b in args.opponents.split(",") if b]
    thinking: dict[str, Any] = (
        {"samples": args.samples} if args.samples else {"budget_ms": args.budget_ms}
    )
    if args.told:
        thinking["told"] = args.told
    if args.reads:
        who, beta, dealt = args.reads.split(":")
        count = dealt.removeprefix("m")
        if (
            who not in ("opponents", "all")
            or float(beta) < 0
            or not count.isdigit()
            or int(count) < 1
        ):
            raise SystemExit(
                "--reads WHO:BETA:DEALT: opponents|all, beta >= 0, dealt >= 1 (mSTEPS: a chain)"
            )
        thinking["reads"] = (who, float(beta), int(count), dealt.startswith("m"))
    how = (
        f"{args.samples} worlds a move"
        if args.samples
        else f"{args.budget_ms} ms a move (wall clock)"
    )
    print(
        f"\n{deals} duplicate deals (seeds 0-{deals - 1}), the first hand of each played twice "
        f"with the sides' seats swapped: {2 * deals} hands a line. The expert thinks {how}; "
        f"{args.workers} process{'es' if args.workers > 1 else ''}"
    )
    for preset, players in presets:
        rules = resolve_rules(preset, players)
        sides = (
            "2 pairs (0+2 vs 1+3)"
            if rules.teams == "pairs"
            else "one against one"
            if players == 2
            else "4 players for themselves, A on seats 0+2, B on 1+3"
        )
        print(f"  {preset}: {players} players, {sides}")

    lines = [(preset, players, "expert", b) for preset, players in presets for b in opponents]
    print(
        f"\n{'A vs B':36} {'hands':>6} {'A won':>6} {'rate':>7} {'95 % Wilson':>13} "
        f"{'points':>7} {'tied':>5} {'p50':>6} {'p99':>6} {'ch.p50':>6} {'ch.p99':>6} "
        f"{'CPU s':>6}"
    )
    figures: dict[str, Any] = {"deals": deals, "thinking": thinking}
    for line, tally in run_lines(lines, deals, args.workers, str(tree.shared), thinking):
        preset, _, a, b = lines[line]
        print(_row(f"{preset}: {a} vs {b}", tally), flush=True)
        figures.setdefault(preset, {})[f"{a}_vs_{b}"] = _figures(tally)

    if not args.no_duel:
        duel = importlib.import_module("duel")
        try:
            importlib.import_module("dominoes")
        except ImportError:
            raise SystemExit("dominoes 6.1.0 is not installed: pip install -e '.[bench]'") from None
        chooser = duel.LevelChooser(
            "expert", samples=args.samples, budget_ms=None if args.samples else args.budget_ms
        )
        tally = duel.run(deals, chooser, args.workers, str(tree.shared))
        print(_row("dominoes' game: expert vs bota_gorda", tally), flush=True)
        figures["dominoes_bota_gorda"] = _figures(tally)
    print(
        "\nrate: the hands A won over all the hands (a tied hand is nobody's); points: A's share "
        "of the hand points both sides scored; p50/p99: A's milliseconds a decision (every "
        "decision; ch.: those with more than one tile to choose from)"
    )
    write_json(args.json, figures)
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
