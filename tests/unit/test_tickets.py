"""Quick match's rules of who meets whom (docs/api.md#quick-match), without I/O."""

from __future__ import annotations

from domino.service.matchmaking import POLL_FOR_SECONDS, POLL_SECONDS, next_look
from domino.service.notices import ticket_notices
from domino.service.tickets import (
    BOT_RATINGS,
    bot_group,
    bot_level_for,
    full_group,
    may_meet,
    seat_order,
)
from domino.store.tickets import LIFETIME_SECONDS, Ticket

T0 = 1_800_000_000


def ticket(
    player: str,
    rating: int = 1000,
    at: float = T0,
    *,
    ranked: bool = True,
    players: int = 2,
    wait_s: int | None = 60,
) -> Ticket:
    return Ticket(
        id=f"t-{player}-0000",
        player=player,
        name=player.title(),
        status="searching",
        preset="dos-jugadores" if players == 2 else "parejas-111",
        players=players,
        ranked=ranked,
        turn_timeout_hours=None,
        on_timeout="auto",
        wait_s=wait_s,
        rating=rating,
        created_ms=int(at * 1000),
    )


def test_a_window_is_100_points_and_10_more_each_second_waited() -> None:
    t = ticket("ana")
    assert t.window(T0) == 100 and t.window(T0 + 1) == 110 and t.window(T0 + 30) == 400
    ended = Ticket(**{**t.__dict__, "status": "matched", "ended_at": T0 + 5})
    assert ended.window(T0 + 100) == 150  # frozen when it stopped searching


def test_ranked_tickets_meet_when_both_windows_span_the_gap() -> None:
    old, new = ticket("ana", 1000, T0), ticket("ben", 1250, T0 + 20)
    assert not may_meet(old, new, T0 + 20)  # old spans 300, new only 100
    assert not may_meet(old, new, T0 + 34)  # new spans 240
    assert may_meet(old, new, T0 + 35) and may_meet(new, old, T0 + 35)


def test_unranked_tickets_meet_whatever_their_ratings_but_never_across_queues() -> None:
    a, b = ticket("ana", 0, ranked=False), ticket("ben", 3000, ranked=False)
    assert may_meet(a, b, T0)
    assert not may_meet(a, ticket("cid", 1000), T0)  # ranked and unranked: two queues
    assert not may_meet(a, ticket("ana", 0, ranked=False), T0)  # nobody meets themselves


def test_the_oldest_ticket_that_can_be_matched_goes_first() -> None:
    lonely = ticket("ana", 2000, T0)  # oldest, but nobody near it yet
    b, c, d = ticket("ben", 1000, T0 + 1), ticket("cid", 1050, T0 + 2), ticket("dan", 990, T0 + 3)
    group = full_group([lonely, b, c, d], T0 + 3)
    assert group is not None and [t.player for t in group] == ["ben", "cid"]


def test_a_blocked_pair_never_meets() -> None:
    a, b, c = ticket("ana", at=T0), ticket("ben", at=T0 + 1), ticket("cid", at=T0 + 2)
    blocked = {("ana", "ben"), ("ben", "ana")}
    group = full_group([a, b, c], T0 + 2, lambda x, y: (x, y) in blocked)
    assert group is not None and [t.player for t in group] == ["ana", "cid"]


def test_bots_wait_for_wait_s_and_null_means_people_only() -> None:
    patient = ticket("ana", players=4, wait_s=30)
    never = ticket("ben", players=4, wait_s=None, at=T0 + 1)
    assert bot_group([patient, never], T0 + 29) is None
    group = bot_group([patient, never], T0 + 30)
    assert group is not None and [t.player for t in group] == ["ana", "ben"]
    assert bot_group([never], T0 + 10**6) is None


def test_bots_are_the_level_rated_closest_to_the_people() -> None:
    assert bot_level_for([ticket("ana", 1000)]) == min(
        BOT_RATINGS, key=lambda level: abs(BOT_RATINGS[level] - 1000)
    )
    assert bot_level_for([ticket("ana", 0), ticket("ben", 200)]) == "random"
    assert bot_level_for([ticket("ana", 3000)]) == "expert"


def test_in_pairs_the_best_sits_with_the_worst() -> None:
    four = [ticket(p, r, players=4) for p, r in [("a", 1500), ("b", 900), ("c", 1200), ("d", 1000)]]
    for _ in range(20):
        seats = [t.player for t in seat_order(four, pairs=True)]
        assert {seats[0], seats[2]} == {"a", "b"} and {seats[1], seats[3]} == {"c", "d"}


def test_a_ticket_is_looked_at_every_5_s_while_its_window_widens_then_at_its_deadlines() -> None:
    t = ticket("ana", wait_s=600)
    assert next_look(t, T0 + 1) == T0 + 1 + POLL_SECONDS
    assert next_look(t, T0 + POLL_FOR_SECONDS) == T0 + 601
    assert next_look(t, T0 + 700) == T0 + LIFETIME_SECONDS
    assert next_look(ticket("ben", wait_s=None), T0 + 400) == T0 + LIFETIME_SECONDS


def test_only_an_expiry_tells_the_holder() -> None:
    searching = ticket("ana")
    expired = Ticket(**{**searching.__dict__, "status": "expired", "version": 2})
    expired.ended_at = T0 + LIFETIME_SECONDS
    (notice,) = ticket_notices(searching, expired)
    assert (notice.player, notice.type, notice.game, notice.version) == (
        "ana",
        "match_expired",
        searching.id,
        2,
    )
    cancelled = Ticket(**{**searching.__dict__, "status": "cancelled", "version": 2})
    assert ticket_notices(searching, cancelled) == []
    assert ticket_notices(expired, expired) == []  # a redelivered image of the end
