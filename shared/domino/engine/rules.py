"""The configurable ruleset, the ten presets taken from the seed texts, and their validation.

Every field of docs/rules.md#the-ruleset-fields is a field of ``Ruleset`` with the same name and
values. A preset fixes all of them; ``hand_size`` and ``reserve`` depend on the player count
(objects keyed by the count as a string in ``GET /rules``); a game resolves them to plain ints
for its count with ``resolve_rules(preset_id, players, overrides)``.

Seat order: seats are numbered 0..n-1 around the table; ``clockwise`` plays 0, 1, 2, ... after the
opener, ``counterclockwise`` plays 0, n-1, n-2, ... With ``teams: "pairs"`` seats 0+2 face 1+3.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Literal, NotRequired, TypedDict, get_args

from .errors import InvalidInput
from .layouts import LAYOUTS, LayoutName
from .tiles import SETS, set_size

# The choice fields' values, in the order the encoding numbers them (never reorder: the index is
# what an encoded state stores; add new values at the end).
DrawRule = Literal["until_playable", "one_then_pass", "none", "one_then_play"]
Direction = Literal["clockwise", "counterclockwise"]
Opening = Literal["highest_double", "double_six", "lot", "required_double", "pair_lot", "engine"]
NoDouble = Literal["heaviest", "reshuffle"]
NextRound = Literal["previous_winner", "same_as_first", "winning_pair", "domino_winner"]
Teams = Literal["pairs"]  # the field is ``Teams | None``: None plays without teams
OutScoring = Literal["opponents", "all_others", "penalty", "win"]
BlockScoring = Literal["difference", "opponents", "all_hands", "penalty", "win", "own_pips"]
BlockWinner = Literal["lowest_player", "lowest_team"]
Tie = Literal["play_order", "none", "split"]
MatchKind = Literal["single", "target", "rounds"]
Unit = Literal[1, 10]
InPlay = Literal["fives"]  # the field is ``InPlay | None``: None scores only at a hand's end
TargetCheck = Literal["hand_end", "every_score"]

DRAW: tuple[DrawRule, ...] = get_args(DrawRule)
DIRECTION: tuple[Direction, ...] = get_args(Direction)
OPENING: tuple[Opening, ...] = get_args(Opening)
NO_DOUBLE: tuple[NoDouble, ...] = get_args(NoDouble)
NEXT_ROUND: tuple[NextRound, ...] = get_args(NextRound)
LAYOUT: tuple[LayoutName, ...] = get_args(LayoutName)
TEAMS: tuple[Teams | None, ...] = (None, *get_args(Teams))
OUT_SCORING: tuple[OutScoring, ...] = get_args(OutScoring)
BLOCK_SCORING: tuple[BlockScoring, ...] = get_args(BlockScoring)
BLOCK_WINNER: tuple[BlockWinner, ...] = get_args(BlockWinner)
TIE: tuple[Tie, ...] = get_args(Tie)
MATCH: tuple[MatchKind, ...] = get_args(MatchKind)
UNIT: tuple[Unit, ...] = get_args(Unit)
IN_PLAY: tuple[InPlay | None, ...] = (None, *get_args(InPlay))
TARGET_CHECK: tuple[TargetCheck, ...] = get_args(TargetCheck)
ROUND_TO = (5,)  # the field is ``int | None``: None adds awards as they are

#: choice fields and their allowed values (also the encoding's value tables)
CHOICES: dict[str, tuple[str | None, ...]] = {
    "draw": DRAW,
    "direction": DIRECTION,
    "opening": OPENING,
    "no_double": NO_DOUBLE,
    "next_round": NEXT_ROUND,
    "layout": LAYOUT,
    "teams": TEAMS,
    "out_scoring": OUT_SCORING,
    "block_scoring": BLOCK_SCORING,
    "block_winner": BLOCK_WINNER,
    "tie": TIE,
    "match": MATCH,
    "in_play": IN_PLAY,
    "target_check": TARGET_CHECK,
}

#: the fields the families beyond the seeds added (docs/rules.md), with the value every game
#: had before them: a ruleset at these values shows and encodes exactly as it did. Never
#: reorder: an encoded state names the ones it holds by their index here (add at the end).
EXTENSIONS: dict[str, Any] = {
    "redeal_doubles": None,
    "in_play": None,
    "round_to": None,
    "target_check": "hand_end",
}
#: the values the families appended to the older fields: a ruleset with one of them is a family's,
#: and shows every field of ``EXTENSIONS`` in its JSON (a ruleset's fields are its JSON)
FAMILY_VALUES: dict[str, tuple[str, ...]] = {
    "layout": ("spinner", "trains"),
    "opening": ("pair_lot", "engine"),
    "next_round": ("domino_winner", "winning_pair"),
    "tie": ("split",),
    "draw": ("one_then_play",),
    "block_scoring": ("own_pips",),
}


def is_family(field: Callable[[str], Any]) -> bool:
    """Whether the fields ``field(name)`` reads (a ruleset's or a preset's) set an extension or
    a value of ``FAMILY_VALUES``: their JSON then shows every extension, at its old value too."""
    return any(field(name) != old for name, old in EXTENSIONS.items()) or any(
        field(name) in added for name, added in FAMILY_VALUES.items()
    )


#: fields a preset may give per player count (objects keyed by the count in ``GET /rules``)
PER_COUNT = ("hand_size", "reserve", "target", "teams")


class RulesJson(TypedDict):
    """``Ruleset.to_json()``: the game view's ``rules`` object."""

    set: int
    players: int
    hand_size: int
    reserve: int
    draw: DrawRule
    direction: Direction
    opening: Opening
    no_double: NoDouble
    next_round: NextRound
    layout: LayoutName
    teams: Teams | None
    out_scoring: OutScoring
    block_scoring: BlockScoring
    block_winner: BlockWinner
    tie: Tie
    match: MatchKind
    target: int | None
    rounds: int | None
    unit: Unit
    stake: int | None
    #: a deal where a hand holds this many doubles or more is dealt again (None: never)
    redeal_doubles: NotRequired[int | None]
    #: ``fives``: after every tile a count of the open ends that is a multiple of 5 scores
    in_play: NotRequired[InPlay | None]
    #: hand-end awards rounded once, after adding, to the nearest multiple (None: as they are)
    round_to: NotRequired[int | None]
    #: when the target is tested: after each hand, or after every score (mid-hand too)
    target_check: NotRequired[TargetCheck]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The resolved rules of one game (``hand_size``/``reserve`` for its ``players``)."""

    set: int
    players: int
    hand_size: int
    reserve: int
    draw: DrawRule
    direction: Direction
    opening: Opening
    no_double: NoDouble
    next_round: NextRound
    layout: LayoutName
    teams: Teams | None
    out_scoring: OutScoring
    block_scoring: BlockScoring
    block_winner: BlockWinner
    tie: Tie
    match: MatchKind
    target: int | None
    rounds: int | None
    unit: Unit
    stake: int | None
    redeal_doubles: int | None = None
    in_play: InPlay | None = None
    round_to: int | None = None
    target_check: TargetCheck = "hand_end"

    @property
    def extended(self) -> bool:
        """Whether a field of ``EXTENSIONS`` is off its old value (it then shows and encodes)."""
        return any(getattr(self, name) != old for name, old in EXTENSIONS.items())

    @property
    def family(self) -> bool:
        """Whether these are a family's rules (``is_family``): the JSON shows every extension."""
        return is_family(lambda name: getattr(self, name))

    @property
    def tile_count(self) -> int:
        return set_size(self.set)

    @property
    def pairs(self) -> bool:
        return self.teams == "pairs"

    @property
    def penalty(self) -> bool:
        return self.out_scoring == "penalty"

    def to_json(self) -> RulesJson:
        """The game view's ``rules`` object (plain numbers), fields in declaration order."""
        out: RulesJson = {
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "reserve": self.reserve,
            "draw": self.draw,
            "direction": self.direction,
            "opening": self.opening,
            "no_double": self.no_double,
            "next_round": self.next_round,
            "layout": self.layout,
            "teams": self.teams,
            "out_scoring": self.out_scoring,
            "block_scoring": self.block_scoring,
            "block_winner": self.block_winner,
            "tie": self.tie,
            "match": self.match,
            "target": self.target,
            "rounds": self.rounds,
            "unit": self.unit,
            "stake": self.stake,
        }
        if self.family:
            out["redeal_doubles"] = self.redeal_doubles
            out["in_play"] = self.in_play
            out["round_to"] = self.round_to
            out["target_check"] = self.target_check
        return out


FIELD_NAMES = tuple(f.name for f in fields(Ruleset))


@dataclass(frozen=True, slots=True)
class Preset:
    """A named game from a seed text: the ruleset before the player count is known."""

    id: str
    name: str
    source: str
    min_players: int
    max_players: int
    rules: dict[str, Any]  # hand_size / reserve: dict[int, int]
    modes: dict[str, dict[str, Any]] | None = None
    description: str = ""

    def describe(self) -> dict[str, Any]:
        """The ``GET /rules`` entry: count-dependent fields keyed by the count as a string."""
        rules: dict[str, Any] = {}
        family = is_family(self.rules.__getitem__)
        for name in FIELD_NAMES:
            if name == "players":
                continue
            value = self.rules[name]
            if name in EXTENSIONS and value == EXTENSIONS[name] and not family:
                continue  # the presets before these fields show as they did
            if isinstance(value, dict):
                value = {str(k): v for k, v in sorted(value.items())}
            rules[name] = value
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "players": {"min": self.min_players, "max": self.max_players},
            "rules": rules,
        }
        if self.modes:
            out["modes"] = {k: dict(v) for k, v in self.modes.items()}
        return out


def _per_count(lo: int, hi: int, value: int) -> dict[int, int]:
    return {n: value for n in range(lo, hi + 1)}


_BASE: dict[str, Any] = {
    "set": 6,
    "draw": "until_playable",
    "direction": "clockwise",
    "opening": "highest_double",
    "no_double": "heaviest",
    "next_round": "previous_winner",
    "layout": "line",
    "teams": None,
    "out_scoring": "opponents",
    "block_scoring": "difference",
    "block_winner": "lowest_player",
    "tie": "play_order",
    "match": "target",
    "target": 100,
    "rounds": None,
    "unit": 1,
    "stake": None,
    **EXTENSIONS,
}

_CLASICO = dict(_BASE, hand_size={3: 6, 4: 6, 5: 5}, reserve=_per_count(3, 5, 1))
_DOS = dict(
    _BASE,
    hand_size={2: 7},
    reserve={2: 0},
    block_scoring="all_hands",
    target=300,
)


_ALL_FIVES = dict(
    _BASE,
    hand_size={2: 9, 3: 7, 4: 5},
    reserve=_per_count(2, 4, 0),
    opening="lot",
    next_round="domino_winner",
    layout="spinner",
    teams={2: None, 3: None, 4: "pairs"},
    block_scoring="opponents",
    block_winner="lowest_team",
    tie="split",
    target={2: 250, 3: 200, 4: 200},
    in_play="fives",
    round_to=5,
    target_check="every_score",
)
_FIVES_TEXT = (
    "Score as you play: ends that add up to a multiple of 5 score it at once; the first double "
    "is a spinner."
)


def _preset(
    pid: str,
    name: str,
    source: str,
    lo: int,
    hi: int,
    rules: dict[str, Any],
    modes: dict[str, dict[str, Any]] | None = None,
    description: str = "",
) -> Preset:
    return Preset(pid, name, source, lo, hi, rules, modes, description)


#: the presets, in docs/rules.md#the-presets order: the ten of the seed texts, then the
#: families beyond them
PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        _preset(
            "clasico",
            "Dominó clásico",
            "S0",
            3,
            5,
            _CLASICO,
            description="General rules: draw until you can play, one tile stays face-down.",
        ),
        _preset(
            "dos-jugadores",
            "Dominó para dos jugadores",
            "S3",
            2,
            2,
            _DOS,
            modes={"decenas": {"unit": 10, "target": 30}},
            description="Two players; a closed hand scores every pip left to the lowest hand.",
        ),
        _preset(
            "ida-y-vuelta",
            "Partida de ida y vuelta",
            "S0",
            2,
            2,
            dict(_DOS, match="rounds", target=None, rounds=2),
            description="Two hands; the higher total wins, equal totals are a draw.",
        ),
        _preset(
            "parejas-111",
            "El 111",
            "S0",
            4,
            4,
            dict(
                _BASE,
                hand_size={4: 7},
                reserve={4: 0},
                draw="none",
                teams="pairs",
                out_scoring="all_others",
                block_scoring="all_hands",
                target=111,
            ),
            description="Pairs 0+2 vs 1+3, no boneyard, first pair to 111.",
        ),
        _preset(
            "infantil",
            "Dominó infantil",
            "S0",
            2,
            5,
            dict(
                _BASE,
                hand_size={n: 26 // n for n in range(2, 6)},
                reserve={n: 28 - n * (26 // n) for n in range(2, 6)},
                draw="none",
                out_scoring="win",
                block_scoring="win",
                match="single",
                target=None,
            ),
            description="All tiles but two dealt, nothing to draw, one hand.",
        ),
        _preset(
            "multicolor-plus",
            "Dominó Multicolor Plus",
            "S2",
            2,
            4,
            dict(
                _BASE,
                hand_size={2: 7, 3: 5, 4: 5},
                reserve=_per_count(2, 4, 0),
                draw="one_then_pass",
                block_scoring="opponents",
                block_winner="lowest_team",
            ),
            description="Draw one tile and lose the turn; pairs optional with four.",
        ),
        _preset(
            "buho21",
            "Dominó Buho21",
            "S4",
            2,
            4,
            dict(
                _BASE,
                hand_size=_per_count(2, 4, 7),
                reserve=_per_count(2, 4, 0),
                direction="counterclockwise",
                out_scoring="penalty",
                block_scoring="penalty",
            ),
            modes={
                "express": {"match": "single", "target": None},
                "rapido": {"match": "target", "target": 50},
                "normal": {"match": "target", "target": 100},
                "doble": {"match": "target", "target": 200},
                "triple": {"match": "target", "target": 300},
            },
            description="Penalty scoring: your own pips count against you; lowest total wins.",
        ),
        _preset(
            "pool",
            "Dominó pool",
            "S0",
            3,
            5,
            dict(_CLASICO, stake=1, tie="none"),
            description="As clásico; every hand each player stakes a chip into the pot.",
        ),
        _preset(
            "cruzado",
            "Dominó cruzado",
            "S0",
            3,
            5,
            dict(_CLASICO, layout="cross", no_double="reshuffle", next_round="same_as_first"),
            description="The opening double opens 4 sides, all covered before an arm grows.",
        ),
        _preset(
            "chipre",
            "Chipre",
            "S0",
            4,
            10,
            dict(
                _BASE,
                set=9,
                hand_size={4: 13, 5: 11, 6: 9, 7: 7, 8: 6, 9: 6, 10: 5},
                reserve=_per_count(4, 10, 0),
                opening="required_double",
                no_double="reshuffle",
                next_round="same_as_first",
                layout="star",
            ),
            description="Double-nine, 9-9 opens an eight-armed star.",
        ),
        _preset(
            "cubano",
            "Dominó cubano",
            "P-CU",
            4,
            4,
            dict(
                _BASE,
                set=9,
                hand_size={4: 10},
                reserve={4: 15},
                draw="none",
                direction="counterclockwise",
                opening="pair_lot",
                next_round="winning_pair",
                teams="pairs",
                block_scoring="opponents",
                tie="none",
                redeal_doubles=5,
            ),
            description="Cuban double-nine in pairs: 10 tiles each, 15 sleep; the team picks "
            "its leader.",
        ),
        _preset("all-fives", "Todos los cincos", "P-AF", 2, 4, _ALL_FIVES, description=_FIVES_TEXT),
        _preset(
            "muggins",
            "Muggins (cincos en línea)",
            "P-AF",
            2,
            4,
            dict(_ALL_FIVES, layout="line"),
            description="All Fives on a line: no spinner, the same count and scores.",
        ),
        _preset(
            "tren-mexicano",
            "Tren mexicano",
            "MT-IG",
            2,
            8,
            dict(
                _BASE,
                set=12,
                hand_size={2: 16, 3: 15, 4: 14, 5: 13, 6: 12, 7: 11, 8: 10},
                reserve=_per_count(2, 8, 0),
                draw="one_then_play",
                opening="engine",
                next_round="same_as_first",
                layout="trains",
                out_scoring="penalty",
                block_scoring="own_pips",
                match="rounds",
                target=None,
                rounds=13,
            ),
            description="Double-twelve: a train of your own and the Mexican train from the "
            "station's engine; doubles must be satisfied; 13 rounds, the lowest total wins.",
        ),
    )
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _for_count(name: str, value: Any, players: int) -> Any:
    """A per-count field's value for ``players`` (an object keyed by the count), else as given."""
    if name not in PER_COUNT or not isinstance(value, dict):
        return value
    key = str(players)
    for k, v in value.items():
        if str(k) == key:
            return v
    raise InvalidInput(
        "rules.{field} gives no value for {players} players.", field=name, players=players
    )


def _check_field(name: str, value: Any, players: int) -> Any:
    """Validate one field's value; count-dependent fields come back as the value for
    ``players``."""
    value = _for_count(name, value, players)
    if name in CHOICES:
        if value not in CHOICES[name] or (value is not None and not isinstance(value, str)):
            raise InvalidInput(
                "rules.{field} must be one of: {allowed}.",
                field=name,
                allowed=["null" if c is None else c for c in CHOICES[name]],
            )
        return value
    if name == "set":
        if not _is_int(value) or value not in SETS:
            raise InvalidInput("rules.set must be 6, 9, 12 or 15.")
        return value
    if name in ("hand_size", "reserve"):
        lowest = 1 if name == "hand_size" else 0
        if not _is_int(value) or not lowest <= value <= 136:
            raise InvalidInput(
                "rules.{field} must be a whole number from {min} to 136.", field=name, min=lowest
            )
        return value
    if name == "unit":
        if not _is_int(value) or value not in UNIT:
            raise InvalidInput("rules.unit must be 1 or 10.")
        return value
    if name == "round_to":
        if value is not None and value not in ROUND_TO:
            raise InvalidInput("rules.round_to must be null or 5.")
        return value
    if name == "redeal_doubles":
        if value is not None and (not _is_int(value) or not 2 <= value <= 16):
            raise InvalidInput("rules.redeal_doubles must be null or a whole number from 2 to 16.")
        return value
    if name in ("target", "rounds", "stake"):
        if value is None:
            return None
        if not _is_int(value) or not 1 <= value <= 1_000_000:
            raise InvalidInput(
                "rules.{field} must be null or a whole number from 1 to 1000000.", field=name
            )
        return value
    raise InvalidInput("rules.{field} is not a rules field.", field=name)


def resolve_rules(preset_id: str, players: int, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset of a game of ``preset_id`` with ``players`` seats and field ``overrides``.

    Raises ``InvalidInput`` for an unknown preset, a player count out of the preset's range, an
    unknown field, a bad value or an impossible combination.
    """
    preset = PRESETS.get(preset_id) if isinstance(preset_id, str) else None
    if preset is None:
        raise InvalidInput("There is no such preset: GET /rules lists them.")
    if not _is_int(players) or not preset.min_players <= players <= preset.max_players:
        raise InvalidInput(
            "{preset} is played by {min} to {max} players.",
            preset=preset.id,
            min=preset.min_players,
            max=preset.max_players,
        )
    values: dict[str, Any] = dict(preset.rules)
    if overrides is not None:
        if not isinstance(overrides, dict):
            raise InvalidInput("rules must be an object of field overrides.")
        for name, value in overrides.items():
            if name == "players":
                if value != players:
                    raise InvalidInput("rules.players must equal the game's player count.")
                continue
            if name not in values:
                raise InvalidInput("rules.{field} is not a rules field.", field=name)
            values[name] = value
    resolved = {name: _check_field(name, values[name], players) for name in values}
    rules = Ruleset(players=players, **resolved)
    check_rules(rules)
    return rules


def check_rules(r: Ruleset) -> None:
    """Refuse combinations no game can be played with (``InvalidInput``)."""
    n = r.players
    if not _is_int(n) or not 2 <= n <= 15:
        raise InvalidInput("A game has 2 to 15 players.")
    total = set_size(r.set)
    if r.hand_size * n > total:
        raise InvalidInput(
            "{players} hands of {hand_size} need {needed} tiles; double-{set} has {total}.",
            players=n,
            hand_size=r.hand_size,
            needed=r.hand_size * n,
            set=r.set,
            total=total,
        )
    if r.reserve > total - r.hand_size * n:
        raise InvalidInput(
            "The reserve ({reserve}) is larger than the {left} tiles left.",
            reserve=r.reserve,
            left=total - r.hand_size * n,
        )
    if r.teams == "pairs" and n != 4:
        raise InvalidInput("Pairs are played by exactly 4 players.")
    if r.teams != "pairs" and (r.opening == "pair_lot" or r.next_round == "winning_pair"):
        raise InvalidInput("opening pair_lot and next_round winning_pair are played in pairs.")
    if r.redeal_doubles is not None:
        # pigeonhole: the doubles every deal hands out must fit below the limit in each hand,
        # or no deal would ever stand
        doubles = r.set + 1
        dealt = max(0, doubles - (total - r.hand_size * n))
        if dealt > (r.redeal_doubles - 1) * n:
            raise InvalidInput(
                "Every deal hands out {count} doubles: redeal_doubles {max} would deal for ever.",
                count=dealt,
                max=r.redeal_doubles,
            )
    layout = LAYOUTS.get(r.layout)
    if layout is not None and layout.opens_with_double:
        if r.opening in ("lot", "pair_lot"):
            raise InvalidInput(
                "A {layout} opens with a double: opening lot is not possible.", layout=r.layout
            )
        if r.next_round in ("previous_winner", "domino_winner"):
            raise InvalidInput(
                "A {layout} opens with a double: next_round {next_round} is not possible.",
                layout=r.layout,
                next_round=r.next_round,
            )
        if r.no_double != "reshuffle":
            raise InvalidInput(
                "A {layout} opens with a double: no_double must be reshuffle.", layout=r.layout
            )
    if r.layout == "trains" and (r.teams is not None or r.opening != "engine"):
        raise InvalidInput("Trains are played without teams and open with the engine.")
    if r.opening == "engine" and r.layout != "trains":
        raise InvalidInput("opening engine sets the station of a trains layout.")
    if r.in_play is not None and r.layout not in ("line", "spinner"):
        raise InvalidInput(
            "in_play {in_play} counts the ends of a line or a spinner, not a {layout}.",
            in_play=r.in_play,
            layout=r.layout,
        )
    if (r.out_scoring == "penalty") != (r.block_scoring in ("penalty", "own_pips")):
        raise InvalidInput("Penalty scoring applies to both out_scoring and block_scoring.")
    if r.match == "target" and r.target is None:
        raise InvalidInput("match target needs a target.")
    if r.match == "rounds" and r.rounds is None:
        raise InvalidInput("match rounds needs a number of rounds.")
    if r.teams is None and r.block_winner not in BLOCK_WINNER:
        raise InvalidInput("block_winner is not valid for these rules.")


__all__ = [
    "CHOICES",
    "EXTENSIONS",
    "FIELD_NAMES",
    "PER_COUNT",
    "PRESETS",
    "BlockScoring",
    "BlockWinner",
    "Direction",
    "DrawRule",
    "InPlay",
    "LayoutName",
    "MatchKind",
    "NextRound",
    "NoDouble",
    "Opening",
    "OutScoring",
    "Preset",
    "RulesJson",
    "Ruleset",
    "TargetCheck",
    "Teams",
    "Tie",
    "Unit",
    "check_rules",
    "resolve_rules",
]
