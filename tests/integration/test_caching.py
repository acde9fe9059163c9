"""Fewer bytes and fewer polls: ETags and 304 on every GET, Cache-Control on answers that hold a
hand, the move log in pages, and "what changed since" for the caller's games."""

from __future__ import annotations

import pytest

from tests.integration.client import DOS_DEAL, NO_CLAIMS, Api
from tests.integration.table import OUTSIDER

pytestmark = pytest.mark.ddb


def duel(api: Api, **options: object) -> str:
    game = api.create("cira", preset="dos-jugadores", players=2, deal=DOS_DEAL, **options)
    game_id = str(game.ok(201)["id"])
    api.join(game_id, "dani").ok()
    return game_id


def test_a_view_read_twice_without_a_change_costs_one_body(api: Api) -> None:
    game = duel(api)
    first = api.get(game, "cira")
    tag = first.header("ETag")
    assert (first.status, tag, first.header("Cache-Control")) == (200, '"2-0"', PRIVATE)
    again = api.call("GET", f"/games/{game}", player="cira", headers={"If-None-Match": tag})
    assert (again.status, again.raw, again.header("ETag")) == (304, "", tag)
    assert again.header("Vary") == "Authorization"
    weak = api.call("GET", f"/games/{game}", player="cira", headers={"If-None-Match": f"W/{tag}"})
    assert weak.status == 304
    api.play(game, "dani", "6-6").ok()
    changed = api.call("GET", f"/games/{game}", player="cira", headers={"If-None-Match": tag})
    assert changed.status == 200 and changed.header("ETag") == '"3-0"'
    public = api.get(game, OUTSIDER)  # no hand in it, yet only for this caller: its URL is
    assert (public.header("ETag"), public.header("Cache-Control")) == ('"3-p"', PRIVATE)


PRIVATE = "private, no-cache"


def test_one_players_tag_never_revalidates_another_players_view(api: Api) -> None:
    """Each seat's view has its own ETag (version and viewer), ``Vary: Authorization`` and
    private caching, on the view and on the move log: Dani sending Cira's tag gets his own view
    (200), never a 304 that would let a cache show him Cira's hand. ``If-Match`` takes the tag
    or the bare version; a stale one is still 412 with the game."""
    game = duel(api)
    api.play(game, "dani", "6-6").ok()
    api.draw(game, "cira").ok()  # a drawn tile in Cira's move log, not in Dani's
    for path in (f"/games/{game}", f"/games/{game}/moves"):
        cira = api.call("GET", path, player="cira")
        dani = api.call("GET", path, player="dani")
        outsider = api.call("GET", path, player=OUTSIDER)
        tags = [r.header("ETag") for r in (cira, dani, outsider)]
        assert tags == ['"4-0"', '"4-1"', '"4-p"'], path
        for reply in (cira, dani, outsider):
            assert reply.header("Vary") == "Authorization", path
            assert reply.header("Cache-Control") == PRIVATE, path
        for other in ('"4-0"', 'W/"4-0"', '"4-p"', '"4"'):
            mixed = api.call("GET", path, player="dani", headers={"If-None-Match": other})
            assert (mixed.status, mixed.body) == (200, dani.body), (path, other)
        own = api.call("GET", path, player="dani", headers={"If-None-Match": '"x", "4-1"'})
        assert own.status == 304, path
    stale = api.play(game, "cira", "6-5", headers={"If-Match": '"3-0"'})
    assert (stale.status, stale.code, stale.header("ETag")) == (412, "version_mismatch", '"4-0"')
    assert stale.body["game"]["you"]["seat"] == 0
    you = api.get(game, "cira").ok()["you"]
    move = you["legal"][0] if you["legal"] else None
    if move is None:
        taken = api.draw(game, "cira", headers={"If-Match": '"4-0"'})
    else:
        taken = api.play(game, "cira", move["tile"], move.get("end"), headers={"If-Match": '"4-0"'})
    assert taken.ok()["version"] == 5 and taken.header("ETag") == '"5-0"'
    for bad in ('"5-x"', '"5-"', '"\U0001d7d3"', '"5-0'):
        refused = api.call(
            "POST", f"/games/{game}/draw", {}, player="dani", headers={"If-Match": bad}
        )
        assert (refused.status, refused.code) == (400, "invalid_request"), bad


def test_lists_have_etags_too(api: Api) -> None:
    duel(api)
    first = api.call("GET", "/me/games", player="cira")
    tag = first.header("ETag")
    assert first.status == 200 and tag and tag.startswith('W/"')
    same = api.call("GET", "/me/games", player="cira", headers={"If-None-Match": tag})
    assert (same.status, same.raw) == (304, "")
    duel(api)  # a new game: the list changed
    assert api.call("GET", "/me/games", player="cira", headers={"If-None-Match": tag}).status == 200
    inbox = api.call("GET", "/me/notifications", player="cira")
    inbox_tag = inbox.header("ETag") or ""
    assert inbox.status == 200 and inbox_tag
    headers = {"If-None-Match": inbox_tag}
    assert api.call("GET", "/me/notifications", player="cira", headers=headers).status == 304


def test_the_move_log_in_pages(api: Api) -> None:
    game = duel(api)
    api.play(game, "dani", "6-6").ok()
    players = {0: "cira", 1: "dani"}
    while (view := api.get(game, "cira").ok())["last_move"] < 6 and view["status"] == "playing":
        name = players[view["turn"]]
        you = api.get(game, name).ok()["you"]
        if you["legal"]:
            move = you["legal"][0]
            api.play(game, name, move["tile"], move.get("end")).ok()
        else:
            (api.draw if you["can_draw"] else api.pass_)(game, name).ok()
    last = api.get(game, "cira").ok()["last_move"]
    assert last >= 3
    first = api.moves(game, "cira", after=0, limit=2).ok()
    assert [m["n"] for m in first["moves"]] == [1, 2] and first["next"] == 2
    rest = api.moves(game, "cira", after=first["next"], limit=1000).ok()
    assert [m["n"] for m in rest["moves"]] == list(range(3, last + 1)) and rest["next"] is None
    for limit in (0, 1001, "x"):
        reply = api.call("GET", f"/games/{game}/moves?limit={limit}", player="cira")
        assert reply.code == "invalid_request"
    tag = api.moves(game, "cira", limit=100).header("ETag") or ""
    headers = {"If-None-Match": tag}
    assert api.call("GET", f"/games/{game}/moves", player="cira", headers=headers).status == 304


def test_what_changed_since(api: Api, dev_clock: object) -> None:
    older = duel(api)
    mine = api.call("GET", "/me/games?limit=100", player="cira").ok()["games"]
    since = max(g["updated_at"] for g in mine)
    dev_clock.advance(2)  # type: ignore[attr-defined]
    newer = duel(api)
    changed = api.call("GET", f"/me/games?updated_after={since}", player="cira").ok()["games"]
    assert [g["id"] for g in changed] == [newer] and older not in {g["id"] for g in changed}
    # any RFC 3339 form of the same time: a fraction of a second, another offset
    hour = int(since[11:13])
    east = f"{since[:11]}{(hour + 1) % 24:02d}{since[13:19]}%2B01:00" if hour < 23 else since
    for same in (since.replace("Z", ".250Z"), east, since.lower()):
        listed = api.call("GET", f"/me/games?updated_after={same}", player="cira").ok()["games"]
        assert [g["id"] for g in listed] == [newer], same
    for bad in ("yesterday", "2026-11-30", "2026-11-30T12:00:00", "2026-11-30T25:00:00Z", "x" * 30):
        reply = api.call("GET", f"/me/games?updated_after={bad}", player="cira")
        assert reply.code == "invalid_request", bad


def test_the_rules_have_an_etag(api: Api) -> None:
    first = api.call("GET", "/rules", player=NO_CLAIMS)
    tag = first.header("ETag") or ""
    assert first.status == 200 and tag.startswith('W/"')
    again = api.call("GET", "/rules", player=NO_CLAIMS, headers={"If-None-Match": tag})
    assert (again.status, again.raw) == (304, "")
