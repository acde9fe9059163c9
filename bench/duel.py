"""Our bot against the PyPI ``dominoes`` 6.1.0 package's ``bota_gorda``, in that package's game.

    python bench/duel.py [--deals N] [--level strategist] [--package-player NAME] [--workers W]
                         [--budget-ms MS | --samples N] [--tree PATH] [--json FILE]

The game is the ``dominoes`` package's own (``dominoes.Game``): 4 players in pairs, 0+2 against
1+3, the 28 tiles of a double-six set dealt 7 each, no boneyard, the holder of 6-6 opens with it,
play goes 0, 1, 2, 3; a player with no playable tile passes (the package passes for them); the
hand ends when a player goes out (their pair scores every pip left in the other three hands) or
when nobody can play (the pair with fewer pips scores both pairs' pips; equal pips: a tie, nobody
scores). ``dominoes`` referees and scores every hand.

One pair is ours: the seats of parity ``our_team`` play ``choose(match, seat, seed)``, a move of
our engine (``domino.engine``). Our engine plays the same hand alongside (``parejas-111`` with
the overrides in ``RULES_OVERRIDES``, dealt the same hands): every move of the ``dominoes`` game is
mirrored into our ``Match``, so our bot sees exactly its seat's view. After every move the mirror
checks that both boards show the same open ends (their left end is our ``left``, their right end
our ``right``), that the same seat is on turn, that every seat holds the same tiles and that the
seat on turn has the same playable tiles in both; at the end, that both engines agree on the
winner and the points. The other pair is ``dominoes.players.bota_gorda`` (the heaviest playable
tile first), whose move is the first of its ordering of ``game.valid_moves``, as the package's
own players play.

Duplicate deals, so that the luck of the deal cancels: deal ``k`` is a ``random.Random(k)``
shuffle of the 28 tiles, 7 to each seat in seat order; it is played twice, our bot on seats 0+2
and then on seats 1+3. Every decision gets its own seed from (deal, seating, ply), so a run
repeats exactly (only the times change). The deals are spread over ``--workers`` processes (2).

``--package-player NAME`` puts the package's own player ``NAME`` (``random``, ``double``,
``bota_gorda``) in our seats instead, in the ``dominoes`` game alone: a reference that needs no
mirror (the same deals; the global ``random`` seeded per hand).

Prints the hands our side won with the 95 % Wilson score interval (a tied hand is not won), our
share of the points both sides scored, and our bot's time per decision (p50, p99).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from _stats import decision_seed, percentile
from _tally import Tally, play_duplicate
from _tree import add_common_arguments, banner, footer, use_tree, write_json

#: our engine's game equal to the ``dominoes`` game: one hand (``single``), a closed hand won by
#: the pair with fewer pips (``lowest_team``), equal pips win nothing (``tie: none``); the preset
#: already has pairs, 7 tiles each, no boneyard, no drawing, 6-6 opening, clockwise (0, 1, 2, 3),
#: every pip left to the side that went out, both sides' pips to the side that closed lower
RULES_OVERRIDES: dict[str, Any] = {
    "match": "single",
    "target": None,
    "block_winner": "lowest_team",
    "tie": "none",
}
DEALS_PER_TASK = 25  # one task a worker takes at a time (50 hands)
LEFT, RIGHT = "left", "right"  # our line layout's end names: their left end, their right end

#: ``choose(match, seat, seed)``: our bot's move for ``seat`` (an engine ``Move``)
Choose = Callable[[Any, int, int], Any]


class MirrorError(AssertionError):
    """The two engines disagree: the mirror is wrong (or one engine is)."""


# ------------------------------------------------------------------------------ pure helpers


def deal_hands(deal: int) -> list[list[tuple[int, int]]]:
    """Deal ``deal``'s four hands: a ``random.Random(deal)`` shuffle of the 28 tiles (a <= b),
    seven to each seat in seat order."""
    tiles = [(a, b) for b in range(7) for a in range(b + 1)]
    random.Random(deal).shuffle(tiles)
    return [tiles[7 * seat : 7 * seat + 7] for seat in range(4)]


# ------------------------------------------------------------------------------ one hand


@dataclass(frozen=True)
class HandOutcome:
    """One hand as ``dominoes`` scored it, from our side's seats (parity ``our_team``).

    ``our_team_won`` / ``their_team_won``: which pair won (neither: a closed hand with equal
    pips, which ``dominoes`` scores 0). ``our_points`` / ``their_points``: what each pair scored
    (``abs(result.points)`` to the winner, 0 to the other). ``closed``: nobody went out.
    ``plies``: moves made in our mirror (plays and passes, the closing passes included).
    ``decision_times``: seconds of each ``choose`` call (``time.perf_counter``)."""

    deal: int
    our_team: int
    our_team_won: bool
    their_team_won: bool
    our_points: int
    their_points: int
    closed: bool
    plies: int
    decision_times: tuple[float, ...]

    @classmethod
    def scored(
        cls,
        deal: int,
        our_team: int,
        winner: int | None,
        points: int,
        *,
        closed: bool,
        plies: int,
        decision_times: tuple[float, ...] = (),
    ) -> HandOutcome:
        """The hand ``winner`` (a team, None: tied) won for ``points``."""
        return cls(
            deal=deal,
            our_team=our_team,
            our_team_won=winner == our_team,
            their_team_won=winner == 1 - our_team,
            our_points=points if winner == our_team else 0,
            their_points=points if winner == 1 - our_team else 0,
            closed=closed,
            plies=plies,
            decision_times=decision_times,
        )

    @property
    def team_points(self) -> tuple[int, int]:
        """The points to seats 0+2 and to seats 1+3 (``dominoes``' teams 0 and 1)."""
        if self.our_team == 0:
            return self.our_points, self.their_points
        return self.their_points, self.our_points


def _tile_key(tile: Any) -> tuple[int, int]:
    """(low, high) of a ``dominoes.Domino`` or one of our ``Tile``s."""
    if hasattr(tile, "first"):
        return (min(tile.first, tile.second), max(tile.first, tile.second))
    return (tile.a, tile.b)


class _Mirror:
    """A ``dominoes.Game`` and our ``Match`` of the same hand, moved together."""

    def __init__(self, deal: int, dominoes: Any, engine: Any) -> None:
        self.deal = deal
        self.dominoes = dominoes
        self.engine = engine
        hands = deal_hands(deal)
        rules = engine.resolve_rules("parejas-111", 4, RULES_OVERRIDES)
        self.match = engine.Match.start(
            rules, deal={"hands": [[f"{a}-{b}" for a, b in hand] for hand in hands]}, at=0
        )
        if self.match.layout.names != (LEFT, RIGHT):
            raise MirrorError(f"our board's ends are {self.match.layout.names}, not left/right")
        # as ``dominoes.Game.new(starting_domino=Domino(6, 6))`` does, with our deal
        six_six = dominoes.Domino(6, 6)
        their_hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in hand]) for hand in hands]
        opener = next(seat for seat, hand in enumerate(their_hands) if six_six in hand)
        self.game = dominoes.Game(
            dominoes.Board(), their_hands, [], opener, ((six_six, True),), opener, None
        )
        if self.match.turn != opener:
            raise MirrorError(f"deal {deal}: our opener is {self.match.turn}, theirs {opener}")
        self.plies = 0
        self.check()

    # -------------------------------------------------------------- invariants

    def fail(self, what: str) -> MirrorError:
        return MirrorError(f"deal {self.deal}, ply {self.plies}: {what}")

    def check(self) -> None:
        """Both engines show the same state (raise ``MirrorError`` otherwise)."""
        game, match = self.game, self.match
        for seat in range(4):
            theirs = sorted(_tile_key(d) for d in game.hands[seat])
            ours = sorted(_tile_key(t) for t in match.hand_of(seat))
            if theirs != ours:
                raise self.fail(f"seat {seat} holds {ours} here, {theirs} in dominoes")
        if len(game.board):
            theirs_ends = (game.board.left_end(), game.board.right_end())
            ours_ends = (match.ends[0], match.ends[1])
            if theirs_ends != ours_ends or not match.open_arms:
                raise self.fail(f"open ends {ours_ends} here, {theirs_ends} in dominoes")
        elif match.open_arms:
            raise self.fail("our board holds a tile, theirs none")
        if game.result is None:
            if match.status != "playing" or match.turn != game.turn:
                raise self.fail(f"seat {match.turn} on turn here, {game.turn} in dominoes")
            theirs_tiles = {_tile_key(d) for d, _ in game.valid_moves}
            ours_tiles = {_tile_key(p.tile) for p in match.legal_moves()}
            if theirs_tiles != ours_tiles:
                raise self.fail(f"playable {sorted(ours_tiles)} here, {sorted(theirs_tiles)}")

    # -------------------------------------------------------------- moves

    def play(self, seat: int, domino: Any, left: bool) -> None:
        """``seat`` lays ``domino`` on their ``left`` (True) or right end: in both engines, then
        our mirror makes the passes ``dominoes`` made for the seats that could not play."""
        engine, game, match = self.engine, self.game, self.match
        if game.turn != seat or match.turn != seat:
            raise self.fail(f"seat {seat} moves, but {game.turn} / {match.turn} is on turn")
        first = not len(game.board)
        game.make_move(domino, left)
        tile = engine.Tile(domino.first, domino.second)
        end = None if first else LEFT if left else RIGHT
        match.apply(seat, engine.Play(tile, end), at=0)
        self.plies += 1
        result = game.result
        if result is None:
            while match.turn != game.turn and match.status == "playing":
                self.passes_once()
                if self.plies > 200:
                    raise self.fail("passing without end")
        elif not result.won:  # closed: every seat passes once, the last one closes ours too
            while match.status == "playing":
                self.passes_once()
                if self.plies > 200:
                    raise self.fail("passing without end")
        self.check()

    def passes_once(self) -> None:
        seat = self.match.turn
        if self.match.legal_moves():
            raise self.fail(f"seat {seat} could play here, dominoes passed for it")
        self.match.apply(seat, self.engine.PASS, at=0)
        self.plies += 1

    def to_theirs(self, move: Any) -> tuple[Any, bool]:
        """Our ``Play`` as a ``dominoes`` move: (Domino, left)."""
        if not isinstance(move, self.engine.Play):
            raise self.fail(f"our bot chose {move!r} with a tile to play")
        domino = self.dominoes.Domino(move.tile.a, move.tile.b)
        if move.end is None:  # the first tile, or the only end it fits
            if not len(self.game.board):
                return domino, True
            return domino, self.game.board.left_end() in (move.tile.a, move.tile.b)
        if move.end not in (LEFT, RIGHT):
            raise self.fail(f"our bot played on end {move.end!r}")
        return domino, move.end == LEFT


def play_hand(deal: int, our_team: int, choose: Choose) -> HandOutcome:
    """Play deal ``deal`` with our bot (``choose``) on the seats of parity ``our_team`` and
    ``bota_gorda`` on the others; ``dominoes`` referees. Raises ``MirrorError`` when the two
    engines ever disagree."""
    import dominoes

    engine = importlib.import_module("domino.engine")
    if our_team not in (0, 1):
        raise ValueError("our_team is 0 (seats 0+2) or 1 (seats 1+3)")
    mirror = _Mirror(deal, dominoes, engine)
    game, match = mirror.game, mirror.match
    # the opener leads 6-6, their only move: ``dominoes.Game.new`` makes it for them
    mirror.play(game.turn, *game.valid_moves[0])
    times: list[float] = []
    while game.result is None:
        seat = game.turn
        if seat % 2 == our_team:
            seed = decision_seed(deal, our_team, mirror.plies)
            started = time.perf_counter()
            move = choose(match, seat, seed)
            times.append(time.perf_counter() - started)
            mirror.play(seat, *mirror.to_theirs(move))
        else:
            dominoes.players.bota_gorda(game)
            mirror.play(seat, *game.valid_moves[0])
    result = game.result
    # who won, as ``dominoes`` says: points > 0 to seats 0+2, < 0 to seats 1+3, 0 a tie
    if result.won:
        winner: int | None = result.player % 2
        if result.points == 0 or (result.points > 0) != (winner == 0):
            raise mirror.fail(f"dominoes' result {result} has the wrong sign")
    else:
        winner = None if result.points == 0 else 0 if result.points > 0 else 1
    # ... and as our engine scored the same hand
    last = match.last
    if match.status != "finished" or last is None:
        raise mirror.fail("dominoes ended the hand, our match goes on")
    ours_winner = last.winners[0] % 2 if last.winners else None
    if ours_winner != winner or last.end.value != ("domino" if result.won else "closed"):
        raise mirror.fail(f"our engine ends {last.end} won by {last.winners}, dominoes {result}")
    points = abs(result.points)
    if max(last.points) != points:
        raise mirror.fail(f"our engine scores {last.points}, dominoes {result}")
    return HandOutcome.scored(
        deal,
        our_team,
        winner,
        points,
        closed=not result.won,
        plies=mirror.plies,
        decision_times=tuple(times),
    )


def play_package_hand(deal: int, our_team: int, player: str) -> HandOutcome:
    """Deal ``deal`` in ``dominoes`` alone (no mirror): the package's own ``player`` (``random``,
    ``double``, ``bota_gorda``, ...) on the seats of parity ``our_team``, bota_gorda on the
    others. A reference for ``play_hand``'s figures (the global ``random`` is seeded per hand, as
    the package's ``random`` player draws from it). ``plies``: ``len(game.moves)``, plays and the
    passes ``dominoes`` records (not the passes of a closed hand's last round)."""
    import dominoes

    ours = getattr(dominoes.players, player)
    random.seed(decision_seed(deal, our_team, 0))
    six_six = dominoes.Domino(6, 6)
    hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in hand]) for hand in deal_hands(deal)]
    opener = next(seat for seat, hand in enumerate(hands) if six_six in hand)
    game = dominoes.Game(dominoes.Board(), hands, [], opener, ((six_six, True),), opener, None)
    game.make_move(six_six, True)
    while game.result is None:
        (ours if game.turn % 2 == our_team else dominoes.players.bota_gorda)(game)
        game.make_move(*game.valid_moves[0])
    result = game.result
    if result.won:
        winner: int | None = result.player % 2
    else:
        winner = None if result.points == 0 else 0 if result.points > 0 else 1
    points = abs(result.points)
    return HandOutcome.scored(
        deal, our_team, winner, points, closed=not result.won, plies=len(game.moves)
    )


# ------------------------------------------------------------------------------ many hands


@dataclass(frozen=True)
class LevelChooser:
    """A ``choose_factory`` for one of our bot levels (picklable, for the worker processes):
    ``LevelChooser("strategist")()`` is ``lambda m, s, seed: choose_move(m, s, level, seed)``."""

    level: str
    #: the expert's thinking: a fixed number of worlds, or a time budget (None: the default)
    samples: int | None = None
    budget_ms: float | None = None

    def __call__(self) -> Choose:
        choose_move = importlib.import_module("domino.engine").choose_move
        level = self.level
        thinking: dict[str, Any] = {}
        if level == "expert":
            thinking["samples"] = self.samples
            if self.budget_ms is not None:
                thinking["budget_ms"] = self.budget_ms

        def choose(match: Any, seat: int, seed: int) -> Any:
            return choose_move(match, seat, level, seed=seed, **thinking)

        return choose


@dataclass(frozen=True)
class PackagePlayer:
    """A ``choose_factory`` that puts the ``dominoes`` package's own player ``name`` in our seats
    (``play_package_hand``: no mirror, for reference)."""

    name: str

    def __call__(self) -> str:
        return self.name


def play_deals(deals: range, choose: Choose | str) -> Tally:
    """Every deal of ``deals`` played twice: our bot on seats 0+2, then on seats 1+3 (``choose``
    a string: that ``dominoes`` player instead of ours, ``play_package_hand``). Side A of the
    tally is our pair."""

    def hand(deal: int, our_team: int, tally: Tally) -> None:
        if isinstance(choose, str):
            played = play_package_hand(deal, our_team, choose)
        else:
            played = play_hand(deal, our_team, choose)
        tally.count(
            played.our_team_won - played.their_team_won,
            played.our_points,
            played.their_points,
            closed=played.closed,
            plies=played.plies,
            times=played.decision_times,
        )

    return play_duplicate(deals, hand)


def _task(job: tuple[Callable[[], Choose | str], int, int]) -> Tally:
    factory, first, stop = job
    return play_deals(range(first, stop), factory())


def _start_worker(shared: str | None) -> None:
    """A worker plays with the same engine (forked workers inherit the path, spawned ones are
    given it here)."""
    if shared is not None and shared not in sys.path:
        sys.path.insert(0, shared)
    importlib.import_module("domino.engine")


def run_chunks(
    deals: int,
    choose_factory: Callable[[], Choose | str],
    workers: int = 2,
    shared: str | None = None,
    chunk: int = DEALS_PER_TASK,
) -> Iterator[Tally]:
    """The tallies of deals 0 .. ``deals`` - 1 (each played twice), a chunk of ``chunk`` deals
    at a time, in deal order. ``choose_factory()`` makes the ``choose`` of a chunk; with
    ``workers`` > 1 it must pickle (a ``LevelChooser``, a module-level function)."""
    jobs = [(choose_factory, first, min(first + chunk, deals)) for first in range(0, deals, chunk)]
    if workers <= 1:
        yield from map(_task, jobs)
        return
    with Pool(workers, initializer=_start_worker, initargs=(shared,)) as pool:
        yield from pool.imap(_task, jobs)


def run(
    deals: int,
    choose_factory: Callable[[], Choose | str],
    workers: int = 2,
    shared: str | None = None,
    chunk: int = DEALS_PER_TASK,
) -> Tally:
    """Deals 0 .. ``deals`` - 1, each played twice (our bot on 0+2, then on 1+3), summed."""
    total = Tally()
    for tally in run_chunks(deals, choose_factory, workers, shared, chunk):
        total.add(tally)
    return total


# ------------------------------------------------------------------------------ report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals, two hands each (2000)")
    parser.add_argument(
        "--level", default="strategist", help="our bot's level (default strategist)"
    )
    parser.add_argument(
        "--package-player",
        default=None,
        metavar="NAME",
        help="instead of our bot, the dominoes package's own player NAME (random, double, "
        "bota_gorda, ...) in its game alone, for reference",
    )
    think = parser.add_mutually_exclusive_group()
    think.add_argument(
        "--budget-ms", type=float, default=None, help="the expert's thinking time a move"
    )
    think.add_argument("--samples", type=int, default=None, help="the expert's worlds a move")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    add_common_arguments(parser)
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/duel.py", tree)
    try:
        import dominoes
    except ImportError:
        raise SystemExit("dominoes 6.1.0 is not installed: pip install -e '.[bench]'") from None

    levels = importlib.import_module("domino.engine").LEVELS
    if args.level not in levels:
        parser.error(f"--level must be one of {', '.join(levels)} (this tree's levels)")
    factory: Callable[[], Choose | str] = LevelChooser(args.level, args.samples, args.budget_ms)
    ours = f"our {args.level} pair"
    if args.package_player is not None:
        if not callable(getattr(dominoes.players, args.package_player, None)):
            parser.error(f"dominoes.players has no player {args.package_player}")
        factory = PackagePlayer(args.package_player)
        ours = f"dominoes' own {args.package_player} pair (no mirror, for reference)"

    print(
        f"\n{ours} against dominoes {getattr(dominoes, '__version__', '6.1.0')}'s "
        f"bota_gorda pair in its own game (4 players, 7 tiles each, 6-6 opens); {args.deals} "
        f"deals (random.Random(k), k = 0-{args.deals - 1}), each played twice with the pairs' "
        f"seats swapped: {2 * args.deals} hands; every decision seeded from (deal, seating, "
        f"ply); {args.workers} process{'es' if args.workers > 1 else ''}",
        flush=True,
    )
    tally = run(args.deals, factory, args.workers, str(tree.shared))
    low, high = tally.interval()
    never, once, twice = tally.deals_won
    p50 = percentile(tally.times, 0.5)
    p99 = percentile(tally.times, 0.99)
    print(
        f"\nhands won by our side: {tally.wins} of {tally.hands} = {tally.win_rate():.1%} "
        f"(95 % Wilson {low:.1%}-{high:.1%}); bota_gorda won {tally.losses}, "
        f"{tally.ties} tied\n"
        f"points share: {tally.points_share():.1%} ({tally.points} of "
        f"{tally.points + tally.points_against})\n"
        f"deals won twice/once/never: {twice}/{once}/{never}; closed hands {tally.closed}; "
        f"{tally.plies / tally.hands:.1f} plies a hand"
    )
    if tally.times:
        print(
            f"our bot: {len(tally.times)} decisions, p50 {p50 * 1000:.3f} ms, "
            f"p99 {p99 * 1000:.3f} ms a move"
        )
    print(f"CPU {tally.cpu:.0f} s in the workers")
    write_json(
        args.json,
        {
            "level": args.level,
            "package_player": args.package_player,
            "deals": args.deals,
            **tally.figures(),
            "our_wins": tally.wins,
            "their_wins": tally.losses,
            "ties": tally.ties,
            "decisions": len(tally.times),
            "ms_per_move_p50": p50 * 1000,
            "ms_per_move_p99": p99 * 1000,
            "wall_seconds": time.perf_counter() - started,
        },
    )
    footer(started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
