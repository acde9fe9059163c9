"""The state of a whole match: the current hand, scores, chips, the move log; its moves.

A hand (docs/rules.md#a-turn): the opener leads (``deal.find_opener``); each seat in turn plays a
tile on an open end, or draws (``until_playable`` keeps the turn, ``one_then_pass`` ends it), or
passes when it can do neither; the hand ends with a dominó or closed (n passes in a row), is
scored (``scoring``; during play too under ``in_play``: ``fives``), and the next is dealt at once.

The board's ends are the layout's (``layouts``), the shuffle and deal ``deal``'s, the hot path's
constants ``kit``'s, the records ``movelog``'s, the JSON ``views``', the bytes ``encoding``'s: those
(and the bots) read a match through its public surface only (``decode`` restores one with
``Match.restore``); nothing outside this module touches an underscore attribute (test_architecture).

Hidden information: hands of other seats, the boneyard order, the seed and ``deals`` stay inside
this object; ``view()`` and ``moves()`` reveal only what the asking seat may see (a drawn tile: its
drawer only).
"""

from __future__ import annotations

from operator import add
from typing import Any, Self, cast

from . import lead, movelog, views
from .deal import check_dev_deal, deal_hand
from .errors import (
    CannotCede,
    CannotDraw,
    CannotPass,
    GameNotInProgress,
    InvalidInput,
    MustLeadOpeningTile,
    MustPlay,
    NotYourTurn,
    TileNotInHand,
)
from .fives import Count, add_points, no_award
from .forced import first_move, only_move
from .kit import Dealing, FastTable, Grow, LegalCache, Plays, kit_of, legal_plays
from .layouts import EVERY_TRAIN, TRAINS, Layout, arm_for
from .movelog import KIND, OWN, PLAY_CODES, TIMEOUT, TIMEOUT_FORFEIT, Entry, LogCode, MoveCodes
from .moves import Cede, Draw, Move, Pass, Play, PlayJson, validate_move
from .outcome import ApplyResult, HandEnd, HandEnded, HandResult, hand_result
from .rules import Ruleset
from .scoring import match_over, match_winners, score_hand
from .tiles import LOW, PIPS, SUIT, TILES, Tile, bits, pips_by_seat
from .trains import DREW, PASSED, PLAYED, TrainsState, engine_of, replay, search, train_move
from .views import BoardView, LastHandView

# the log codes and hand ends of the hot path, as globals (quicker than the class attributes)
_PLAY = LogCode.PLAY
_PASS = LogCode.PASS
_HAND_OVER = LogCode.HAND_OVER
_LEAVE = LogCode.LEAVE
_CEDE = LogCode.CEDE
_DOMINO = HandEnd.DOMINO
_CLOSED = HandEnd.CLOSED
_TARGET = HandEnd.TARGET


class Match:
    """A whole match: ``Match.start``, then ``apply``, ``forfeit``, ``timeout``.

    Public attributes (read them, change them only through the methods):
    ``rules``, ``players``; ``status`` (``playing``, ``finished``); ``hand_number`` (from 1);
    ``reshuffles`` (re-deals of the current hand); ``opener``; ``turn`` (None once the match is
    over); ``forced`` (the tile id the opener must lead, -1: any); ``passes`` (in a row);
    ``hands`` (per seat, a bitmask of tile ids); ``boneyard`` (tile ids, top = last);
    ``ends``/``open_arms``/``arm_len`` (the board, see ``layouts``); ``scores``; ``chips`` (None
    without a stake) and ``pot``; ``forfeits`` (seats, in the order they left);
    ``match_winners_`` and ``is_draw`` (once finished); ``log``, ``prev_log``, ``first_held_n``
    (see ``movelog``); ``start_at``; ``seed``; ``lot`` (the seat every lot of the match draws: a
    dev deal's; -1: the shuffle's); ``deals`` (per hand number, the hands as dealt and the
    boneyard, top first: each deal made is kept; one set beforehand is dealt so; not encoded).
    ``last`` is the last finished hand (``ended`` the same as a plain tuple). Read-only properties
    for the bots: ``layout``, ``next_seats``, ``kept``.
    """

    __slots__ = (
        "_cache",
        "_dealing",
        "_ended",
        "_fives",
        "_grow",
        "_info",
        "_keep",
        "_layout",
        "_nxt",
        "_orders",
        "_plain",
        "_plays",
        "_simple",
        "_step",
        "_trains",
        "arm_len",
        "boneyard",
        "chips",
        "deals",
        "ends",
        "first_held_n",
        "forced",
        "forfeits",
        "hand_number",
        "hands",
        "is_draw",
        "log",
        "lot",
        "match_winners_",
        "open_arms",
        "opener",
        "passes",
        "players",
        "pot",
        "prev_log",
        "reshuffles",
        "rules",
        "scores",
        "seed",
        "start_at",
        "status",
        "turn",
    )

    rules: Ruleset
    players: int
    seed: int | None
    lot: int
    status: str
    hand_number: int
    reshuffles: int
    opener: int
    turn: int | None
    forced: int
    passes: int
    hands: list[int]
    boneyard: list[int]  # top of the boneyard = last element
    deals: dict[int, tuple[list[int], list[int]]]
    ends: list[int]
    arm_len: list[int]
    open_arms: tuple[int, ...]
    scores: list[int]
    chips: list[int] | None
    pot: int
    forfeits: list[int]
    match_winners_: tuple[int, ...]
    is_draw: bool
    log: list[Entry]
    prev_log: list[Entry]
    first_held_n: int
    start_at: int
    _ended: HandEnded | None  # ``ended``
    _fives: Count | None  # ``in_play: fives``: the current hand's count (``fives``)
    _trains: TrainsState | None  # ``layout: trains``: the round beyond its board (``trains``)
    _plays: Plays
    _info: FastTable
    _cache: LegalCache
    _plain: ApplyResult
    _layout: Layout
    _simple: bool
    _grow: Grow
    _keep: int
    _orders: tuple[tuple[int, ...], ...]
    _nxt: tuple[int, ...]
    _step: int
    _dealing: Dealing

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(
        cls,
        rules: Ruleset,
        *,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        at: int = 0,
    ) -> Match:
        """Deal hand 1 and find its opener. ``seed`` makes every shuffle of the match repeatable;
        ``deal`` (``{"hands": [[...] per seat], "boneyard": [... top first], "lot": seat}``) fixes
        the first deal (no boneyard: the rest in id order) and what every lot draws (``lot``)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidInput("The seed must be a whole number.")
        m = cls._blank(rules)
        m.seed = seed
        m.start_at = at
        fixed, m.lot = check_dev_deal(rules, deal)
        m._deal(fixed)
        return m

    @classmethod
    def restore(
        cls,
        rules: Ruleset,
        *,
        seed: int | None,
        status: str,
        hand_number: int,
        reshuffles: int,
        opener: int,
        turn: int | None,
        forced: int,
        passes: int,
        hands: list[int],
        boneyard: list[int],
        scores: list[int],
        chips: list[int] | None,
        pot: int,
        forfeits: list[int],
        ended: HandEnded | None,
        match_winners: tuple[int, ...],
        is_draw: bool,
        start_at: int,
        first_held_n: int,
        prev_log: list[Entry],
        log: list[Entry],
        search_passes: int = 0,
        lot: int = -1,
    ) -> Match:
        """A match exactly as it was, from its public attributes as ``encoding.decode`` read (and
        checked) them; the board is replayed from the plays of the current hand's ``log``."""
        m = cls._blank(rules)
        m.seed = seed
        m.lot = lot
        m.status = status
        m.hand_number = hand_number
        m._plain = ApplyResult(None, False, False, hand_number)
        m.reshuffles = reshuffles
        m.opener = opener
        m.turn = turn
        m.forced = forced
        m.passes = passes
        m.hands = hands
        m.boneyard = boneyard
        m.scores = scores
        m.chips = chips
        m.pot = pot
        m.forfeits = forfeits
        m._ended = ended
        m.match_winners_ = match_winners
        m.is_draw = is_draw
        m.start_at = start_at
        m.first_held_n = first_held_n
        m.prev_log = prev_log
        m.log = log
        if m._trains is not None:  # the station, markers and doubles from the round's moves
            m._trains.new_round(engine_of(hand_number), search_passes)
            moves = [(KIND[c], s, t, a) for c, s, t, a, _ in log if c in KIND]
            replay(m._trains, m.ends, m.arm_len, moves)
            m.open_arms = EVERY_TRAIN
            return m
        for code, seat, tid, arm, _at in log:
            if code in PLAY_CODES:
                m._place(tid, arm, seat)  # in-play points are in ``scores`` already
        return m

    @classmethod
    def _blank(cls, rules: Ruleset) -> Self:
        m = _new(cls)
        n = rules.players
        m.rules = rules
        m.players = n
        # left to the caller, ``start`` (and its ``_deal``) or ``restore``, which set them anyway:
        # seed, start_at, hands, boneyard, reshuffles, opener, turn, forced, passes
        m.status = "playing"
        m.hand_number = 1
        m.scores = [0] * n
        m.chips = [0] * n if rules.stake is not None else None
        m.pot = 0
        m.forfeits = []
        m._ended = None
        m.match_winners_ = ()
        m.is_draw = False
        m.log = []
        m.prev_log = []
        m.first_held_n = 1
        m.deals = {}
        m._plain = _PLAIN_1
        (
            m._plays,
            m._info,
            m._cache,
            m._step,
            m._nxt,
            layout,
            m._simple,
            m._grow,
            m._keep,
            m._orders,
            m._dealing,
        ) = kit_of(rules)
        m._layout = layout
        m.ends, m.arm_len = layout.empty()
        m.open_arms = ()
        m._fives = Count(n, rules.teams == "pairs") if rules.in_play else None
        m._trains = TrainsState(n) if rules.layout == "trains" else None
        return m

    def _deal(self, fixed: tuple[list[int], list[int]] | None = None) -> None:
        """Deal the current hand (re-dealing while the opening rule or ``redeal_doubles`` asks
        for it), set the opener; a lot this hand draws is ``lot`` where a dev deal set it."""
        r = self.rules
        n = self.players
        # the seat that leads this hand any tile (a winner, a dev lot), -1: the opening rule says
        ended = self._ended
        leader = self.lot
        if ended is not None and self.hand_number > 1:
            won = lead.winners_lead(r, ended, self.opener, self._nxt)
            leader = won if won >= 0 else leader
        fixed = self.deals.get(self.hand_number, fixed)  # a replay's (``replay``)
        hands, rest, found, self.reshuffles = deal_hand(
            r, self._dealing, self.seed, self.hand_number, fixed, leader, lead.too_many_doubles
        )
        self.deals[self.hand_number] = (list(hands), list(rest))
        if self.hand_number != self._plain.hand_number:
            self._plain = ApplyResult(None, False, False, self.hand_number)
        self.hands = hands
        self.boneyard = rest[::-1]
        self.opener, self.forced = found
        self.turn = self.opener
        self.passes = 0
        if self.open_arms:  # a new board
            self.ends, self.arm_len = self._layout.empty()
            self.open_arms = ()
        if self._fives is not None:
            self._fives.reset()
        trains = self._trains
        if trains is not None:  # the engine's holder sets it in the station and opens
            engine = engine_of(self.hand_number)
            self.opener, passes = search(self.hands, self.boneyard, engine, n)
            self.turn = self.opener
            trains.new_round(engine, passes)
            TRAINS.open_station(self.ends, LOW[engine])
            self.open_arms = EVERY_TRAIN
        if r.stake is not None and self.chips is not None:
            self.chips[:] = [c - r.stake for c in self.chips]
            self.pot += r.stake * n

    # ------------------------------------------------------------------ queries

    @property
    def layout(self) -> Layout:
        """The board's layout (``LAYOUTS[rules.layout]``)."""
        return self._layout

    @property
    def last(self) -> HandResult | None:
        """The last finished hand (None before the first one ends)."""
        return None if self._ended is None else hand_result(self._ended)

    @property
    def ended(self) -> HandEnded | None:
        """``last`` as kept: (number, end, winners, points, hands, deciding seat or -1), quicker."""
        return self._ended

    @property
    def count(self) -> Count | None:
        """``in_play: fives``: the current hand's count (``fives.Count``); None otherwise."""
        return self._fives

    @property
    def trains(self) -> TrainsState | None:
        """``layout: trains``: the round beyond its board (``trains.TrainsState``), else None."""
        return self._trains

    @property
    def next_seats(self) -> tuple[int, ...]:
        """The seat that plays after each seat (``next_seats[seat]``), in the rules' direction."""
        return self._nxt

    @property
    def kept(self) -> int:
        """Boneyard tiles nobody may draw (the reserve; all under ``draw: none``): any more, may."""
        return self._keep

    def play_order(self) -> list[int]:
        """Seats in play order from the current hand's opener."""
        return list(self._orders[self.opener])

    def _can_play(self, seat: int) -> bool:
        open_arms = self.open_arms  # empty only while the board is
        if not open_arms:
            return True
        hand = self.hands[seat]
        ends = self.ends
        if self._simple:
            return bool(hand & (SUIT[ends[0]] | SUIT[ends[1]]))
        for a in open_arms:  # noqa: SIM110 (a plain loop is faster than any())
            if hand & SUIT[ends[a]]:
                return True
        return False

    def drawable(self) -> int:
        """Tiles that may still be drawn: boneyard - reserve, never below 0; 0 under ``none``."""
        left = len(self.boneyard) - self._keep
        return left if left > 0 else 0

    def legal_moves(self) -> list[Play]:
        """Every legal play of the seat on turn: a tile once per end it fits."""
        turn = self.turn
        if turn is None:
            return []
        hand = self.hands[turn]
        open_arms = self.open_arms  # empty only while the board is (trains: never)
        ends = self.ends
        if self._simple and open_arms:  # the line, first: the common case, checked once
            m = hand & SUIT[ends[0]]
            m1 = hand & SUIT[ends[1]]
            try:  # a subscript is quicker than .get(); a miss (KeyError) fills the cache
                if m:
                    if m1:
                        left, right = self._cache
                        return [*left[m], *right[m1]]
                    return [*self._cache[0][m]]
                if m1:
                    return [*self._cache[1][m1]]
                return []
            except KeyError:
                return [
                    *(legal_plays(self._cache, self._plays, m, 0) if m else ()),
                    *(legal_plays(self._cache, self._plays, m1, 1) if m1 else ()),
                ]
        if self._trains is not None:
            plays = self._plays
            return [plays[t][a + 1] for t, a in self._trains.legal(turn, hand, ends)]
        if not open_arms:
            plays = self._plays
            if self.forced >= 0:
                return [plays[self.forced][0]]
            return [plays[t][0] for t in bits(hand)]
        cache = self._cache
        out: list[Play] = []
        for arm in open_arms:
            m = hand & SUIT[ends[arm]]
            if m:
                out += cache[arm].get(m) or legal_plays(cache, self._plays, m, arm)
        return out

    def can_draw(self) -> bool:
        """Whether the seat on turn may draw now."""
        turn = self.turn  # None once the match is over
        if turn is None or len(self.boneyard) <= self._keep:
            return False
        if self._trains is not None:
            return self._trains.can_draw(turn, self.hands[turn], self.ends, self.drawable())
        return not self._can_play(turn)

    def can_cede(self) -> bool:
        """Whether the seat on turn may cede the lead to its partner (``lead.can_cede``)."""
        return lead.can_cede(self)

    @property
    def offered(self) -> int | None:
        """The seat offered this hand's lead until its first tile (``lead.offered``)."""
        return lead.offered(self)

    def can_pass(self) -> bool:
        """Whether the seat on turn may pass now."""
        if self.turn is None or self.status != "playing":
            return False
        if self._trains is not None:
            return not self.legal_moves() and not self.can_draw()
        return not self._can_play(self.turn) and self.drawable() == 0

    # ------------------------------------------------------------------ changes

    def apply(self, seat: int, move: Move, at: int) -> ApplyResult:
        """Apply ``seat``'s move at time ``at`` (epoch seconds, from the caller).

        Checks, first failure raised: ``InvalidInput`` (``validate_move``, seat out of range), then
        ``GameNotInProgress``, ``NotYourTurn``, and for a play ``TileNotInHand``,
        ``MustLeadOpeningTile``, ``TileDoesNotMatch`` / ``EndRequired``; for a draw ``MustPlay``,
        ``CannotDraw``; for a pass ``CannotPass``."""
        # fast path: a shared Play object (as ``legal_moves`` hands out) on an open end or as the
        # first tile, by the seat on turn (``turn`` is None once the match is over), and a pass
        # that is allowed; anything else (and every refusal) goes through the full checks
        if seat == self.turn:
            try:  # a subscript is quicker than .get() (``kit.FastTable``)
                info = self._info[move.fast_key]
            except (AttributeError, IndexError):  # not a move, or a kit's it is not: full checks
                return self._apply(seat, move, at, OWN)
            if info:  # a shared Play object of this kit
                tid, arm, b, pips = info
                hands = self.hands
                hand = hands[seat]
                open_arms = self.open_arms
                if arm in open_arms:  # never -1
                    ends = self.ends
                    e = ends[arm]
                    if not hand & SUIT[e] & b:  # not in hand or not matching: the full checks
                        return self._apply(seat, move, at, OWN)
                    self.log.append((_PLAY, seat, tid, arm, at))
                    if self._simple:
                        ends[arm] = pips - e
                    else:
                        self.open_arms = self._grow(ends, self.arm_len, arm, pips - e)
                elif (
                    not open_arms  # the first tile
                    and hand & b
                    and arm < 0
                    and (self.forced < 0 or self.forced == tid)
                ):
                    self.log.append((_PLAY, seat, tid, -1, at))
                    self.open_arms = self._layout.open_first(self.ends, self.arm_len, tid)
                else:
                    return self._apply(seat, move, at, OWN)
                self.passes = 0
                hand ^= b
                hands[seat] = hand
                if hand:
                    self.turn = self._nxt[seat]
                    return self._plain
                return self._end_hand(_DOMINO, seat, at)
            elif (
                info is None  # a draw or a pass of a kit that takes them here
                and move.__class__ is Pass
                and len(self.boneyard) <= self._keep
                and not (
                    self.hands[seat] & (SUIT[self.ends[0]] | SUIT[self.ends[1]])
                    if self._simple and self.open_arms
                    else self._can_play(seat)
                )
            ):
                self.log.append((_PASS, seat, -1, -1, at))
                self.passes += 1
                if self.passes >= self.players:
                    return self._end_hand(_CLOSED, None, at)
                self.turn = self._nxt[seat]
                return self._plain
        return self._apply(seat, move, at, OWN)

    def _check_turn(self, seat: int) -> None:
        """InvalidInput for a seat that does not exist; GameNotInProgress; NotYourTurn."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidInput("There is no such seat.")
        if self.status != "playing":
            raise GameNotInProgress("The game is not in progress.")
        if seat != self.turn:
            raise NotYourTurn("It is seat {seat}'s turn.", seat=self.turn)

    def _apply(self, seat: int, move: Move, at: int, codes: MoveCodes) -> ApplyResult:
        """``apply`` with every check; the move is logged with ``codes`` (play, draw, pass)."""
        validate_move(self.rules, move)
        self._check_turn(seat)
        hand_number = self.hand_number
        if self._trains is not None:  # a turn of several tiles (``trains``)
            kind, tid, arm, goes_on = train_move(self._trains, self, seat, move)
            self.log.append((codes[kind], seat, tid, arm, at))
            self.passes = self.passes + 1 if kind == PASSED else 0
            if kind == PLAYED and not self.hands[seat]:
                return self._end_hand(_DOMINO, seat, at)
            if kind == PASSED and self.passes >= self.players:
                return self._end_hand(_CLOSED, None, at)
            if not goes_on:
                self.turn = self._nxt[seat]
            return (
                self._plain if kind != DREW else ApplyResult(TILES[tid], False, False, hand_number)
            )
        if isinstance(move, Play):
            tid = move.tile.id
            hand = self.hands[seat]
            if not hand >> tid & 1:
                raise TileNotInHand("That tile is not in your hand.")
            if not self.open_arms:  # the first tile
                if self.forced >= 0 and tid != self.forced:
                    raise MustLeadOpeningTile(
                        "You must lead with the tile that made you the opener."
                    )
                arm = -1
            else:
                arm = arm_for(self._layout, self.open_arms, self.ends, tid, move.end)
            self.log.append((codes[0], seat, tid, arm, at))
            made = self._place(tid, arm, seat)
            hand ^= 1 << tid
            self.hands[seat] = hand
            self.passes = 0
            if made and add_points(self.rules, self.scores, seat, made):
                return self._end_hand(_TARGET, seat, at)  # mid-hand: no award
            if not hand:
                return self._end_hand(_DOMINO, seat, at)
            self.turn = (seat + self._step) % self.players
            return self._plain
        if move.__class__ is Cede:
            if codes is not OWN or not self.can_cede():  # a timeout never cedes: it leads
                raise CannotCede("Only the seat offered the lead may cede it, before any tile.")
            self.log.append((_CEDE, seat, -1, -1, at))
            self.opener = self.turn = (seat + 2) % self.players  # the partner leads
            return self._plain
        if isinstance(move, Draw):
            if self.rules.draw == "none" and self.rules.extended:
                # the families' rule (docs/rules.md): nothing is ever drawn, so say that first;
                # the seed presets keep must_play first, as their answers always were
                raise CannotDraw("There is nothing you can draw.")
            if self._can_play(seat):
                raise MustPlay("You hold a tile you can play: you must play it.")
            if self.drawable() <= 0:
                raise CannotDraw("There is nothing you can draw.")
            tid = self.boneyard.pop()
            self.hands[seat] |= 1 << tid
            self.passes = 0
            self.log.append((codes[1], seat, tid, -1, at))
            if self.rules.draw == "one_then_pass":
                self.turn = (seat + self._step) % self.players
            return ApplyResult(TILES[tid], False, False, hand_number)
        # pass
        if self._can_play(seat) or self.drawable() > 0:
            raise CannotPass("You can play or draw, so you cannot pass.")
        self.log.append((codes[2], seat, -1, -1, at))
        self.passes += 1
        if self.passes >= self.players:
            return self._end_hand(_CLOSED, None, at)
        self.turn = (seat + self._step) % self.players
        return self._plain

    def _place(self, tid: int, arm: int, seat: int) -> int:
        """Lay a checked tile on ``arm`` (-1: the first) for ``seat``: the ends, open arms and
        (``in_play``) count change; the points it made, not yet in ``scores`` (0: none)."""
        ends = self.ends
        if arm < 0:
            self.open_arms = self._layout.open_first(ends, self.arm_len, tid)
        elif self._simple:  # a simple layout's arms stay open: only the end changes
            ends[arm] = PIPS[tid] - ends[arm]
        else:
            self.open_arms = self._grow(ends, self.arm_len, arm, PIPS[tid] - ends[arm])
        fives = self._fives
        return 0 if fives is None else fives.lay(tid, arm, seat, ends, self.arm_len, self.open_arms)

    def _end_hand(self, end: HandEnd, out_seat: int | None, at: int) -> ApplyResult:
        """Score the hand that just ended, then end the match or deal the next hand: the move's
        result."""
        # the slots set directly: the class call and its __init__ frame cost 3 times as much
        res = _new(ApplyResult)
        res.drawn, res.hand_over, res.hand_number = None, True, self.hand_number
        r = self.rules
        n = self.players
        hands = self.hands
        pips = pips_by_seat(hands, r.set)
        if end is _TARGET:  # a score during play reached the target: the hand has no award
            outcome = no_award(r, out_seat, n)
        else:
            outcome = score_hand(r, pips, end, out_seat, self._orders[self.opener])
        points = outcome.points
        scores = self.scores
        if r.teams == "pairs" and r.out_scoring == "penalty":
            for s in range(n):
                scores[s] += points[s % 2] + points[s % 2 + 2]
        else:
            scores[:] = map(add, scores, points)
        if r.stake is not None and self.chips is not None and outcome.pot_takers:
            share = self.pot // len(outcome.pot_takers)
            for s in outcome.pot_takers:
                self.chips[s] += share
            self.pot -= share * len(outcome.pot_takers)
        winners = tuple(outcome.winners)  # ascending (``HandOutcome``)
        fives = self._fives
        self._ended = (
            self.hand_number,
            end,
            winners,
            tuple(points) if fives is None else tuple(map(add, points, fives.points)),
            tuple(hands),
            -1 if outcome.win_seat is None else outcome.win_seat,
        )
        self.log.append((_HAND_OVER, -1, -1, -1, at))
        if r.match == "single" or match_over(r, scores, self.hand_number):
            if winners and r.match == "single" and r.out_scoring != "penalty" and not self.forfeits:
                self.match_winners_ = winners  # match_winners' first case (sorted already)
                self.is_draw = False
            else:
                won, draw = match_winners(r, scores, outcome.winners, self.forfeits)
                self.match_winners_ = tuple(won)
                self.is_draw = draw
            self.status = "finished"
            self.turn = None
            res.match_over = True
            return res
        self.first_held_n += len(self.prev_log)
        self.prev_log = self.log
        self.log = []
        self.hand_number += 1
        self._deal()
        res.match_over = False
        return res

    def forfeit(self, seat: int, at: int) -> None:
        """``seat``'s player left during play: a bot plays the seat from now on (the caller drives
        it), the seat is listed in ``result.forfeits`` and never wins (nor does its pair)."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InvalidInput("There is no such seat.")
        if self.status != "playing":
            raise GameNotInProgress("The game is not in progress.")
        if seat in self.forfeits:
            return
        self.forfeits.append(seat)
        self.log.append((_LEAVE, seat, -1, -1, at))

    def timeout(self, seat: int, mode: str, at: int, move: Move | None = None) -> ApplyResult:
        """The seat on turn ran out of time. ``auto``: ``move`` (default: ``first_move``) is made
        for them, logged as action ``timeout``; ``forfeit``: the seat forfeits, then the move is
        made (pass a bot's choice as ``move``)."""
        if mode not in ("auto", "forfeit"):
            raise InvalidInput("on_timeout must be auto or forfeit.")
        self._check_turn(seat)
        if move is None:
            move = first_move(self)
        validate_move(self.rules, move)
        if mode == "forfeit" and seat not in self.forfeits:
            self.forfeits.append(seat)
        return self._apply(seat, move, at, TIMEOUT_FORFEIT if mode == "forfeit" else TIMEOUT)

    def apply_forced(self, seat: int, at: int) -> ApplyResult:
        """The seat on turn's only move (``forced.only_move``), logged ``auto`` (else 400)."""
        self._check_turn(seat)
        move = only_move(self)
        if move is None:
            raise InvalidInput("The seat on turn has a choice to make.")
        return self._apply(seat, move, at, movelog.AUTO)

    def apply_premove(self, seat: int, play: Play, at: int) -> ApplyResult:
        """A conditional pre-move's reply ``play``, checked as any play, logged ``premove``."""
        self._check_turn(seat)
        return self._apply(seat, play, at, movelog.PREMOVE)

    # ---------------------------- views: shorthands of ``views`` (over ``views.Seen``)

    @property
    def board(self) -> list[tuple[int, int, int]]:
        """This hand's tiles in play order, as (tile id, seat, arm; -1: the first tile)."""
        return [(tid, seat, arm) for code, seat, tid, arm, _ in self.log if code in PLAY_CODES]

    def last_hand(self) -> LastHandView | None:
        """The last finished hand (every hand revealed), or None before the first one ends."""
        return views.last_hand(self)

    def result(self) -> LastHandView | None:
        """The match result (the final ``last_hand``), or None while the match goes on."""
        return views.result(self)

    def board_view(self) -> BoardView:
        """The board's tiles in play order and its open ends."""
        return views.board_view(self)

    def legal_json(self) -> list[PlayJson]:
        """``legal_moves()`` as JSON objects."""
        return views.legal_json(self)

    def view(self, seat: int | None) -> views.MatchView:
        """The engine's part of the game view for ``seat`` (None: the public view, no ``you``)."""
        return views.view(self, seat)

    def hand_of(self, seat: int) -> list[Tile]:
        """``seat``'s tiles (for that seat, its bot, or tests)."""
        return [TILES[t] for t in bits(self.hands[seat])]

    # ------------------------------------------------------------------ move log (``movelog``)

    def moves(self, viewer: int | None, after: int = 0) -> list[dict[str, Any]]:
        """Held moves numbered above ``after`` as ``viewer`` may see them (``MoveRecord`` dicts)."""
        return cast("list[dict[str, Any]]", movelog.moves(self, viewer, after))

    @property
    def next_n(self) -> int:
        """The ``n`` the next logged move will get."""
        return self.first_held_n + len(self.prev_log) + len(self.log)

    @property
    def previous_hand_moves(self) -> list[dict[str, Any]]:
        """Full records (drawn tiles included) of the previous hand, for the caller's archive."""
        return cast("list[dict[str, Any]]", movelog.previous_hand_moves(self))

    # ------------------------------------------------------------------ misc

    def copy(self) -> Match:
        """An independent copy (the immutable parts shared)."""
        m = _new(Match)
        for name in Match.__slots__:
            setattr(m, name, getattr(self, name))
        m.hands = list(self.hands)
        m.boneyard = list(self.boneyard)
        m.ends = list(self.ends)
        m.arm_len = list(self.arm_len)
        m.scores = list(self.scores)
        m.chips = list(self.chips) if self.chips is not None else None
        m.forfeits = list(self.forfeits)
        m.log = list(self.log)
        m.prev_log = list(self.prev_log)
        m.deals = {}  # a copy's deals (a rollout's) are its own
        if self._fives is not None:
            m._fives = self._fives.copy()
        if self._trains is not None:
            m._trains = self._trains.copy()
        return m

    def __repr__(self) -> str:
        return f"<Match {self.status} hand {self.hand_number} turn {self.turn} of {self.players}>"


__all__ = ["ApplyResult", "Match", "validate_move"]


_new = object.__new__
_PLAIN_1 = ApplyResult(None, False, False, 1)
