"""Writes docs/rules.md from the engine's own preset table and ruleset fields.

    .venv/bin/python docs/gen_rules.py           # print the page
    .venv/bin/python docs/gen_rules.py --write   # rewrite docs/rules.md
    .venv/bin/python docs/gen_rules.py --check   # exit 1 when docs/rules.md is out of date

Every preset section, the field table and the per-preset settings are built from
``domino.engine.PRESETS`` (``Preset.describe()``, the ``GET /rules`` entry), ``rules.CHOICES``,
``rules.FIELD_NAMES`` and the layouts' end names; the prose on the points the rule texts leave
open is written here, once, and says what the engine does. A choice value or a field the page
does not describe stops the generator (``KeyError``), so a new one cannot go undocumented.
tests/test_docs.py keeps docs/rules.md equal to this output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domino.engine import ARM_NAMES, PRESETS, full_set
from domino.engine.rules import CHOICES, EXTENSIONS, FIELD_NAMES, UNIT
from domino.engine.tiles import HEAVY_KEY, SETS

PAGE = Path(__file__).resolve().parent / "rules.md"
COMMAND = ".venv/bin/python docs/gen_rules.py --write"
DASH = "\u2013"  # an en dash, for a range of player counts

#: the seed texts a preset's ``source`` names
SOURCES = {
    "S0": "a general Spanish rule text (three to five players) with seven variants",
    "S1": "an overview of the game and its sets",
    "S2": "the rules of Dominó Multicolor Plus",
    "S3": "a text on the two-player game",
    "S4": "the rules of the Buho21 online site",
    "P-CU": "pagat.com's Cuban Dominoes (players, deal and lead), with the scoring most Cuban "
    "rule texts share",
    "P-AF": "pagat.com's All Fives (J. McLeod), the American game of scoring during play",
    "MT-IG": "a Good Sam chapter's Mexican Train rules (idahogoodsam.org), the chosen text for "
    "the hands and the flow of play",
}

#: what every value of every choice field means (a missing value is a KeyError)
MEANING: dict[str, dict[str | None, str]] = {
    "draw": {
        "until_playable": "with no tile that fits, draw one tile at a time until one does, "
        "then play it in the same turn",
        "one_then_pass": "with no tile that fits, draw one tile, and the turn ends there, "
        "even if that tile would fit",
        "none": "nobody draws: the tiles not dealt stay face down and out of play",
        "one_then_play": "with no legal play, draw one tile: if it plays it must be laid now, "
        "else the turn ends and your train is marked",
    },
    "direction": {
        "clockwise": "after seat s comes seat s + 1 (0, 1, 2, ...)",
        "counterclockwise": "after seat s comes seat s - 1 (0, n-1, n-2, ...)",
    },
    "opening": {
        "highest_double": "the holder of the highest double leads it",
        "double_six": "the holder of 6-6 leads it, else the holder of the highest double",
        "lot": "a seat drawn by lot leads, with any tile",
        "required_double": "the holder of the set's top double (9-9 in double-nine) leads it",
        "pair_lot": "a seat drawn by lot is offered the lead: it leads any tile or cedes the "
        "lead, once, to its partner, who must lead",
        "engine": "the round's engine double (12-12, then 11-11, ... 0-0) is set in the station "
        "by its holder, who plays first; nobody holding it, every seat draws until one does",
    },
    "no_double": {
        "heaviest": "the holder of the heaviest tile leads it",
        "reshuffle": "all tiles are shuffled and dealt again",
    },
    "next_round": {
        "previous_winner": "the last hand's winner leads any tile; after a hand nobody won, "
        "the first hand's rule applies",
        "same_as_first": "every hand is opened by the first hand's rule, forced lead included",
        "winning_pair": "the pair that won the last hand leads, its winning seat offered the "
        "lead (it may cede it); after a hand nobody won, the seat after the last opener is",
        "domino_winner": "the seat that went out leads any tile; after a closed hand, the "
        "first hand's rule (the lot) draws again",
    },
    "layout": {
        "line": "a line with two ends, `left` and `right`",
        "cross": "the opening double opens four arms, all covered before any arm grows longer",
        "star": "the opening double opens four sides, then four diagonals once every side is "
        "covered",
        "spinner": "a line whose first double (the spinner) opens `north` and `south` once both "
        "its sides touch a tile",
        "trains": "a station with the engine, one train per seat and the Mexican train",
    },
    "teams": {
        None: "everyone plays for themselves",
        "pairs": "two pairs, seats 0 and 2 against seats 1 and 3",
    },
    "out_scoring": {
        "opponents": "the winner (or winning pair) scores the opponents' pips",
        "all_others": "the winner's side scores the pips of every other hand, partner included",
        "penalty": "everyone else adds their own pips to their own total; the winner adds 0",
        "win": "the winner (or winning pair) scores 1",
    },
    "block_scoring": {
        "difference": "the winner scores, for each opponent, that opponent's pips minus their own",
        "opponents": "the winner (or winning pair) scores the opponents' pips",
        "all_hands": "the winner's side scores every pip left in every hand, their own included",
        "penalty": "everyone else adds their own pips to their own total; the winner adds 0",
        "win": "the winner (or winning pair) scores 1",
        "own_pips": "every player adds the pips left in their own hand, the lowest too",
    },
    "block_winner": {
        "lowest_player": "the seat with the fewest pips wins (with pairs, for its pair)",
        "lowest_team": "the pair whose two hands hold the fewest pips wins (no pairs: the "
        "lowest seat)",
    },
    "tie": {
        "play_order": "equal lowest hands: the tied seat that comes first in play order from "
        "the hand's opener wins",
        "none": "equal lowest hands of different sides: nobody wins the hand",
        "split": "equal lowest hands of different sides: nobody scores, except two of three "
        "single seats tied below the third, who share its hand",
    },
    "match": {
        "single": "one hand is the whole match",
        "target": "hands are played until a side's total reaches `target`",
        "rounds": "exactly `rounds` hands are played",
    },
    "in_play": {
        None: "points are scored only when a hand ends",
        "fives": "after every tile the open ends are counted; a count that is a multiple of 5 "
        "scores that many points at once",
    },
    "target_check": {
        "hand_end": "the target is looked at after each hand",
        "every_score": "the target is looked at after every score, one made during play too: "
        "the match may end in the middle of a hand",
    },
}

#: the fields that are not choice fields: their values and meaning
OTHER_FIELDS: dict[str, tuple[str, str]] = {
    "set": ("6, 9, 12, 15", "the highest pip: double-six, double-nine, ..."),
    "players": ("the preset's range", "seats at the table"),
    "hand_size": ("per player count", "tiles dealt to each player"),
    "reserve": (
        "per player count",
        "tiles that stay face down in the boneyard and are never drawn",
    ),
    "target": (
        "points, or null; or per player count",
        "the total that ends a `target` match",
    ),
    "rounds": ("hands, or null", "how many hands a `rounds` match has"),
    "unit": ("1, 10", "points counted one by one, or in tens rounded half up"),
    "stake": (
        "chips, or null",
        "what every player pays into the pot at each deal (null: no pot)",
    ),
    "redeal_doubles": (
        "doubles, or null",
        "a deal where a hand holds this many doubles or more is dealt again (null: never)",
    ),
    "round_to": (
        "5, or null",
        "the hand-end award is rounded once, after adding, to the nearest multiple (null: as "
        "it is)",
    ),
}

SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve", 15: "double-fifteen"}


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def code(value: Any) -> str:
    return "`null`" if value is None else f"`{value}`"


def per_count(value: Any) -> dict[int, Any]:
    """A count-dependent field as {players: value} (a plain value: the same for every count)."""
    assert isinstance(value, dict)
    return {int(k): v for k, v in value.items()}


def counts_text(values: dict[int, Any], unit: Callable[[Any], str]) -> str:
    """``3 or 4 players: 6 tiles; 5 players: 5 tiles`` (equal neighbours grouped)."""
    groups: list[tuple[list[int], Any]] = []
    for n, v in sorted(values.items()):
        if groups and groups[-1][1] == v and groups[-1][0][-1] == n - 1:
            groups[-1][0].append(n)
        else:
            groups.append(([n], v))
    if len(groups) == 1:
        return unit(groups[0][1])
    parts = []
    for ns, v in groups:
        if len(ns) == 1:
            who = f"{ns[0]}"
        elif len(ns) == 2:
            who = f"{ns[0]} or {ns[1]}"
        else:
            who = f"{ns[0]} to {ns[-1]}"
        parts.append(f"{who} players: {unit(v)}")
    return "; ".join(parts)


def paired(r: dict[str, Any]) -> bool:
    """Whether the preset plays in pairs (at the player count that allows them)."""
    teams = r["teams"]
    return "pairs" in teams.values() if isinstance(teams, dict) else teams == "pairs"


def teams_text(r: dict[str, Any]) -> str:
    teams = r["teams"]
    if isinstance(teams, dict):
        counts = [int(k) for k, v in teams.items() if v == "pairs"]
        if not counts:
            return ""
        return f"; with {counts[0]}, in two pairs (seats 0 and 2 against 1 and 3)"
    return " in two pairs (seats 0 and 2 against 1 and 3)" if teams == "pairs" else ""


def target_text(r: dict[str, Any]) -> str:
    """The target: one number, or the numbers per player count."""
    target = r["target"]
    if not isinstance(target, dict):
        return f"{target} points"
    groups: list[tuple[list[int], int]] = []
    for n, t in sorted(per_count(target).items()):
        if groups and groups[-1][1] == t:
            groups[-1][0].append(n)
        else:
            groups.append(([n], t))
    parts = [
        f"{t}{' points' if i == 0 else ''} with {' or '.join(map(str, ns))}"
        + (" players" if i == 0 else "")
        for i, (ns, t) in enumerate(groups)
    ]
    return ", ".join(parts)


def players_text(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo} players"
    return f"{lo} to {hi} players"


def pip(n: int) -> str:
    return f"{n} pip" if n == 1 else f"{n} pips"


def tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def heaviest_order(top: int, count: int) -> str:
    """The first ``count`` non-doubles of double-``top`` in the engine's heaviest order."""
    singles = [t for t in full_set(top) if t.a != t.b]
    singles.sort(key=lambda t: HEAVY_KEY[t.id], reverse=True)
    return ", ".join(str(t) for t in singles[:count])


# ------------------------------------------------------------ one preset, as a player reads it


def deal_lines(entry: dict[str, Any]) -> list[str]:
    r = entry["rules"]
    top = r["set"]
    total = len(full_set(top))
    hands = per_count(r["hand_size"])
    reserve = per_count(r["reserve"])
    lines = [f"{SET_NAMES.get(top, f'double-{top}')} ({total} tiles)."]
    dealt = counts_text(hands, lambda h: f"{tiles(h)} each")
    lines.append(f"Deal: {dealt}.")
    left = {n: total - n * h for n, h in hands.items()}
    if all(k == 0 for k in left.values()):
        lines.append(f"All {total} tiles are dealt.")
    elif r["draw"] == "none":
        lines.append("Left over, face down and out of play: " + counts_text(left, tiles) + ".")
    else:
        lines.append("Boneyard: " + counts_text(left, tiles) + ".")
        if any(reserve.values()):
            lines.append(
                "Reserve, never drawn and face down to the end: "
                + counts_text(reserve, tiles)
                + "."
            )
    if r["draw"] == "none":
        lines.append("Nobody draws.")
    return lines


def opening_lines(entry: dict[str, Any]) -> list[str]:
    r = entry["rules"]
    top = r["set"]
    total = len(full_set(top))
    opening = r["opening"]
    lines = []
    if opening == "highest_double":
        lead = f"The player holding the highest double ({top}-{top}, else {top - 1}-{top - 1}, "
        lead += "and so on down to 0-0) leads it."
    elif opening == "double_six":
        lead = "The player holding 6-6 leads it; without one, the highest double leads."
    elif opening == "required_double":
        lead = f"The player holding {top}-{top} leads it."
    elif opening == "pair_lot":
        lead = (
            "A seat drawn by lot is offered the lead: it leads any tile, or cedes the lead to "
            "its partner (once, before any tile), who must then lead."
        )
    elif opening == "engine":
        lead = (
            "The holder of the round's engine (12-12 in round 1, 11-11 in round 2, ... 0-0 in "
            "round 13) sets it in the station, part of the deal, and plays first. When nobody "
            "holds it, every seat in play order from seat 0 draws a tile from the boneyard, pass "
            "after pass; after the pass in which it was drawn, its drawer sets it."
        )
    else:
        lead = "A seat drawn by lot leads, with any tile it likes."
    lines.append(f"First hand: {lead[0].lower()}{lead[1:]}")
    if r.get("redeal_doubles") is not None:
        lines.append(
            f"A deal where any hand holds {r['redeal_doubles']} doubles or more is thrown in "
            "and dealt again, the lot kept."
        )
    wanted = 1 if opening == "required_double" else top + 1
    undealt = max(total - n * h for n, h in per_count(r["hand_size"]).items())
    if opening not in ("lot", "pair_lot", "engine") and undealt >= wanted:
        if r["no_double"] == "heaviest":
            order = heaviest_order(top, 4)
            lines.append(
                "If no hand holds one, the holder of the heaviest tile leads it "
                f"(most pips, ties to the higher half: {order}, ...)."
            )
        else:
            lines.append("If no hand holds one, all tiles are shuffled and dealt again.")
    if r["match"] != "single":
        if r["next_round"] == "previous_winner":
            lines.append(
                "Later hands: the winner of the last hand leads, with any tile"
                + (
                    " (the seat that went out, or the pair's lowest hand)"
                    if r["teams"] == "pairs"
                    else ""
                )
                + "; after a hand nobody won, as in the first hand."
            )
        elif opening == "engine":
            lines.append("Later rounds: opened the same way, with the next engine down.")
        elif r["next_round"] == "domino_winner":
            lines.append(
                "Later hands: the player who went out leads, with any tile; after a closed "
                "hand the lot draws the leader again."
            )
        elif r["next_round"] == "winning_pair":
            lines.append(
                "Later hands: the pair that won the last hand leads; the seat that went out (or "
                "held the lowest hand) is offered the lead and may cede it. After a hand nobody "
                "won, the seat after the last opener in play order is offered it."
            )
        else:
            lines.append("Later hands: opened exactly as the first.")
    return lines


def turn_lines(entry: dict[str, Any]) -> list[str]:
    r = entry["rules"]
    direction = "clockwise" if r["direction"] == "clockwise" else "counter-clockwise"
    lines = [f"Play goes {direction}: {MEANING['direction'][r['direction']]}."]
    draw = r["draw"]
    if draw == "until_playable":
        lines.append(
            "You must play a tile that fits if you have one. Without one, draw from the "
            "boneyard, one tile at a time, until a tile fits, and play it; when nothing more "
            "may be drawn, pass."
        )
    elif draw == "one_then_pass":
        lines.append(
            "You must play a tile that fits if you have one. Without one, draw a single tile: "
            "that ends your turn, even if the tile would fit. With nothing to draw, pass."
        )
    elif draw == "one_then_play":
        lines.append(
            "You must play if you can. With no legal play, draw one tile: if it plays you must "
            "lay it now; if not, your turn ends and your train is marked. With no legal play "
            "and no draw left (the boneyard empty, or you drew this turn), pass: your train is "
            "marked."
        )
    else:
        lines.append("You must play a tile that fits if you have one; without one, you pass.")
    layout = r["layout"]
    if layout == "line":
        lines.append("The tiles form a line with two open ends; a double lies across it.")
    elif layout == "cross":
        lines.append(
            "The opening double opens four arms (north, east, south, west). Until each of them "
            "holds a tile, only the empty arms take one; then every arm grows freely."
        )
    elif layout == "star":
        lines.append(
            "The opening double opens four sides (north, east, south, west); once each side "
            "holds a tile, the four diagonals open as well. A covered side may grow at any time."
        )
    elif layout == "spinner":
        lines.append(
            "The tiles form a line until a double is laid: the first double of the hand, led "
            "or not, is the spinner. Once both its sides touch a tile, `north` and `south` open "
            "on it as well; every open end may grow at any time. Later doubles open nothing."
        )
    elif layout == "trains":
        lines.append(
            "Each player has a train of their own (`train-0`, `train-1`, ...) and everyone "
            "shares the Mexican train (`mexican`), all starting at the station's engine. You "
            "may lay on your own train and the Mexican train always, on another player's train "
            "only while it carries a marker; the marker comes off when its owner lays a tile on "
            "it. After a double you play again: another double, or a tile on the oldest double "
            "nobody has satisfied yet, on whatever train it lies; while such a double waits, "
            "that is the only play (`must_satisfy_double`)."
        )
    if r.get("in_play") == "fives":
        lines.append(
            "After every tile the open ends are counted: each end counts the pips it shows, "
            "twice when the tile at that end is a double (a spinner with a free side is such a "
            "tile); `north` and `south` count 0 until their first tile; a board of one tile "
            "counts both its halves once. A count of 5, 10, ... 35 scores that many points at "
            "once for the player who laid the tile (for its pair)."
        )
    return lines


def who_wins_closed(r: dict[str, Any]) -> str:
    pairs = paired(r)
    if r["block_winner"] == "lowest_team" and isinstance(r["teams"], dict):
        winner = "the side with the fewest pips wins (a pair's two hands added together)"
    elif r["block_winner"] == "lowest_team" and pairs:
        winner = "the pair whose two hands hold the fewest pips wins"
    elif pairs:
        winner = "the seat with the fewest pips wins for its pair"
    else:
        winner = "the player with the fewest pips wins"
    if r["tie"] == "play_order":
        tie = "equal lowest: the one first in play order from the hand's opener"
    elif r["tie"] == "split":
        tie = (
            "equal lowest sides: nobody scores, except two of three players tied below the "
            "third, who each score 5 times a tenth of the third's pips rounded to 5, rounded down"
        )
    elif pairs:
        tie = "equal lowest in both pairs: nobody wins and nobody scores"
    else:
        tie = "equal lowest: nobody wins and nobody scores"
    return f"{winner} ({tie})"


def points_text(mode: str, r: dict[str, Any]) -> str:
    pairs = paired(r)
    side = (
        "the winning side"
        if isinstance(r["teams"], dict)
        else "the winning pair"
        if pairs
        else "the winner"
    )
    if mode == "opponents":
        return f"{side} scores the pips left in the opponents' hands"
    if mode == "all_others":
        return f"{side} scores the pips left in all other hands, the partner's included"
    if mode == "all_hands":
        return f"{side} scores every pip left in every hand, their own included"
    if mode == "difference":
        return (
            f"{side} scores, for each opponent, that opponent's pips minus the winning hand's "
            "(three players holding 15, 19 and 22: the 15 scores 4 + 7 = 11)"
        )
    if mode == "win":
        return f"{side} scores 1 point"
    if mode == "own_pips":
        return "every player adds the pips left in their own hand to their total, the lowest too"
    if mode == "penalty":
        return "every other player adds the pips left in their own hand to their own total; " + (
            "the winning pair adds 0" if pairs else "the winner adds 0"
        )
    raise KeyError(mode)


def scoring_lines(entry: dict[str, Any]) -> list[str]:
    r = entry["rules"]
    lines = [
        f"Going out (dominó): the player who lays their last tile wins the hand; "
        f"{points_text(r['out_scoring'], r)}.",
        "Closed hand (every player passed, one after another): "
        f"{who_wins_closed(r)}; {points_text(r['block_scoring'], r)}.",
    ]
    if r["unit"] == 10:
        lines.append("Points are counted in tens, rounded half up, hand by hand.")
    if r.get("round_to"):
        lines.append(
            f"The award is added up first and then rounded once to the nearest multiple of "
            f"{r['round_to']} (13 + 13 = 26 scores 25, not 15 + 15)."
        )
    if r["stake"] is not None:
        lines.append(
            f"Pot: at every deal each player pays {r['stake']} chip"
            + ("" if r["stake"] == 1 else "s")
            + " into the pot; the hand's winner takes it all, tied lowest hands split it, "
            "and what cannot be split stays for the next hand."
        )
    return lines


def match_text(r: dict[str, Any]) -> str:
    penalty = r["out_scoring"] == "penalty"
    unit = " (in tens)" if r["unit"] == 10 else ""
    if r["match"] == "single":
        if penalty:
            return "One hand: the lowest total wins."
        return "One hand: its winner wins the match; a hand nobody wins is a draw."
    if r["match"] == "rounds":
        if penalty:
            return (
                f"Exactly {r['rounds']} rounds: the lowest total wins; equal lowest totals share "
                "the win."
            )
        return f"Exactly {r['rounds']} hands: the highest total wins; equal totals are a draw."
    if penalty:
        return (
            f"Hands are played until someone's total reaches {r['target']}{unit}; "
            "then the lowest total wins (equal lowest share the win)."
        )
    side = "a pair" if r["teams"] == "pairs" else "someone"
    if r.get("target_check") == "every_score":
        who = "side" if paired(r) else "player"
        return (
            f"The first {who} to reach {target_text(r)}{unit} wins at once: the target is "
            "looked at after every score, one made during play too, so a match may end in the "
            "middle of a hand (reason `target`, no award for that hand)."
        )
    return (
        f"Hands are played until {side} reaches {target_text(r)}{unit}; "
        "the highest total then wins (equal totals share the win)."
    )


def mode_lines(entry: dict[str, Any]) -> list[str]:
    modes = entry.get("modes") or {}
    lines = []
    for name, overrides in modes.items():
        merged = dict(entry["rules"], **overrides)
        given = ", ".join(f"`{k}: {'null' if v is None else v}`" for k, v in overrides.items())
        lines.append(f"`{name}` ({given}): {match_text(merged)}")
    return lines


def preset_section(entry: dict[str, Any]) -> list[str]:
    pid = entry["id"]
    r = entry["rules"]
    players = players_text(entry["players"]["min"], entry["players"]["max"])
    teams = teams_text(r)
    preset = PRESETS[pid]
    out = [
        f"### {pid}",
        "",
        f"**{entry['name']}**, from text {entry['source']}. {preset.description}",
        "",
        f"- **Players**: {players}{teams}.",
        "- **Tiles**: " + " ".join(deal_lines(entry)),
        "- **Who leads**: " + " ".join(opening_lines(entry)),
        "- **A turn**: " + " ".join(turn_lines(entry)),
        "- **Scoring**: " + " ".join(scoring_lines(entry)),
        f"- **Match**: {match_text(r)}",
    ]
    modes = mode_lines(entry)
    if modes:
        out.append("- **Modes** (chosen at creation as `rules` overrides):")
        out += [f"  - {line}" for line in modes]
    out.append("")
    return out


# ------------------------------------------------------------------ tables


def cell(value: Any) -> str:
    if isinstance(value, dict):
        values = set(value.values())
        if len(values) == 1:
            return code(next(iter(values)))
        return " ".join(f"{k}p&nbsp;{v}" for k, v in value.items())
    return code(value)


def summary_table(entries: list[dict[str, Any]]) -> list[str]:
    out = [
        "| preset | name | text | players | tiles each | draw | going out | closed hand | match |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        r = e["rules"]
        lo, hi = e["players"]["min"], e["players"]["max"]
        players = f"{lo}" if lo == hi else f"{lo}{DASH}{hi}"
        if r["teams"] == "pairs":
            players += ", pairs"
        elif paired(r):
            players += ", pairs at 4"
        if r["match"] == "single":
            match = "one hand"
        elif r["match"] == "rounds":
            match = f"{r['rounds']} hands"
        else:
            match = f"to {cell(r['target'])}"
        out.append(
            f"| [`{e['id']}`](#{slug(e['id'])}) | {e['name']} | {e['source']} | {players} | "
            f"{cell(r['hand_size'])} | `{r['draw']}` | `{r['out_scoring']}` | "
            f"`{r['block_scoring']}` | {match} |"
        )
    return out


def field_table() -> list[str]:
    out = ["| field | values | meaning |", "|---|---|---|"]
    for name in FIELD_NAMES:
        if name in CHOICES:
            meanings = MEANING[name]
            values = ", ".join(code(v) for v in CHOICES[name])
            meaning = "; ".join(f"{code(v)}: {meanings[v]}" for v in CHOICES[name])
        else:
            values, meaning = OTHER_FIELDS[name]
        out.append(f"| `{name}` | {values} | {meaning} |")
    for name, meanings in MEANING.items():  # a described field the engine no longer has
        assert name in FIELD_NAMES, name
        assert set(meanings) == set(CHOICES[name]), name
    assert set(OTHER_FIELDS) | set(CHOICES) == set(FIELD_NAMES), "describe every field"
    assert UNIT == (1, 10), "the unit row says 1 and 10"
    return out


def settings_table(entries: list[dict[str, Any]]) -> list[str]:
    head = "| field | " + " | ".join(f"`{e['id']}`" for e in entries) + " |"
    out = [head, "|---" * (len(entries) + 1) + "|"]
    players = [
        f"{e['players']['min']}"
        + ("" if e["players"]["min"] == e["players"]["max"] else f"{DASH}{e['players']['max']}")
        for e in entries
    ]
    out.append("| `players` | " + " | ".join(players) + " |")
    for name in FIELD_NAMES:
        if name == "players":
            continue
        # a preset that leaves a field of the families at its old value does not list it
        row = (cell(e["rules"].get(name, EXTENSIONS.get(name))) for e in entries)
        out.append(f"| `{name}` | " + " | ".join(row) + " |")
    return out


# ------------------------------------------------------------------ the page

INTRO = """\
# Dominoes rules

<!-- Generated by docs/gen_rules.py from the engine's preset table and ruleset fields
(shared/domino/engine/rules.py). Do not edit by hand: run `{command}`.
tests/test_docs.py fails when this page and the code differ. -->

The game comes from five Spanish rule texts; a preset's `source` names its text:
{sources}

The texts disagree on most points, so the engine offers each text's game as a **preset** of one
configurable **ruleset**, and settles every point the texts leave open
([Exact answers](#exact-answers)). `GET /rules` lists the same presets and fields as JSON
([openapi.yaml](openapi.yaml)); how the engine is built is in [engine.md](engine.md), and the
HTTP API around it in [api.md](api.md).

## Contents
- [Tiles](#tiles) · [A turn](#a-turn) · [Ends](#ends) · [Scoring words](#scoring-words)
- [The presets](#the-presets): {preset_links}
- [The ruleset fields](#the-ruleset-fields) · [Every preset's fields](#every-presets-fields)
- [Exact answers](#exact-answers) · [Changing the rules](#changing-the-rules)
"""

TILES_SECTION = """\
## Tiles
A set "double-N" holds every tile a-b with 0 ≤ a ≤ b ≤ N, once: {sets}. A tile is written `"a-b"`
with the lower half first (`"3-5"`, `"0-0"`); `"5-3"` is read as the same tile. A tile's pips are
a + b. A double is a tile with both halves equal.

The **heaviest** tile (the lead when no hand holds the double the opening asks for) is the one
with the most pips, ties going to the one with the higher half: in double-six {heavy}, and so on.
"""

TURN_SECTION = """\
## A turn
1. On your turn you do exactly one thing: lay a tile that matches an open end, draw, or pass.
2. You must play when you can. You may draw only when no tile of yours fits and the boneyard holds
   more tiles than the preset's reserve. With `until_playable` you keep the turn after a draw (you
   draw again or play the tile that now fits); with `one_then_pass` the draw ends your turn.
3. You may pass only when you can neither play nor draw. A pass is a move you make, not something
   that happens by itself.
4. The hand ends when a player lays their last tile (**dominó**, going out), or when it is
   **closed**: every player in turn has passed, one after another, without a play or a draw in
   between. Players therefore draw down to the reserve before the hand can close.
5. Then the hand is scored ([Scoring words](#scoring-words)) and, if the match goes on, the next
   hand is dealt at once.
"""

ENDS_SECTION = """\
## Ends
A play names the end it goes on (`end`); the end names of each layout are:
{names}

- **line**: the first tile a-b opens `left` = a and `right` = b. A double lies across the line and
  changes nothing else.
- **cross**: the first tile is a double; it opens its four arms, each showing its number. Until
  every arm holds a tile, only the empty arms take one; after that every arm grows.
- **star**: the first tile is a double; it opens the four sides as a cross does. The four
  diagonals open once every side holds a tile. A side that holds a tile may grow before the star
  is complete.
- **spinner**: a line (`left`, `right`) until a double is laid; the first double of the hand, the
  lead or a later tile, is the spinner. A led spinner has both sides free; one laid on an end has
  the side facing the line covered already, and its other side is that end. `north` and `south`
  open once both sides touch a tile, in either order, and show the spinner's number; until then a
  play on them is `tile_does_not_match`. Every open end may grow at any time.

- **trains**: no first tile: the round's engine double stands in the station (`board.station`)
  and every train starts at its number: one per seat (`train-0` up to the last seat) and
  `mexican`. A `train-k` for a seat the game does not have is 400 `invalid_request`; another
  seat's unmarked train is `tile_does_not_match`.

Only the opening double of a cross or a star, and the spinner, open extra arms: any other double
is an ordinary tile (on trains, a double that must be satisfied).
"""

SCORING_SECTION = """\
## Scoring words
p(x) is the number of pips left in x's hand when the hand ends. A *side* is a player, or with
pairs the two partners. `out_scoring` says what the winner scores after going out,
`block_scoring` after a closed hand.
- `opponents`: the winning side scores the sum of p over the opponents (a partner never counts).
- `all_others`: the winning side scores p of every other hand, the partner's included.
- `difference`: the winner scores the sum, over each opponent, of p(opponent) - p(winner): hands
  of 15, 19 and 22 give the 15 a score of 4 + 7 = 11. After going out (p = 0) this is the same
  as `opponents`.
- `all_hands`: the winning side scores every pip left in every hand, its own included: 10
  against 25 scores 35 for the 10.
- `win`: the winning side scores 1.
- `penalty`: every player off the winning side adds their own p to their own total; the winning
  side adds 0. The match then ends when a total reaches the target, and the **lowest** total
  wins ([Penalty scoring](#penalty-scoring)).
"""

ANSWERS_SECTION = """\
## Exact answers
The rule texts leave these points open; this is what the engine does.

### Seats and play order
Seats are numbered 0 to n-1 around the table. `clockwise` plays 0, 1, 2, ... after the opener;
`counterclockwise` plays 0, n-1, n-2, ... With pairs, seats 0 and 2 play against seats 1 and 3,
and only with exactly four players.

### Who leads a hand
- The opener is found when the hand is dealt. The holder of the double the opening rule asks for
  must lead that very tile (any other tile is refused as `must_lead_opening_tile`); so must the
  holder of the heaviest tile when no hand holds such a double and the rule is `heaviest`.
- A seat chosen by `lot`, or a previous winner under `next_round: previous_winner`, leads any tile.
- Under `previous_winner` the previous winner is the seat that went out, or the seat whose hand
  decided a closed hand (with pairs: the seat, not its partner). After a hand nobody won, the
  next hand is opened by the first hand's rule.
- `same_as_first` opens every hand by the opening rule again, forced lead included.
- A deal the opening rule cannot use (no hand holds the double, under `no_double: reshuffle`) is
  shuffled and dealt again; the game view counts these re-deals of the current hand in
  `reshuffles`. After 10,000 re-deals in a row the rules are refused as unplayable.

### The first tile
The first tile is laid with `end` null; an `end` sent with it is ignored. It opens the ends as
[Ends](#ends) says.

### Legal plays and naming an end
`you.legal` lists a tile once for every open end it fits, even when two ends show the same
number. A play must name its `end` when the tile fits more than one open end (else
`end_required`); a tile that fits no open end, or not the end named, or an arm that is not open
yet, is `tile_does_not_match`.

### Drawing and the reserve
`drawable` = tiles in the boneyard - the reserve, never below 0, and always 0 under
`draw: none`. Drawing while holding a tile that fits is `must_play`; drawing when nothing is
drawable is `cannot_draw`. Under `one_then_pass` the turn passes with the draw, even when the
drawn tile fits.

### Passing and a closed hand
Passing while you can play or draw is `cannot_pass`. A hand closes after n passes in a row, n
being the number of players; any play or draw (a `one_then_pass` draw too) starts the count again.

### Who wins a closed hand
- `lowest_player`: the single hand with the fewest pips decides (with pairs, for its pair).
- `lowest_team`: with pairs, the pair with the fewest pips in its two hands wins, and its seat
  with the lower hand is the one compared under `difference` (and leads next under
  `previous_winner`); without pairs it is the same as `lowest_player`.
- Equal lowest values, `tie: play_order`: the tied seat that comes first in play order from the
  hand's opener wins. `tie: none`: if the tied seats belong to different sides, nobody wins,
  nobody scores (under `penalty` nobody adds anything), and a pool pot is split among the tied
  seats; two partners tied for lowest are no tie, their pair wins.

### Pairs
Both seats of a pair show the pair's score and, in `last_hand.points`, the pair's points; the
pair that reaches the target ends the match. `difference` compares the winning seat's own hand
with each opponent's hand.

### Penalty scoring
`penalty` is always set on both `out_scoring` and `block_scoring`. Each seat off the winning side
adds its own pips, the winning side adds 0; with pairs each seat's total is its pair's, and
`last_hand.points` shows what each seat added. The match ends when any total reaches the target;
the lowest total wins, and equal lowest totals share the win. With `match: single` the lowest
total after the one hand wins.

### Points in tens
With `unit: 10` every seat's points of a hand are divided by ten, rounded half up (15 → 2, 14 →
1), before they are added; `win` scoring stays 1 a hand. `target` is counted in the same unit (300
points are a target of 30).

### The pool
With a `stake`, each seat's `chips` is its net winnings, starting at 0. Every player pays the
stake into the pot when a hand is dealt (after any re-deal), so chips may go below 0; the view
shows the `pot`. The hand's winners take the pot, split evenly between them (a pair's two seats
too); what does not divide evenly stays in the pot for the next hand.

### Scoring during play (`in_play: fives`)
- The count is taken after every tile, from the whole board: a board of one tile counts both its
  halves once (6-4: 10, 5-5: 10, 0-0: 0); otherwise every open end counts the pips it shows,
  doubled when the tile at that end is a double (4-4 at an end: 8), a spinner with a free side
  being the end tile of that side; `north` and `south` count 0 until their first tile. Only the
  count after the play matters: covering the spinner's second side removes its two halves.
- A count of 5, 10, ... 35 scores exactly that for the seat that laid the tile (both seats of a
  pair show the pair's score); 0 and other counts score nothing. The lead and a drawn tile that
  is laid score like any play. Every score is taken at once: there is no call to make.
- Going out, the last tile's count is scored first, then the hand's award; when the count alone
  reaches the target, the match ends there and no award is made.
- The view shows `board.count`, each end's share (`ends[].counts`), `board.spinner`, and for
  every legal play the points it would make (`you.legal[].scores`); each play in the move log
  adds its `count` and what it `scored`; `last_hand` splits `points` into `play_points` and the
  hand-end `bonus`.

### Trains (`layout: trains`)
- A turn is one tile that is not a double, or one or more doubles and then at most one tile that
  is not; a double must be followed (satisfied) before anything else is played anywhere, except
  another double by the seat that just laid one. Doubles nobody has satisfied are kept oldest
  first (`board.pending`); a tile laid on one satisfies it (it is never a double: the only double
  of that number is the one it covers), so it ends the turn.
- One draw a turn (`one_then_play`), however many doubles: with no legal play you draw one tile;
  a drawn tile that plays must be laid now (`must_play` for a second draw while holding it); if it
  does not play, the turn ends and your train is marked. With no legal play and no draw allowed
  you pass, and your train is marked. `you.can_draw` and `you.can_pass` say which.
- Markers: a marked train is open to every seat; only its owner's tile on it takes the marker
  off; satisfying a double on another seat's train changes neither its marker nor its privacy.
  `draw` and `pass` moves add `marked: true` when they mark the seat's train.
- The round ends when a seat lays its last tile (even a double nobody satisfied) or is closed
  (every seat passes once in a row; a draw or a play breaks the run). Going out, every other
  seat adds the pips in its hand; closed, every seat adds its own, the lowest too (`own_pips`);
  0-0 counts 0. `hand_number` is the round, `opener` the seat that set the engine;
  `board.search_passes` counts the passes of the deal's search, `board.this_turn` what the seat
  on turn has done (its doubles, whether it drew), null until it has done something.
- Tile conservation counts the station: hands + boneyard + station + trains = 91.

### Match end
- `single`: the hand's winners win the match; a hand nobody won is a draw (`draw: true`,
  `match_winners` empty).
- `target`: after each hand, once any total has reached the target, the match is over and the
  side with the best total wins (highest; lowest under `penalty`); equal best totals share the
  win. With `target_check: every_score` the target is also looked at after every score made
  during play, and the first side to reach it wins at once, mid-hand (`last_hand.reason`
  `target`, every hand revealed, no award). Two sides can reach it together only through a
  split award: the higher total wins, equal totals share the win.
- `rounds`: after that many hands the best total wins; equal best totals are a draw (under
  `penalty`, equal lowest totals share the win).
- A player who leaves during play is replaced by a bot and listed in `result.forfeits`; their
  side never wins the match, and the best remaining side wins instead.

### In JSON
A game view's `rules` object holds every field, `hand_size` and `reserve` as plain numbers for
the game's player count. In `GET /rules` they are objects keyed by the count as a string
(`{"3": 6, "4": 6, "5": 5}`); an override in `POST /games` may give either form. `teams` is
`null` or `"pairs"`; `target`, `rounds` and `stake` are numbers or `null`; a preset may give
`target` and `teams` per player count too (all-fives: `{"2": 250, "3": 200, "4": 200}`), a game
has one value. The fields the families beyond the seed texts added (`redeal_doubles`,
`in_play`, `round_to`, `target_check`) are shown only by rules that set one of them off its
old value, so every seed preset's JSON is what it always was.

### What a player sees
Another player's hand, the boneyard and the tiles others drew are never shown, not in the
view, the move log nor an error message. A drawn tile is shown to its drawer only. Every hand is
shown when the hand ends (`last_hand`). Hands, boneyard and board always make up the whole set,
each tile once.
"""

CHANGING_SECTION = """\
## Changing the rules
`POST /games` takes the preset and may override single fields in `rules` (the names and values of
[The ruleset fields](#the-ruleset-fields)); with four players, for example, `teams: "pairs"` plays
any four-player preset in pairs. A mode is such a set of overrides. The engine refuses, as 400
`invalid_request`, a combination no game can be played with:
- hands that need more tiles than the set has, or a reserve larger than what is left;
- pairs with other than four players;
- a `cross` or `star` with `opening: lot`, with `next_round: previous_winner` or
  `domino_winner`, or with `no_double` other than `reshuffle` (both layouts must open with a
  double);
- `in_play` on a `cross` or a `star`; `round_to` other than 5 or null;
- `opening: pair_lot` or `next_round: winning_pair` without pairs;
- `trains` with teams or with an opening other than `engine`, and `engine` on another layout;
- `penalty` on only one of `out_scoring` and `block_scoring`;
- `match: target` without a `target`, `match: rounds` without `rounds`;
- a player count outside the preset's range, an unknown field or a value outside its list.
"""


def render() -> str:
    entries = [preset.describe() for preset in PRESETS.values()]
    sets = ", ".join(f"double-{top} = {len(full_set(top))} tiles" for top in SETS)
    names = "\n".join(
        f"- `{layout}`: " + ", ".join(f"`{n}`" for n in arms) for layout, arms in ARM_NAMES.items()
    )
    sources = "\n".join(f"- {tag}: {text}" for tag, text in SOURCES.items())
    preset_links = " · ".join(f"[{e['id']}](#{slug(e['id'])})" for e in entries)
    lines: list[str] = [
        INTRO.format(command=COMMAND, sources=sources, preset_links=preset_links),
        TILES_SECTION.format(sets=sets, heavy=heaviest_order(6, 6)),
        TURN_SECTION,
        ENDS_SECTION.format(names=names),
        SCORING_SECTION,
        "## The presets",
        "Each preset below is a game from one of the texts, described as its players would read "
        "it; the exact settings are in [Every preset's fields](#every-presets-fields).",
        "",
        *summary_table(entries),
        "",
    ]
    for entry in entries:
        assert entry["source"] in SOURCES, entry["source"]
        lines += preset_section(entry)
    lines += [
        "## The ruleset fields",
        "Every preset sets every field; a game may override them when it is created. The same "
        "names and values are a game view's `rules` object.",
        "",
        *field_table(),
        "",
        "## Every preset's fields",
        "The preset table as the engine holds it (`GET /rules` gives the same); a value given "
        "per player count is written `3p 6`.",
        "",
        *settings_table(entries),
        "",
        ANSWERS_SECTION,
        CHANGING_SECTION.rstrip("\n"),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--write" in argv:
        PAGE.write_text(text, encoding="utf-8")
        return 0
    if "--check" in argv:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"docs/rules.md is out of date: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
