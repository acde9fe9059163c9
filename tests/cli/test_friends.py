"""Invitations, opponents, rematches, leaderboards, profiles and emotes from the terminal, over
HTTP on the local runtime (docs/api.md#strangers). Matches are finished over HTTP with the e2e
tests' ``Players`` helper: what is tested here is the client, not the play."""

from __future__ import annotations

import json
import math
import re
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from domino.service.vacations import periods
from domino_cli.comfort import vacation_until

from local.process import Runtime
from tests.cli.conftest import Player, cli_env
from tests.cli.test_play import created_game
from tests.deals import PREMOVE_DEAL
from tests.e2e.api_helpers import vacation_days
from tests.e2e.test_invitations import Players

pytestmark = pytest.mark.e2e

#: seconds the stream may take to count a finished match (opponents, stats)
WITHIN = 15
REMATCH = re.compile(r"Rematch: game (\S+)")


def people(runtime: Runtime, tmp_path: Path, *names: str) -> tuple[Players, list[Player]]:
    """Fresh players, both as the e2e helper (to finish matches fast) and as CLI users."""
    ps = Players(runtime, *names)
    cli = [
        Player(pid, ps.tokens[pid], cli_env(runtime, tmp_path / pid, ps.tokens[pid]))
        for pid in ps.ids
    ]
    return ps, cli


def as_json(player: Player, *args: str) -> Any:
    return json.loads(player.run(*args, "--json").stdout)


def playing(ana: Player, ben: Player) -> str:
    """A dos-jugadores game of the two, dealt."""
    game = created_game(ana.run("new", "dos-jugadores").stdout)
    assert ben.view(game)["status"] == "waiting"
    assert as_json(ben, "join", game)["status"] == "playing"
    return game


def opponents_once_counted(player: Player, count: int) -> list[dict[str, Any]]:
    """``domino opponents --json`` once the stream has counted ``count`` opponents."""
    deadline = time.monotonic() + WITHIN
    while True:
        found: list[dict[str, Any]] = as_json(player, "opponents")["opponents"]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_an_invitee_sees_the_reserved_seat_and_decline_frees_it(
    runtime: Runtime, tmp_path: Path
) -> None:
    ps, (ana, ben, cal) = people(runtime, tmp_path, "ana", "ben", "cal")
    ps.ok(ben.id, "PATCH", "/me", {"name": "Ben"})  # else the service knows no name of his
    invited = ana.run("invite", "dos-jugadores", ben.id).stdout
    game = created_game(invited)
    assert f"Invited: Ben ({ben.id})" in invited
    seat = ana.view(game)["seats"][1]
    assert (seat["player"], seat["invited"]) == (ben.id, True)
    listed = ben.run("games", "--status", "waiting").stdout
    assert game in listed and "Ben (invited)" in listed
    shown = ben.run("show", game).stdout
    assert f"Waiting for players: invited Ben ({ben.id})." in shown
    # nobody else may take it, nor decline it
    assert "error not_invited" in cal.run("decline", game, expect=1).stderr
    assert "error not_invited" in ana.run("decline", game, expect=1).stderr
    declined = ben.run("decline", game).stdout
    assert f"Declined the invitation to game {game}." in declined
    seat = ana.view(game)["seats"][1]
    assert (seat["player"], seat.get("invited")) == (None, False)
    assert ben.run("games").stdout == "No games.\n"
    assert "error not_invited" in ben.run("decline", game, expect=1).stderr  # not twice
    assert as_json(cal, "join", game)["status"] == "playing"  # the seat is free again


def test_invite_counts_the_invitees_in_the_default_seats(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana, ben, cal, dia) = people(runtime, tmp_path, "ana", "ben", "cal", "dia")
    text = ana.run("invite", "clasico", ben.id, cal.id, dia.id).stdout
    assert f"Invited: {ben.id}, {cal.id}, {dia.id}\n" in text  # no names known: the ids
    view = ana.view(created_game(text))
    assert len(view["seats"]) == 4  # clasico's fewest is 3: one for ana, three invited
    assert [(s["player"], s["invited"]) for s in view["seats"]] == [
        (ana.id, False),
        (ben.id, True),
        (cal.id, True),
        (dia.id, True),
    ]
    with_bot = as_json(ana, "invite", "clasico", ben.id, "--bots", "2", "--single")
    seats = [(s["player"], s["invited"], s["bot"]) for s in with_bot["seats"]]
    assert seats == [(ana.id, False, False), (ben.id, True, False)] + [(None, False, True)] * 2
    assert with_bot["rules"]["match"] == "single"
    refused = ana.run("invite", "dos-jugadores", ana.id, expect=1)
    assert refused.stderr.startswith("error invalid_request"), refused.output
    assert "Created game" not in refused.stdout


def test_opponents_and_profiles_after_finished_matches(runtime: Runtime, tmp_path: Path) -> None:
    ps, (ana, ben, cal) = people(runtime, tmp_path, "ana", "ben", "cal")
    assert ana.run("opponents").stdout.startswith("No opponents yet")
    ps.finished([ana.id, ben.id])
    assert [o["player"] for o in opponents_once_counted(ana, 1)] == [ben.id]
    time.sleep(1.1)  # last_played is in seconds: cal's match is later
    ps.finished([ana.id, cal.id])
    found = opponents_once_counted(ana, 2)
    assert [(o["player"], o["name"], o["matches"]) for o in found] == [
        (cal.id, "Cal", 1),
        (ben.id, "Ben", 1),
    ]
    table = ana.run("opponents").stdout
    for heading in ("name", "player", "matches", "last played"):
        assert heading in table
    assert table.index(cal.id) < table.index(ben.id)  # most recent first
    assert "Ben" in table and found[1]["last_played"][:10] in table
    limited = as_json(ana, "opponents", "--limit", "1")
    assert [o["player"] for o in limited["opponents"]] == [cal.id] and limited["next"]
    assert "Invalid value for '--limit'" in ana.run("opponents", "--limit", "0", expect=2).output
    profile = ana.run("player", ben.id).stdout
    assert f"Ben ({ben.id})" in profile and "matches 1, wins" in profile
    assert "No ratings yet." in profile  # the match was not rated
    assert as_json(ana, "player", ben.id)["stats"]["matches"] == 1
    missing = ana.run("player", f"nobody{uuid.uuid4().hex[:8]}", expect=1)
    assert missing.stderr.startswith("error not_found"), missing.output


def test_both_players_get_the_same_rematch(runtime: Runtime, tmp_path: Path) -> None:
    ps, (ana, ben, cal) = people(runtime, tmp_path, "ana", "ben", "cal")
    game = ps.finished([ana.id, ben.id])
    first = ana.run("rematch", game).stdout
    found = REMATCH.search(first)
    assert found, first
    new = found.group(1)
    assert new != game and f"Game {new}" in first  # and the new game is shown
    again = REMATCH.search(ben.run("rematch", game).stdout)
    assert again and again.group(1) == new
    assert ana.view(game)["rematch"] == new
    view = as_json(ben, "rematch", game)
    assert view["id"] == new and view["status"] == "playing"
    assert {s["player"] for s in view["seats"]} == {ana.id, ben.id}
    assert "error not_a_player" in cal.run("rematch", game, expect=1).stderr
    assert "error match_not_over" in ana.run("rematch", new, expect=1).stderr


def set_rating(runtime: Runtime, player: str, pool: str, shown: int, games: int = 10) -> None:
    """A rating that shows ``shown`` (sigma 1: shown = 1000 + 40 (mu - 3))."""
    body = {"player": player, "pool": pool, "mu": (shown - 1000) / 40 + 3, "sigma": 1.0}
    status, _, answer = runtime.request("POST", "/dev/rating", body | {"games": games})
    assert status == 204, answer


def test_top_ranks_established_ratings_and_says_where_you_stand(
    runtime: Runtime, tmp_path: Path
) -> None:
    pool = "infantil:5"  # no other test rates this pool
    _, (ana, ben, new) = people(runtime, tmp_path, "ana", "ben", "new")
    set_rating(runtime, ana.id, pool, 2950)
    set_rating(runtime, ben.id, pool, 2900)
    set_rating(runtime, new.id, pool, 3000, games=4)  # provisional: left out of the top
    board = as_json(ben, "top", pool, "--limit", "2")
    assert [(r["rank"], r["player"], r["rating"]) for r in board["players"]] == [
        (1, ana.id, 2950),
        (2, ben.id, 2900),
    ]
    assert board["pool"] == pool and "me" not in board
    text = ben.run("top", pool, "--limit", "2", "--me").stdout
    rows = [
        line.replace("│", " ").split()
        for line in text.splitlines()
        if ana.id in line or ben.id in line
    ]
    assert [(row[0], row[2], row[3]) for row in rows] == [
        ("1", ana.id, "2950"),
        ("2", ben.id, "2900"),
    ]
    assert re.search(r"You: rating 2900, rank 2, percentile \d+(\.\d)?$", text, re.M), text
    assert new.id not in text
    mine = as_json(new, "top", pool, "--limit", "1", "--me")["me"]
    assert (mine["rating"], mine["provisional"], mine["rank"]) == (3000, True, None)
    provisional = new.run("top", pool, "--limit", "1", "--me").stdout
    assert "You: rating 3000, provisional (4 rated matches)" in provisional
    profile = ana.run("player", ana.id).stdout.replace("│", " ")
    assert re.search(rf"^ *{pool} +2950 +10 *$", profile, re.M), profile
    assert profile.startswith(f"{ana.id} · since ")  # no name known: the id once
    assert "error invalid_request" in ana.run("top", "infantil:9", expect=1).stderr


def test_emotes_are_throttled_and_checked(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana, ben, cal) = people(runtime, tmp_path, "ana", "ben", "cal")
    game = playing(ana, ben)
    assert ana.run("emote", game, "hello").stdout == "Sent hello.\n"
    throttled = ana.run("emote", game, "thanks", expect=1)  # within 3 s of the first
    assert throttled.stderr.startswith("error throttled"), throttled.output
    assert throttled.stdout == ""
    assert ben.run("emote", game, "good_game").stdout == "Sent good_game.\n"  # ben's own limit
    bad = ana.run("emote", game, "you_suck", expect=2)
    assert "Invalid value" in bad.output and "well_played" in bad.output
    outsider = cal.run("emote", game, "hello", expect=1)
    assert outsider.stderr.startswith("error not_a_player"), outsider.output


def test_settings_turn_forced_moves_on_and_off(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana,) = people(runtime, tmp_path, "ana")
    assert "Forced moves made for you at once: off" in ana.run("settings").stdout
    assert as_json(ana, "settings", "--auto-forced")["auto_forced"] is True
    assert "at once: on" in ana.run("settings").stdout
    assert as_json(ana, "settings", "--no-auto-forced")["auto_forced"] is False


def test_review_shows_a_finished_matchs_deals_and_moves(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana,) = people(runtime, tmp_path, "ana")
    game = as_json(ana, "new", "dos-jugadores", "--bots", "1")["id"]
    ana.run("leave", game)  # the bots play it out
    refused = ana.run("review", "NoSuchGame00000000000x", expect=1)
    assert refused.stderr.startswith("error game_not_found"), refused.output
    shown = ana.run("review", game).stdout
    assert "hand 1," in shown and "match won by" in shown
    record = as_json(ana, "review", game)
    assert record["hands"][0]["moves"] and record["seed"]


@pytest.mark.parametrize("days", [0.001, 1, 3, 30])
def test_a_vacation_of_n_days_costs_n_on_a_server_clock_up_to_a_minute_behind(days: float) -> None:
    """``--days N`` ends five minutes short of N days on the terminal's clock, so a server
    whose clock is behind (the terminal a few seconds ahead) still counts N periods, and all
    30 days asked with 30 left are granted; a tiny vacation stays in the future."""
    terminal = datetime(2026, 12, 7, 16, 0, 0, 250_000, tzinfo=UTC)
    until = datetime.fromisoformat(vacation_until(days, terminal))
    for behind in (0.0, 1.5, 60.0):
        server_now = int(terminal.timestamp() - behind)
        assert server_now < until.timestamp()
        assert periods(server_now, int(until.timestamp())) == max(1, math.ceil(days))


def test_vacation_from_the_terminal(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana,) = people(runtime, tmp_path, "ana")
    assert "Not on vacation." in ana.run("vacation").stdout
    asked = datetime.now(UTC)
    away = as_json(ana, "vacation", "--days", "3")
    assert away["days_left"] == 30 - vacation_days(runtime, away["until"], asked, 3), away
    assert "On vacation until" in ana.run("vacation").stdout
    assert as_json(ana, "vacation", "--end") == {"until": None, "days_left": 29}
    refused = ana.run("vacation", "--days", "40", expect=1)
    assert refused.stderr.startswith("error vacation_exhausted"), refused.output


def test_settings_set_and_end_quiet_hours(runtime: Runtime, tmp_path: Path) -> None:
    _, (ana,) = people(runtime, tmp_path, "ana")
    assert "Quiet hours: none" in ana.run("settings").stdout
    quiet = as_json(ana, "settings", "--quiet", "22:00-08:00", "--tz", "Europe/Madrid")
    assert quiet["quiet_hours"] == {"from": "22:00", "to": "08:00", "tz": "Europe/Madrid"}
    assert "Quiet hours: 22:00 to 08:00 (Europe/Madrid)" in ana.run("settings").stdout
    bad = ana.run("settings", "--quiet", "22:00-08:00", "--tz", "Mars/Olympus", expect=1)
    assert bad.stderr.startswith("error invalid_request"), bad.output
    assert as_json(ana, "settings", "--no-quiet")["quiet_hours"] is None


def test_a_premove_from_the_terminal_is_played_when_its_line_matches(
    runtime: Runtime, tmp_path: Path
) -> None:
    ps, (ana, ben) = people(runtime, tmp_path, "ana", "ben")
    body = {"preset": "dos-jugadores", "players": 2, "deal": PREMOVE_DEAL}
    game = str(ps.ok(ana.id, "POST", "/games", body, status=201)["id"])
    ps.ok(ben.id, "POST", f"/games/{game}/join", {})
    shown = ana.run("premove", game, "--if", "1:play:6-6", "--then", "6-5:left").stdout
    assert "If seat 1 play 6-6: you play 5-6 on left." in shown
    bad = ana.run("premove", game, "--if", "1:jump", "--then", "5-6", expect=None)
    assert bad.exit_code != 0 and "SEAT:play:TILE" in bad.output
    ps.ok(ben.id, "POST", f"/games/{game}/play", {"tile": "6-6"})
    last = as_json(ana, "moves", game)[-1]
    assert (last["seat"], last["tile"], last.get("premove")) == (0, "5-6", True)
    assert "cleared" in ana.run("premove", game, "--clear").stdout
