"""The engine's JSON views of a match: what a seat (or the public) may see of it.

Formats live beside the match, not in it (as python-chess keeps ``pgn`` and ``svg`` apart from the
board): these functions read a match through its public, read-only surface (``Seen``, which
``Match`` satisfies) and build the dicts of the API's game view. This module does not import
``match``; ``Match.view``, ``Match.board_view``, ``Match.last_hand`` and ``Match.result`` call it.

Hidden information stays hidden: another seat's hand, the boneyard's order and the seed are never
in a view; every hand is revealed in ``last_hand`` once the hand is over.
"""

from typing import Literal, NotRequired, Protocol, TypedDict

from . import fives, trains
from .errors import InvalidInput
from .layouts import Layout
from .movelog import PLAY_CODES, Entry
from .moves import Play, PlayJson
from .outcome import HandEnd, HandEnded
from .rules import Ruleset
from .tiles import TEXT, show_mask


class Seen(Protocol):
    """What a view reads of a match: ``Match``'s public attributes and queries, read-only."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def players(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def reshuffles(self) -> int: ...
    @property
    def opener(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def boneyard(self) -> list[int]: ...
    @property
    def ends(self) -> list[int]: ...
    @property
    def open_arms(self) -> tuple[int, ...]: ...
    @property
    def arm_len(self) -> list[int]: ...
    @property
    def count(self) -> fives.Count | None: ...
    @property
    def trains(self) -> trains.TrainsState | None: ...
    @property
    def log(self) -> list[Entry]: ...
    @property
    def prev_log(self) -> list[Entry]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def chips(self) -> list[int] | None: ...
    @property
    def pot(self) -> int: ...
    @property
    def forfeits(self) -> list[int]: ...
    @property
    def match_winners_(self) -> tuple[int, ...]: ...
    @property
    def is_draw(self) -> bool: ...
    @property
    def ended(self) -> HandEnded | None: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def board(self) -> list[tuple[int, int, int]]: ...
    def drawable(self) -> int: ...
    def legal_moves(self) -> list[Play]: ...
    def can_draw(self) -> bool: ...
    def can_pass(self) -> bool: ...
    def can_cede(self) -> bool: ...
    @property
    def offered(self) -> int | None: ...


class BoardTile(TypedDict):
    """A tile on the board, in play order; ``end`` None for the first tile."""

    tile: str
    seat: int
    end: str | None


class BoardEnd(TypedDict):
    """An end of the board and the number a tile laid there must match."""

    end: str
    pips: int
    #: ``in_play: fives``: the end's share of the count
    counts: NotRequired[int]
    #: trains: the train's seat (None: the Mexican train), its tiles, whether others may lay
    #: on it (the Mexican and marked trains), whether it carries its owner's marker
    owner: NotRequired[int | None]
    tiles: NotRequired[int]
    open: NotRequired[bool]
    marker: NotRequired[bool]


class BoardView(TypedDict):
    """The board: its tiles in play order, its ends (none while it is empty)."""

    tiles: list[BoardTile]
    ends: list[BoardEnd]
    #: ``in_play: fives``: the spinner tile (None: no spinner yet, or a line), and the count
    spinner: NotRequired[str | None]
    count: NotRequired[int]
    #: trains: the engine in the station, the deal's search passes, the doubles nobody has
    #: satisfied (oldest first), what the seat on turn did this turn (None: nothing yet)
    station: NotRequired[str]
    search_passes: NotRequired[int]
    pending: NotRequired[list[dict[str, object]]]
    this_turn: NotRequired[dict[str, object] | None]


class LastHandView(TypedDict):
    """The last finished hand, every hand revealed (the match ``result`` once it is over)."""

    hand_number: int
    reason: Literal["domino", "closed", "target"]
    winners: list[int]
    #: per seat (the seat as a string): the score change of the hand
    points: dict[str, int]
    #: ``in_play: fives``, per seat: the points made during play and the hand-end award
    #: (``points`` is their sum)
    play_points: NotRequired[dict[str, int]]
    bonus: NotRequired[dict[str, int]]
    #: per seat (the seat as a string): the tiles left
    hands: dict[str, list[str]]
    match_over: bool
    match_winners: list[int]
    #: the match ended in a draw (only then)
    draw: NotRequired[bool]
    #: seats that forfeited (only once the match is over, and only if any did)
    forfeits: NotRequired[list[int]]


class SeatStats(TypedDict):
    """What everyone may see of a seat."""

    seat: int
    team: int | None
    tiles: int
    score: int
    chips: int | None


class YouView(TypedDict):
    """What only the asking seat sees: its hand, and its choices when it is on turn."""

    seat: int
    hand: list[str]
    legal: list[PlayJson]
    can_draw: bool
    can_pass: bool
    #: the tile the seat just drew (the engine leaves it None; the caller fills it in)
    drawn: str | None
    #: whether the seat may cede the lead to its partner (only in games that offer the lead)
    can_cede: NotRequired[bool]


class LeadView(TypedDict):
    """Who leads a hand whose team chooses its leader (``opening: pair_lot``)."""

    pair: list[int]
    offered: int
    ceded: bool


class MatchView(TypedDict):
    """The engine's part of the game view (``you`` only for a seat)."""

    hand_number: int
    opener: int
    turn: int | None
    reshuffles: int
    pot: int | None
    board: BoardView
    boneyard: int
    drawable: int
    last_hand: LastHandView | None
    result: LastHandView | None
    seat_stats: list[SeatStats]
    #: ``opening: pair_lot`` only: the lead until the first tile is laid, then None
    lead: NotRequired[LeadView | None]
    you: NotRequired[YouView]


_REASON: dict[HandEnd, Literal["domino", "closed", "target"]] = {
    HandEnd.DOMINO: "domino",
    HandEnd.CLOSED: "closed",
    HandEnd.TARGET: "target",
}


def last_hand(m: Seen) -> LastHandView | None:
    """The last finished hand (every hand revealed), or None before the first one ends."""
    ended = m.ended
    if ended is None:
        return None
    number, end, winners, points, hands, _ = ended
    n = m.players
    over = m.status == "finished"
    out: LastHandView = {
        "hand_number": number,
        "reason": _REASON[end],
        "winners": list(winners),
        "points": {str(s): points[s] for s in range(n)},
        "hands": {str(s): show_mask(hands[s]) for s in range(n)},
        "match_over": over,
        "match_winners": list(m.match_winners_) if over else [],
    }
    if m.rules.in_play:
        # the finished hand's log: the current one once the match is over, else the previous
        made = _hand_points(m, m.log if over else m.prev_log)
        out["play_points"] = {str(s): made[s] for s in range(n)}
        out["bonus"] = {str(s): points[s] - made[s] for s in range(n)}
    if over:
        if m.is_draw:
            out["draw"] = True
        if m.forfeits:
            out["forfeits"] = sorted(m.forfeits)
    return out


def _hand_points(m: Seen, log: list[Entry]) -> list[int]:
    """The points each seat made during play in the hand ``log`` holds."""
    plays = [(seat, tid, arm) for code, seat, tid, arm, _ in log if code in PLAY_CODES]
    counts = fives.trail(m.layout, [(tid, arm) for _, tid, arm in plays])
    made = fives.Count(m.players, m.rules.teams == "pairs")
    for (seat, _, _), count in zip(plays, counts, strict=True):
        if fives.scored(count):
            made.credit(seat, count)
    return made.points


def result(m: Seen) -> LastHandView | None:
    """The match result (the final ``last_hand``), or None while the match goes on."""
    return last_hand(m) if m.status == "finished" else None


def board_view(m: Seen) -> BoardView:
    """The board's tiles in play order and its open ends."""
    layout = m.layout
    names = layout.names
    tiles: list[BoardTile] = [
        {"tile": TEXT[t], "seat": s, "end": None if a < 0 else names[a]} for t, s, a in m.board
    ]
    state = m.trains
    if state is not None:
        return _station(m, state, tiles)
    ends: list[BoardEnd] = (
        [{"end": names[i], "pips": m.ends[i]} for i in layout.shown(m.open_arms)]
        if m.open_arms
        else []
    )
    board: BoardView = {"tiles": tiles, "ends": ends}
    count = m.count
    if count is not None:
        shown = list(layout.shown(m.open_arms)) if ends else []
        shares = fives.end_counts(m.ends, m.arm_len, shown, count.tips, count.laid)
        for end, share in zip(ends, shares, strict=True):
            end["counts"] = share
        board["spinner"] = (
            next((TEXT[t] for t, _, _ in m.board if fives.IS_DOUBLE[t]), None)
            if layout.name == "spinner"
            else None
        )
        board["count"] = sum(shares)
    return board


def _station(m: Seen, state: trains.TrainsState, tiles: list[BoardTile]) -> BoardView:
    """A trains board (docs/rules.md "Tren mexicano"): the station, every seat's train and the
    Mexican train, the doubles waiting, and what the seat on turn has done this turn."""
    names = m.layout.names
    ends: list[BoardEnd] = []
    for arm in (*range(m.players), trains.MEXICAN):
        marked = arm != trains.MEXICAN and bool(state.marked >> arm & 1)
        ends.append(
            {
                "end": names[arm],
                "owner": None if arm == trains.MEXICAN else arm,
                "pips": m.ends[arm],
                "tiles": m.arm_len[arm],
                "open": marked or arm == trains.MEXICAN,
                "marker": marked,
            }
        )
    turn = m.turn
    doing = state.of == turn and turn is not None and (state.doubles or state.drew)
    return {
        "station": TEXT[state.engine],
        "search_passes": state.search_passes,
        "tiles": tiles,
        "ends": ends,
        "pending": [{"tile": TEXT[t], "end": names[a], "seat": s} for a, t, s in state.pending],
        "this_turn": (
            {"seat": turn, "doubles": [TEXT[t] for t in state.doubles], "drew": state.drew}
            if doing
            else None
        ),
    }


def legal_json(m: Seen) -> list[PlayJson]:
    """The legal plays of the seat on turn, as ``{"tile", "end"}`` objects (``in_play``: with
    the points each would make, ``scores``)."""
    moves = m.legal_moves()
    count = m.count
    if count is None:
        return [p.to_json() for p in moves]
    layout = m.layout
    legal = []
    for p in moves:
        play = p.to_json()
        arm = -1 if p.end is None or not m.open_arms else layout.index[p.end]
        play["scores"] = fives.scored(
            fives.after_play(layout, m.ends, m.arm_len, count, p.tile.id, arm)
        )
        legal.append(play)
    return legal


def view(m: Seen, seat: int | None) -> MatchView:
    """The engine's part of the game view for ``seat`` (None: the public view, no ``you``)."""
    r = m.rules
    playing = m.status == "playing"
    last = last_hand(m)
    # each seat's team (0: seats 0+2, 1: seats 1+3), None without teams
    teams = [s % 2 if r.teams == "pairs" else None for s in range(m.players)]
    stake = r.stake is not None
    chips = m.chips
    out: MatchView = {
        "hand_number": m.hand_number,
        "opener": m.opener,
        "turn": m.turn if playing else None,
        "reshuffles": m.reshuffles,
        "pot": m.pot if stake else None,
        "board": board_view(m),
        "boneyard": len(m.boneyard),
        "drawable": m.drawable(),
        "last_hand": last,
        "result": last if not playing else None,
        "seat_stats": [
            {
                "seat": s,
                "team": teams[s],
                "tiles": m.hands[s].bit_count(),
                "score": m.scores[s],
                "chips": chips[s] if stake and chips else None,
            }
            for s in range(m.players)
        ],
    }
    offers = r.opening == "pair_lot"
    if offers:
        offered = m.offered
        out["lead"] = (
            None
            if offered is None
            else {
                "pair": [offered % 2, offered % 2 + 2],
                "offered": offered,
                "ceded": offered != m.opener,
            }
        )
    if seat is not None:
        if not isinstance(seat, int) or not 0 <= seat < m.players:
            raise InvalidInput("There is no such seat.")
        mine = playing and m.turn == seat
        out["you"] = {
            "seat": seat,
            "hand": show_mask(m.hands[seat]),
            "legal": legal_json(m) if mine else [],
            "can_draw": m.can_draw() if mine else False,
            "can_pass": m.can_pass() if mine else False,
            "drawn": None,
        }
        if offers:
            out["you"]["can_cede"] = m.can_cede() if mine else False
    return out


__all__ = [
    "BoardEnd",
    "BoardTile",
    "BoardView",
    "LastHandView",
    "LeadView",
    "MatchView",
    "SeatStats",
    "Seen",
    "YouView",
    "board_view",
    "last_hand",
    "legal_json",
    "result",
    "view",
]
