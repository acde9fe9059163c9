"""A finished match's analysis: for every decision a person made with a real choice, the expert's
value of each choice from what that seat knew then.

The match is played again from its deals and moves (``replay``); before each move a person chose
(a play of their own or a pre-move's reply: not a forced move, a timeout, a bot's move after they
left), the expert thinks from the replayed match as the seat saw it (``expert.think``, which
reads the seat's knowledge through ``observe``: its own hand, the board, the public log; never
another hand, though the record now shows them) on a fixed number of worlds dealt from a seed of
the match and the move, so the analysis is the same however often it runs. A choice is a play,
``TILE`` or ``TILE:END`` (the two ends of a line that show one number are one choice).

Budget: ``WORLDS`` worlds a decision, at most ``MAX_DECISIONS`` decisions a match (the first
ones; ``Analysis.skipped`` counts the rest).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import expert, expert_trains
from .match import Match
from .moves import Play
from .replay import make, replay
from .rules import Ruleset
from .tiles import MAX_TOP, TEXT, parse_tile

#: worlds the expert deals for each decision, and the decisions of a match it looks at
WORLDS = 100
MAX_DECISIONS = 400


@dataclass(frozen=True)
class Decision:
    n: int
    seat: int
    played: str
    best: str
    values: dict[str, float]

    @property
    def lost(self) -> float:
        return self.values[self.best] - self.values[self.played]


@dataclass
class Analysis:
    decisions: list[Decision] = field(default_factory=list)
    skipped: int = 0  # decisions past MAX_DECISIONS, not analysed


def choice(play: Play, candidates: list[Play]) -> str:
    """``TILE`` when the tile is one choice, else ``TILE:END``."""
    same_tile = [p for p in candidates if p.tile.id == play.tile.id]
    text = TEXT[play.tile.id]
    return text if len(same_tile) <= 1 or play.end is None else f"{text}:{play.end}"


def _chosen(record: Mapping[str, Any], candidates: list[Play]) -> Play | None:
    """The candidate the record's play is (a mirrored end of a line is the same candidate)."""
    tile = parse_tile(str(record.get("tile")), MAX_TOP).id
    same = [p for p in candidates if p.tile.id == tile]
    exact = [p for p in same if p.end == record.get("end")]
    found = exact or same
    return found[0] if found else None


def analyse(
    rules: Ruleset,
    records: Iterable[Mapping[str, Any]],
    *,
    seed: int,
    people: set[int],
    first: dict[str, Any] | None = None,
    at: int = 0,
    worlds: int = WORLDS,
    max_decisions: int = MAX_DECISIONS,
) -> Analysis:
    """The decisions of the seats in ``people`` (a person sat there from the deal) with a real
    choice, each valued by the expert from that seat's knowledge at the time."""
    m = replay(rules, [], seed=seed, deals={}, first=first, at=at)
    out = Analysis()
    gone: set[int] = set()  # seats whose person left: a bot chose for them since
    for record in records:
        seat = record.get("seat")
        action = record["action"]
        if seat is not None and (
            action == "leave" or (action == "timeout" and record.get("forfeit"))
        ):
            gone.add(seat)
        chose = (
            action == "play"
            and not record.get("auto")
            and seat in people
            and seat not in gone
            and m.status == "playing"
        )
        if chose:
            decision = _decide(m, record, seed, worlds)
            if decision is not None:
                if len(out.decisions) < max_decisions:
                    out.decisions.append(decision)
                else:
                    out.skipped += 1
        make(m, record)
    return out


def _decide(m: Match, record: Mapping[str, Any], seed: int, worlds: int) -> Decision | None:
    seat = int(record["seat"])
    think = expert_trains.think if m.trains is not None else expert.think
    rng = random.Random(f"analysis:{seed}:{record['n']}")
    thought = think(m, seat, rng, samples=worlds)
    if len(thought.values) < 2:
        return None  # one thing to do: no choice
    candidates = [play for play, _ in thought.values]
    played = _chosen(record, candidates)
    if played is None:
        return None
    values = {choice(play, candidates): round(value, 2) for play, value in thought.values}
    best = max(values, key=values.__getitem__)
    return Decision(int(record["n"]), seat, choice(played, candidates), best, values)


__all__ = ["MAX_DECISIONS", "WORLDS", "Analysis", "Decision", "analyse"]
