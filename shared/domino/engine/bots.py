"""Computer players. ``choose_move(match, seat, level, seed)`` returns the move for ``seat``.

A bot sees what its seat sees and nothing more: it reads ``views.view(match, seat)`` (its own
hand, the board, the counts of other hands and of the boneyard) and ``movelog.moves(match, seat)``
(the log, with other seats' drawn tiles redacted). It never reads another hand or the boneyard
order. Given the same state and ``seed`` the choice is always the same (without a seed one is
derived from the state).

Levels:
- ``random``: any legal play, else draw, else pass.
- ``greedy``: the heaviest playable tile (pip sum, then the higher half), else draw, else pass.
- ``strategist``: the seeds' advice (S0): keep a suit you hold 4+ of open at both ends, make
  opponents draw (play numbers they are known to lack: a seat that passed or drew on an open end
  holds none of its numbers), avoid feeding numbers only your partner lacks, shed heavy tiles when
  the hand may close or is late, play doubles early, and keep a follow-up play for yourself.
  Where the rules score during play (All Fives), the points a play makes come first, less what
  the best unseen tile could make right after it.

Where the rules score during play, ``greedy`` takes the play that scores most, then the
heaviest. On a trains layout (Mexican Train) the strategist plays the trains' own advice
(``_trains_move``): satisfy a double, lay a double only with a tile to follow it, take the marker
off the own train, shed heavy tiles on other trains before one's own; the expert searches with
that advice as its rollouts (``expert_trains``).
"""

from __future__ import annotations

import random

from . import fives
from .errors import GameNotInProgress, InvalidInput, NotYourTurn
from .expert import DEFAULT_BUDGET_MS, expert_move
from .expert_trains import expert_move as trains_expert_move
from .match import Match
from .movelog import moves
from .moves import DRAW, PASS, Move, Play
from .tiles import HEAVY_KEY, HIGH, LOW, PIPS, SUIT, parse_tile, set_size
from .views import MatchView, view

LEVELS = ("random", "greedy", "strategist", "expert")
#: the level of a game's bots when the game does not say (``bot_level``)
DEFAULT_LEVEL = "expert"


def choose_move(
    match: Match,
    seat: int,
    level: str,
    seed: int | None = None,
    *,
    samples: int | None = None,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
) -> Move:
    """The move ``seat`` makes now at ``level`` (``random``, ``greedy``, ``strategist``,
    ``expert``). ``samples`` and ``budget_ms`` are the expert's (``expert.expert_move``)."""
    if level not in LEVELS:
        raise InvalidInput("bot_level must be one of: {allowed}.", allowed=list(LEVELS))
    if match.status != "playing":
        raise GameNotInProgress("The game is not in progress.")
    if match.turn != seat:
        raise NotYourTurn("It is seat {seat}'s turn.", seat=match.turn)
    rng = random.Random(
        seed if seed is not None else f"bot:{match.hand_number}:{match.next_n}:{seat}"
    )
    if match.trains is not None and level == "expert":
        return trains_expert_move(match, seat, rng, samples=samples, budget_ms=budget_ms)
    if match.trains is not None and level == "strategist":
        legal_plays = match.legal_moves()
        if not legal_plays:
            return DRAW if match.can_draw() else PASS
        return _trains_move(match, seat, legal_plays, rng)
    if level == "expert":  # it reads its seat's knowledge itself (expert.observe), not the view
        return expert_move(match, seat, rng, samples=samples, budget_ms=budget_ms)
    seen = view(match, seat)
    you = seen["you"]
    top = match.rules.set
    legal = [Play(parse_tile(p["tile"], top), p["end"]) for p in you["legal"]]
    if not legal:
        return DRAW if you["can_draw"] else PASS
    if level == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    if level == "greedy":
        scores = [p.get("scores", 0) for p in you["legal"]]
        key = [(s, HEAVY_KEY[p.tile.id]) for s, p in zip(scores, legal, strict=True)]
        return legal[key.index(max(key))]
    return _strategist(match, seat, seen, legal, rng)


def _voids(match: Match, seat: int, seen: MatchView) -> dict[int, set[int]]:
    """Numbers each other seat is known not to hold, from this hand's public log."""
    layout = match.layout  # the board replayed from the log, for the open numbers at each move
    ends, arm_len = layout.empty()
    open_arms: tuple[int, ...] = ()
    arms = layout.index
    top = match.rules.set
    voids: dict[int, set[int]] = {s: set() for s in range(match.players) if s != seat}
    for rec in moves(match, seat):
        if rec["hand_number"] != seen["hand_number"]:
            continue
        action = rec.get("move", rec["action"])
        who = rec["seat"]
        if action == "play":
            tid = parse_tile(rec["tile"], top).id
            end = rec["end"]
            arm = -1 if end is None else arms[end]
            open_arms = layout.lay(ends, arm_len, tid, arm)
        elif action in ("draw", "pass") and who is not None and who != seat and open_arms:
            open_numbers = {ends[a] for a in open_arms}
            if action == "draw":
                voids[who] = open_numbers
            else:
                voids[who] |= open_numbers
    return voids


def _strategist(
    match: Match, seat: int, seen: MatchView, legal: list[Play], rng: random.Random
) -> Move:
    rules = match.rules
    top = rules.set
    n = match.players
    mine = [parse_tile(t, top).id for t in seen["you"]["hand"]]
    on_board = {parse_tile(t["tile"], top).id for t in seen["board"]["tiles"]}
    unknown = [t for t in range(set_size(top)) if t not in on_board and t not in mine]
    count = [0] * (top + 1)
    for t in mine:
        count[LOW[t]] += 1
        if HIGH[t] != LOW[t]:
            count[HIGH[t]] += 1
    unseen = [0] * (top + 1)
    for t in unknown:
        unseen[LOW[t]] += 1
        if HIGH[t] != LOW[t]:
            unseen[HIGH[t]] += 1
    voids = _voids(match, seat, seen)
    step = 1 if rules.direction == "clockwise" else n - 1
    nxt = (seat + step) % n
    partner = (seat + 2) % 4 if rules.teams == "pairs" else None
    others = [s["tiles"] for s in seen["seat_stats"] if s["seat"] != seat]
    late = len(mine) <= 3 or min(others) <= 2 or (seen["drawable"] == 0 and len(mine) <= 5)
    heavy_weight = 1.5 if late else 0.3
    board_ends = {e["end"]: e["pips"] for e in seen["board"]["ends"]}

    best: list[Play] = []
    best_score = -1e9
    for play in legal:
        t = play.tile.id
        after = list(count)
        after[LOW[t]] -= 1
        if HIGH[t] != LOW[t]:
            after[HIGH[t]] -= 1
        if play.end is None:
            exposed = [LOW[t], HIGH[t]]
            ends_after = list(exposed)
        else:
            p = board_ends[play.end]
            new = HIGH[t] if LOW[t] == p else LOW[t]
            exposed = [new]
            ends_after = [v for k, v in board_ends.items() if k != play.end] + [new]
        score = heavy_weight * PIPS[t]
        if LOW[t] == HIGH[t]:
            score += 2.0
        for x in exposed:
            if after[x] >= 1:
                score += 1.5 * min(after[x], 3)
            if count[x] >= 4:
                score += 3.0
            if x in voids.get(nxt, ()) and nxt != partner:
                score += 4.0
            for s, numbers in voids.items():
                if s in (nxt, partner):
                    continue
                if x in numbers:
                    score += 1.5
            if partner is not None and x in voids.get(partner, ()):
                score -= 2.5
            if unseen[x] == 0 and after[x] >= 1:
                score += 2.0
        if ends_after and len(set(ends_after)) == 1 and count[ends_after[0]] >= 4:
            score += 4.0
        if not any(after[x] for x in set(ends_after)) and len(mine) > 1:
            score -= 3.0
        if match.count is not None:  # points now, less the best reply an unseen tile has
            score += _fives_value(match, play, unknown)
        if score > best_score + 1e-9:
            best, best_score = [play], score
        elif abs(score - best_score) <= 1e-9:
            best.append(play)
    return best[rng.randrange(len(best))]


def _trains_move(match: Match, seat: int, legal: list[Play], rng: random.Random) -> Move:
    """The trains' advice: a double only with a tile to follow it (a double left unsatisfied
    opens the way for the others), the marker off one's own train, heavy tiles first, and the
    others' trains and the Mexican before one's own, which only its owner can play."""
    trains = match.trains
    assert trains is not None
    hand = match.hands[seat]
    best: list[Play] = []
    best_score = -1e9
    for play in legal:
        t = play.tile.id
        arm = match.layout.index[str(play.end)]
        rest = hand & ~(1 << t)
        score = float(PIPS[t])
        if LOW[t] == HIGH[t]:
            score += 8.0 if rest & SUIT[LOW[t]] else -6.0
        if arm == seat:
            score += 5.0 if trains.marked >> seat & 1 else -1.0
        if score > best_score + 1e-9:
            best, best_score = [play], score
        elif abs(score - best_score) <= 1e-9:
            best.append(play)
    return best[rng.randrange(len(best))]


def _fives_value(match: Match, play: Play, unknown: list[int]) -> float:
    """What a play is worth in points where the rules score during play: what it makes now,
    less most of what the best unseen tile could make right after it."""
    count = match.count
    assert count is not None
    layout = match.layout
    tid = play.tile.id
    arm = -1 if play.end is None else layout.index[play.end]
    now = fives.scored(fives.after_play(layout, match.ends, match.arm_len, count, tid, arm))
    unseen = sum(1 << t for t in unknown)
    reply = fives.threat(layout, match.ends, match.arm_len, count, tid, arm, unseen)
    return 2.0 * now - 1.2 * reply


__all__ = ["DEFAULT_LEVEL", "LEVELS", "choose_move"]
