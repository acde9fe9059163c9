"""Correspondence comfort: how many moves a person has to make in a two-player correspondence
match, and how many the server makes for them with forced moves on (``PATCH /me
{"auto_forced": true}``) and with one conditional pre-move line a turn (``PUT
/games/{id}/premoves``).

    python bench/comfort.py [--matches N] [--tree PATH] [--json FILE]

Per preset that two people play: ``--matches`` whole matches (default 200) of two people who
choose as the strategist does. Each turn of a person counts once (a turn of several moves, as
Mexican Train's doubles make, counts each move). A turn is forced when it offers exactly one
thing to do (``engine.forced.only_move``): the write path then makes it for a player who asked
(``writes.run_bots`` calls ``Match.apply_forced``, the same code path measured here). It prints,
per person and match, the moves made, the forced ones among them, and what is left to make by
hand: the moves a person must make with and without the setting.

Pre-moves: while the other player is on turn, each person stores one line, as a careful person
would: they imagine the other's hand (a world dealt from what their seat knows, as the expert
deals them), guess the other's moves until their own turn (what the strategist would play in
that world) and their own reply (the strategist's, a play). When the guess was right and the
reply is legal, the server plays it (``engine.premoves.reply`` and ``Match.apply_premove``, as
the write path does). Counted on top of forced moves (both on).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _tree import add_common_arguments, banner, footer, use_tree, write_json

#: the presets two people play, measured
PRESETS = ("dos-jugadores", "ida-y-vuelta", "all-fives", "muggins", "tren-mexicano")


def play_match(pid: str, seed: int) -> tuple[int, int, int]:
    """One match of two strategist people, forced moves made by ``apply_forced`` and one
    pre-move line a turn: (moves the people made, of which forced, of which pre-moves), over
    both seats."""
    import random

    from domino.engine import Match, choose_move, only_move, resolve_rules
    from domino.engine.premoves import reply

    match = Match.start(resolve_rules(pid, 2), seed=seed, at=0)
    rng = random.Random(seed)
    moves = forced = premoved = 0
    lines: list[list[dict[str, Any]]] = [[], []]  # each seat's stored line, and when
    stored_after = [0, 0]
    k = 0
    while match.status == "playing":
        seat = match.turn
        assert seat is not None
        other = 1 - seat
        if not lines[other]:  # the other person, waiting, stores a line for this turn
            lines[other] = guess_line(match, other, rng, k)
            stored_after[other] = match.next_n - 1
        moves += 1
        if lines[seat] and match.moves(seat, stored_after[seat]):
            made = match.moves(seat, stored_after[seat])
            play = reply(lines[seat], made, match.legal_moves())
            lines[seat] = []
            if play is not None:
                premoved += 1
                match.apply_premove(seat, play, k)
                k += 1
                continue
        if only_move(match) is not None:
            forced += 1
            match.apply_forced(seat, k)
        else:
            match.apply(seat, choose_move(match, seat, "strategist", seed=k), k)
        k += 1
    return moves, forced, premoved


def guess_line(match: Any, person: int, rng: Any, k: int) -> list[dict[str, Any]]:
    """The line ``person`` stores while the other is on turn: the other's moves until
    ``person``'s turn and ``person``'s reply, in a world dealt from what ``person`` knows."""
    from domino.engine import Play, choose_move
    from domino.engine import expert as ex
    from domino.engine import expert_trains as ext
    from domino.engine.tiles import bits

    know = (ext.observe if match.trains is not None else ex.observe)(match, person)
    hands, boneyard = know.sample(rng)
    world = match.copy()
    world.hands, world.boneyard = list(hands), list(boneyard)
    lead = world.forced
    if lead >= 0 and not world.open_arms and world.turn is not None:
        # the other must lead ``lead``: so they hold it (a world gives it to them)
        opener = world.turn
        if not world.hands[opener] >> lead & 1:
            given = rng.choice(bits(world.hands[opener]))
            where = world.boneyard.index(lead)
            world.boneyard[where] = given
            world.hands[opener] ^= (1 << given) | (1 << lead)
    after = world.next_n - 1
    number = world.hand_number
    for step in range(12):
        if world.status != "playing" or world.hand_number != number or world.turn is None:
            return []
        if world.turn == person:
            break
        world.apply(world.turn, choose_move(world, world.turn, "strategist", seed=k + step), 0)
    else:
        return []
    condition = [
        {"seat": m["seat"], "action": m["action"]}
        | ({"tile": m["tile"], "end": m.get("end")} if m["action"] == "play" else {})
        for m in world.moves(person, after)
    ]
    if not condition:
        return []
    mine = choose_move(world, person, "strategist", seed=k)
    if not isinstance(mine, Play):
        return []
    then = {"tile": str(mine.tile)} | ({"end": mine.end} if mine.end else {})
    return [{"if": condition, "then": then}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    banner("bench/comfort.py", tree)
    started = time.perf_counter()
    print(
        f"\n{args.matches} matches a preset, 2 people (strategist choices); per person and "
        "match, median (mean)"
    )
    print(
        f"{'preset':16} {'moves':>14} {'forced':>14} {'pre-moves':>14} {'by hand':>14} {'saved':>7}"
    )
    figures: dict[str, Any] = {}
    for pid in PRESETS:
        per_person = [play_match(pid, seed) for seed in range(args.matches)]
        moves = [m / 2 for m, _, _ in per_person]
        forced = [f / 2 for _, f, _ in per_person]
        premoved = [p / 2 for _, _, p in per_person]
        by_hand = [m - f - p for m, f, p in zip(moves, forced, premoved, strict=True)]
        saved = (sum(forced) + sum(premoved)) / sum(moves)
        figures[pid] = {
            "moves": statistics.mean(moves),
            "forced": statistics.mean(forced),
            "premoved": statistics.mean(premoved),
            "by_hand": statistics.mean(by_hand),
            "saved_share": saved,
        }
        print(
            f"{pid:16} {_cell(moves):>14} {_cell(forced):>14} {_cell(premoved):>14} "
            f"{_cell(by_hand):>14} {saved:>6.1%}"
        )
    print(
        "\nmoves: every move a person makes in the match; forced: those with one thing to do,"
        " which the server makes at once with auto_forced on; pre-moves: those a stored line"
        " (one a turn) played; by hand: what is left to them"
    )
    write_json(args.json, figures)
    footer(started)


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({statistics.mean(values):.1f})"


if __name__ == "__main__":
    main()
