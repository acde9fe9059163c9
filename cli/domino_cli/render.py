"""What the commands print, with rich: a game view, the lists, the move log, the inbox, the
opponents, a leaderboard and a player's profile.

Plain text stays readable without colour (a pipe, a test): a legal tile is also starred and the
seat on turn is marked with an arrow, not by colour alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from domino_cli.board import draw_board

TURN_MARK = "▶"
#: the API's game ids: 16 random bytes in URL-safe base64
GAME_ID_LENGTH = 22


def tile_text(tile: str) -> str:
    """``"3-5"`` as a tile is drawn: ``[3|5]``."""
    low, high = tile.split("-")
    return f"[{low}|{high}]"


def seat_name(view: Mapping[str, Any], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    for entry in view.get("seats", []):
        if entry["seat"] == seat:
            return str(entry.get("name") or entry.get("player") or f"seat {seat}")
    return f"seat {seat}"


def open_seats(view: Mapping[str, Any]) -> list[int]:
    """The seats nobody sits in yet (a bot's seat has no player either, but is taken)."""
    return [
        seat["seat"]
        for seat in view.get("seats", [])
        if seat.get("player") is None and not seat.get("bot")
    ]


def who(name: Any, player: str) -> str:
    """``Name (player id)``, or the id alone when the name is missing or is the id."""
    return player if name in (None, "", player) else f"{name} ({player})"


def invited_seats(view: Mapping[str, Any]) -> list[str]:
    """The seats kept for invitees who have not joined yet, each as :func:`who`."""
    return [
        who(seat.get("name"), seat["player"])
        for seat in view.get("seats", [])
        if seat.get("invited") and seat.get("player")
    ]


def render_game(console: Console, view: Mapping[str, Any]) -> None:
    """The whole view: header, seats, board, the caller's hand and what they may do, the last
    hand's revealed tiles and the match's result."""
    you = view.get("you")
    rules = view.get("rules") or {}
    header = Text(f"Game {view['id']}", style="bold")
    header.append(f"  {view.get('preset')} · {view.get('status')}", style="cyan")
    if view.get("hand_number"):
        header.append(f" · hand {view['hand_number']}")
    header.append(f" · version {view.get('version')}", style="dim")
    console.print(header)
    console.print(seats_table(view))
    if view.get("status") == "waiting":
        waiting = [f"open seats {open_seats(view)}"] if open_seats(view) else []
        waiting += [f"invited {', '.join(invited_seats(view))}"] if invited_seats(view) else []
        console.print(
            Text("Waiting for players" + (f": {'; '.join(waiting)}." if waiting else "."))
        )
    else:
        layout = str(rules.get("layout", "line"))
        for line in draw_board(view.get("board") or {}, layout, console.width):
            console.print(Text(line))
        console.print(
            Text(f"boneyard {view.get('boneyard', 0)} (drawable {view.get('drawable', 0)})"),
            style="dim",
        )
    if you:
        render_you(console, view, you)
    if view.get("last_hand"):
        render_hand_result(console, view, view["last_hand"], "Last hand")
    if view.get("result") and view["result"] != view.get("last_hand"):
        render_hand_result(console, view, view["result"], "Result")
    render_status(console, view)


def seats_table(view: Mapping[str, Any]) -> Table:
    you = (view.get("you") or {}).get("seat")
    table = Table(box=None, pad_edge=False, show_edge=False)
    for column in ("", "seat", "name", "tiles", "score"):
        table.add_column(column, justify="right" if column in ("tiles", "score") else "left")
    with_teams = any(s.get("team") is not None for s in view.get("seats", []))
    with_chips = any(s.get("chips") is not None for s in view.get("seats", []))
    if with_teams:
        table.add_column("team")
    if with_chips:
        table.add_column("chips", justify="right")
    for seat in view.get("seats", []):
        name = seat.get("name") or seat.get("player") or "(open)"
        name += " (bot)" if seat.get("bot") else ""
        name += " (invited)" if seat.get("invited") else ""
        name += " (away)" if seat.get("away") else ""
        name += " (you)" if seat["seat"] == you else ""
        row = [
            TURN_MARK if seat["seat"] == view.get("turn") else "",
            str(seat["seat"]),
            name,
            str(seat.get("tiles", "")),
            str(seat.get("score", "")),
        ]
        if with_teams:
            row.append(str(seat.get("team")))
        if with_chips:
            row.append(str(seat.get("chips")))
        table.add_row(*row, style="bold" if seat["seat"] == view.get("turn") else None)
    return table


def render_you(console: Console, view: Mapping[str, Any], you: Mapping[str, Any]) -> None:
    legal: Sequence[Mapping[str, Any]] = you.get("legal") or []
    playable = {play["tile"] for play in legal}
    hand = Text("your hand: ")
    for tile in you.get("hand", []):
        if tile in playable:
            hand.append(tile_text(tile) + "*", style="bold green")
        else:
            hand.append(tile_text(tile), style="dim")
        hand.append(" ")
    console.print(hand)
    if you.get("drawn"):
        console.print(Text(f"you drew {tile_text(you['drawn'])}"), style="yellow")
    if legal:
        ends_of: dict[str, list[str]] = {}  # a tile once, with every end it fits
        for play in legal:
            # games that score during play: what each play would make now ("right+10")
            made = f"+{play['scores']}" if play.get("scores") else ""
            end = play.get("end")
            ends_of.setdefault(play["tile"], []).extend([f"{end}{made}"] if end else [])
        plays = ", ".join(
            tile + (f" {'/'.join(ends)}" if ends else "") for tile, ends in ends_of.items()
        )
        console.print(Text(f"legal: {plays}"), style="green")


def render_hand_result(
    console: Console, view: Mapping[str, Any], outcome: Mapping[str, Any], title: str
) -> None:
    winners = ", ".join(seat_name(view, seat) for seat in outcome.get("winners", [])) or "nobody"
    console.print(
        Text(f"{title} (hand {outcome.get('hand_number')}): {outcome.get('reason')}, won by ")
        + Text(winners, style="bold")
    )
    points = outcome.get("points") or {}
    during = outcome.get("play_points")  # games that score during play
    for seat, tiles in sorted((outcome.get("hands") or {}).items(), key=lambda kv: int(kv[0])):
        shown = " ".join(tile_text(tile) for tile in tiles) or "(out)"
        scored = points.get(seat, 0)
        split = ""
        if during is not None:
            bonus = (outcome.get("bonus") or {}).get(seat, 0)
            split = f" ({during.get(seat, 0)} playing, {bonus} at the end)"
        console.print(Text(f"  {seat_name(view, int(seat))}: {shown}  {scored:+d}{split}"))
    if outcome.get("match_over"):
        match_winners = outcome.get("match_winners") or []
        names = ", ".join(seat_name(view, seat) for seat in match_winners)
        verdict = f"Match over: {names} won." if match_winners else "Match over: a draw."
        console.print(Text(verdict, style="bold magenta"))


def render_status(console: Console, view: Mapping[str, Any]) -> None:
    """One line saying what happens next, and for the caller on turn what they may do."""
    you = view.get("you") or {}
    if view.get("status") != "playing":
        return
    turn = view.get("turn")
    if you and turn == you.get("seat"):
        options = ["play"] if you.get("legal") else []
        options += ["draw"] if you.get("can_draw") else []
        options += ["pass"] if you.get("can_pass") else []
        options += ["cede"] if you.get("can_cede") else []
        console.print(Text(f"{TURN_MARK} your turn: {' / '.join(options)}", style="bold yellow"))
    lead = view.get("lead")
    if lead:  # a team choosing its leader (cubano)
        offered = seat_name(view, lead["offered"])
        said = "ceded the lead" if lead["ceded"] else "is offered the lead"
        console.print(Text(f"{offered} {said}", style="dim"))
    else:
        console.print(Text(f"{TURN_MARK} {seat_name(view, turn)}'s turn"))
    if view.get("deadline"):
        console.print(Text(f"deadline {view['deadline']}", style="dim"))


def id_column(header: str = "id") -> Column:
    """Ids are typed back into commands: never cut short, whatever the terminal's width."""
    return Column(header, no_wrap=True, min_width=GAME_ID_LENGTH)


def when(timestamp: Any) -> str:
    """``2026-12-01T03:29:07Z`` as ``2026-12-01 03:29:07`` (UTC, as the API gives it)."""
    return str(timestamp or "").replace("T", " ").removesuffix("Z")


def render_games(console: Console, games: Sequence[Mapping[str, Any]]) -> None:
    if not games:
        console.print("No games.")
        return
    table = Table(id_column(), "preset", "status", "turn", "seats", "updated")
    for game in games:
        seats = game.get("seats", [])
        if game.get("your_turn"):
            turn = Text("you", style="bold yellow")
        elif game.get("turn") is not None:
            turn = Text(next((s["name"] or "?" for s in seats if s["seat"] == game["turn"]), "?"))
        else:
            turn = Text("-")
        names = ", ".join(
            (s.get("name") or "(open)")
            + (" (bot)" if s.get("bot") else "")
            + (" (invited)" if s.get("invited") else "")
            + (" (away)" if s.get("away") else "")
            for s in seats
        )
        updated = when(game.get("updated_at"))
        table.add_row(game["id"], game["preset"], game["status"], turn, names, updated)
    console.print(table)


def render_premoves(console: Console, lines: list[Mapping[str, Any]]) -> None:
    """``domino premove``: the lines as the server keeps them."""
    for line in lines:
        seen = ", then ".join(
            f"seat {m['seat']} {m['action']}"
            + (f" {m['tile']}" if m.get("tile") else "")
            + (f" on {m['end']}" if m.get("end") else "")
            for m in line["if"]
        )
        then = line["then"]
        reply = then["tile"] + (f" on {then['end']}" if then.get("end") else "")
        console.print(f"If {seen or 'nothing is played'}: you play {reply}.")


def render_settings(console: Console, me: Mapping[str, Any]) -> None:
    """``domino settings``: who you are and what the server does for you."""
    console.print(f"{me['name']} ({me['player']})")
    state = "on" if me.get("auto_forced") else "off"
    console.print(f"Forced moves made for you at once: {state}")
    quiet = me.get("quiet_hours")
    if quiet:
        console.print(f"Quiet hours: {quiet['from']} to {quiet['to']} ({quiet['tz']})")
    else:
        console.print("Quiet hours: none")


def render_vacation(console: Console, vacation: Mapping[str, Any]) -> None:
    """``domino vacation``: away until when, and the days left of the 30 in any 365."""
    until = vacation.get("until")
    console.print(f"On vacation until {until}." if until else "Not on vacation.")
    console.print(f"Days left this year: {vacation['days_left']}")


def describe_move(move: Mapping[str, Any]) -> str:
    action = str(move["action"])
    if action == "timeout":
        action = f"timeout → {move.get('move')}" + (" (forfeit)" if move.get("forfeit") else "")
    tile = f" {tile_text(move['tile'])}" if move.get("tile") else ""
    end = f" on {move['end']}" if move.get("end") else ""
    scored = f" +{move['scored']}" if move.get("scored") else ""  # All Fives' count
    marked = " (train marked)" if move.get("marked") else ""  # Mexican Train
    auto = " (auto: the only move)" if move.get("auto") else ""  # PATCH /me auto_forced
    return f"{action}{tile}{end}{scored}{marked}{auto}"


def render_record(console: Console, record: Mapping[str, Any]) -> None:
    """``domino review``: each hand's deal, its moves (drawn tiles shown) and its points."""
    names = {s["seat"]: s["name"] or f"seat {s['seat']}" for s in record["seats"]}
    console.print(f"{record['preset']}: {record['started_at']} to {record['finished_at']}")
    for hand in record["hands"]:
        console.rule(f"hand {hand['hand_number']}, {names.get(hand['opener'])} leads")
        for seat, tiles in hand["deal"].items():
            console.print(f"{names.get(int(seat))}: {' '.join(tile_text(t) for t in tiles)}")
        render_moves(console, hand["moves"])
        result = hand.get("result")
        if result:
            points = ", ".join(f"{names.get(int(s))} {p}" for s, p in result["points"].items())
            console.print(f"{result['reason']}: {points}")
    final = record.get("result") or {}
    winners = [names.get(s) for s in final.get("match_winners", [])]
    console.print(f"match won by {', '.join(str(w) for w in winners) or 'nobody'}")


def render_moves(console: Console, moves: Sequence[Mapping[str, Any]]) -> None:
    table = Table("n", "hand", "seat", "move", "at")
    for move in moves:
        seat = move.get("seat")
        table.add_row(
            str(move["n"]),
            str(move.get("hand_number", "")),
            "" if seat is None else str(seat),
            Text(describe_move(move)),
            when(move.get("at")),
        )
    console.print(table)


def render_inbox(console: Console, inbox: Mapping[str, Any]) -> None:
    notes = inbox.get("notifications", [])
    console.print(Text(f"{inbox.get('unread', 0)} unread", style="bold"))
    if not notes:
        return
    table = Table("", "when", "type", id_column("game"), "message")
    for note in notes:
        table.add_row(
            "" if note.get("read") else "●",
            when(note.get("created_at")),
            str(note.get("type", "")),
            str(note.get("game", "")),
            Text(f"{note.get('title', '')}: {note.get('body', '')}"),
        )
    console.print(table)


def render_opponents(console: Console, opponents: Sequence[Mapping[str, Any]]) -> None:
    if not opponents:
        console.print("No opponents yet: nobody you have finished a match with.")
        return
    table = Table("name", Column("player", no_wrap=True), "matches", "last played")
    for opponent in opponents:
        table.add_row(
            Text(str(opponent.get("name") or "")),
            str(opponent["player"]),
            str(opponent.get("matches", "")),
            when(opponent.get("last_played")),
        )
    console.print(table)


def render_leaderboard(console: Console, board: Mapping[str, Any]) -> None:
    rows = board.get("players", [])
    if not rows:
        console.print(f"Nobody has an established rating in {board.get('pool')} yet.")
        return
    table = Table(
        Column("rank", justify="right"),
        "name",
        Column("player", no_wrap=True),
        Column("rating", justify="right"),
        Column("games", justify="right"),
        title=f"Leaderboard {board.get('pool')}",
    )
    for row in rows:
        table.add_row(
            str(row["rank"]),
            Text(str(row.get("name") or "")),
            str(row["player"]),
            str(row["rating"]),
            str(row.get("games", "")),
        )
    console.print(table)


def render_my_rank(console: Console, mine: Mapping[str, Any]) -> None:
    """``You: rating R, rank K, percentile P``; a provisional rating has neither."""
    line = f"You: rating {mine['rating']}"
    if mine.get("provisional"):
        line += f", provisional ({mine.get('games', 0)} rated matches)"
    else:
        rank = mine.get("rank")
        line += f", rank {rank}" if rank is not None else ", rank beyond the top 1000"
        line += f", percentile {mine.get('percentile')}"
    console.print(Text(line, style="bold"))


def render_player(console: Console, profile: Mapping[str, Any]) -> None:
    header = Text(who(profile.get("name"), str(profile["player"])), style="bold")
    if profile.get("since"):
        header.append(f" · since {when(profile['since'])}", style="dim")
    console.print(header)
    stats = profile.get("stats") or {}
    console.print(
        Text(
            f"matches {stats.get('matches', 0)}, wins {stats.get('wins', 0)}, "
            f"forfeits {stats.get('forfeits', 0)}"
        )
    )
    ratings = profile.get("ratings") or []
    if not ratings:
        console.print("No ratings yet.")
        return
    table = Table("pool", Column("rating", justify="right"), Column("games", justify="right"), "")
    for rating in ratings:
        table.add_row(
            str(rating["pool"]),
            str(rating["rating"]),
            str(rating.get("games", "")),
            "provisional" if rating.get("provisional") else "",
        )
    console.print(table)
