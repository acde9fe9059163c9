"""The expert on a trains layout (engine/expert_trains.py): its rollouts make the moves the
engine makes, and what it reads of a marked train is true and says something."""

from __future__ import annotations

import random

from domino.engine import DRAW, PASS, Match, Move, resolve_rules
from domino.engine import expert_trains as ext
from domino.engine.layouts import TRAINS
from domino.engine.movelog import DRAW_CODES
from domino.engine.tiles import HIGH, LOW, PIPS, SUIT
from engine_helpers import random_step


def policy_move(m: Match, seat: int) -> Move:
    """The rollout policy on a real match, through its public surface: of the legal plays in
    ``legal_moves`` order the first with the best ``pips + 8 for a double with a tile to follow
    it (else - 6) + 5 on one's own marked train (else - 1 on one's own)``; else draw, else pass."""
    legal = m.legal_moves()
    if not legal:
        return DRAW if m.can_draw() else PASS
    trains = m.trains
    assert trains is not None
    hand = m.hands[seat]
    best, best_score = legal[0], -1e9
    for p in legal:
        t = p.tile.id
        arm = TRAINS.index[str(p.end)]
        score = float(PIPS[t])
        if LOW[t] == HIGH[t]:
            score += 8.0 if hand & ~(1 << t) & SUIT[LOW[t]] else -6.0
        if arm == seat:
            score += 5.0 if trains.marked >> seat & 1 else -1.0
        if score > best_score:
            best, best_score = p, score
    return best


def test_the_rollouts_play_the_round_as_the_engine_does() -> None:
    """``play_on`` to the round's end gives every seat the pips ``Match.apply`` leaves it with
    the same policy, in a world dealt from the seat's knowledge: doubles, draws, markers and
    blocked rounds included."""
    checked = blocked = 0
    for n in (2, 4, 8):
        for seed in range(25):
            m = Match.start(resolve_rules("tren-mexicano", n), seed=seed)
            rng = random.Random(seed)
            for _ in range(seed % 11):
                if m.status != "playing" or m.hand_number != 1:
                    break
                random_step(m, rng)
            if m.status != "playing" or m.hand_number != 1 or m.turn is None:
                continue
            seat = m.turn
            hands, boneyard = ext.observe(m, seat).sample(rng)
            station = ext._Station(m, seat)
            assert m.trains is not None
            state = m.trains.copy()
            got_hands, bone = list(hands), list(boneyard)
            ends, arm_len = list(m.ends), list(m.arm_len)
            out = ext.play_on(
                station, state, got_hands, bone, ends, arm_len, seat, True, 10**9, m.passes
            )
            w = m.copy()
            w.hands, w.boneyard = list(hands), list(boneyard)
            while w.hand_number == 1 and w.turn is not None:
                w.apply(w.turn, policy_move(w, w.turn), 0)
            last = w.last
            assert last is not None
            assert list(last.hands) == got_hands, (n, seed)
            assert list(last.points) == [ext._pips(h) for h in got_hands]
            if out >= 0:
                assert list(last.winners) == [out]
            checked += 1
            blocked += out < 0
    assert checked > 60 and 0 < blocked < checked, (checked, blocked)


def test_a_marked_train_says_its_owner_held_nothing_for_the_trains_open_to_it() -> None:
    """Right after another seat drew a tile it could not play, it is void in every number of
    the trains open to it then (and that is true of its hand)."""
    found = 0
    for seed in range(40):
        m = Match.start(resolve_rules("tren-mexicano", 4), seed=seed)
        k = 0
        while m.status == "playing" and m.hand_number == 1 and found < 15:
            seat = m.turn
            assert seat is not None
            move = policy_move(m, seat)
            m.apply(seat, move, k)
            k += 1
            code, who, _tid, arm, _at = m.log[-1]
            if code in DRAW_CODES and arm == 1 and m.turn is not None and m.turn != who:
                know = ext.observe(m, m.turn)
                assert know.void[who], "a marking draw told nothing"
                assert not know.void[who] & m.hands[who]
                found += 1
    assert found >= 15
