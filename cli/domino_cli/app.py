"""The ``domino`` command: one subcommand per thing a player does, over the public HTTP API.

Exit codes: 0 done; 1 the API refused (its error code is printed); 2 a usage error (typer's);
3 the API or its WebSocket could not be reached; 4 ``watch --count`` timed out, or ``match``
found no match.
"""

from __future__ import annotations

import getpass
import json
import re
import time
import webbrowser
from enum import StrEnum
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.text import Text

from domino_cli import comfort, config, live, oauth, render
from domino_cli.api import Api, ApiError, game_path
from domino_cli.common import (
    EXIT_API_ERROR,
    EXIT_TIMED_OUT,
    EXIT_USAGE,
    TAKES_A_GAME_ID,
    AsJson,
    GameId,
    IfMatch,
    api,
    err,
    out,
    print_json,
    reported,
    show_view,
)


class Emote(StrEnum):
    """The emotes the API accepts (docs/api.md#emotes): typer refuses any other."""

    hello = "hello"
    good_game = "good_game"
    well_played = "well_played"
    thanks = "thanks"
    oops = "oops"
    thinking = "thinking"


app = typer.Typer(
    name="domino",
    help="Play dominoes from the terminal against the domino API.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# the correspondence commands (domino_cli/comfort.py)
app.command()(comfort.settings)
app.command(context_settings=TAKES_A_GAME_ID)(comfort.premove)
app.command()(comfort.vacation)
app.command(context_settings=TAKES_A_GAME_ID)(comfort.review)


@app.command()
def login(
    name: Annotated[str | None, typer.Option(help="Your display name (local runtime).")] = None,
    player: Annotated[
        str | None, typer.Option(help="Your player id (local runtime); default: from the name.")
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(help="Store this token (a deployed stack's Cognito/OIDC JWT) as it is."),
    ] = None,
    hosted: Annotated[
        bool, typer.Option(help="Sign in on the stack's hosted page, in your browser.")
    ] = False,
    auth_domain: Annotated[
        str | None,
        typer.Option(help="With --hosted: https://<prefix>.auth.<region>.amazoncognito.com"),
    ] = None,
    client_id: Annotated[
        str | None, typer.Option(help="With --hosted: the stack's app client id.")
    ] = None,
    port: Annotated[
        int, typer.Option(help="With --hosted: the loopback port of the callback URL.")
    ] = oauth.DEFAULT_PORT,
    url: Annotated[str | None, typer.Option(help="The API's URL.", show_default=False)] = None,
    ws_url: Annotated[
        str | None, typer.Option(help="The WebSocket API's URL (deployed stacks).")
    ] = None,
) -> None:
    """Log in: a dev token from the local runtime, a given token, or the stack's hosted
    sign-in (--hosted: the browser opens it, http://localhost:PORT/callback gets the answer)."""
    stored = config.load()
    base = (url or stored.url).rstrip("/")
    refresh_token = None
    domain = auth_domain or stored.auth_domain
    client = client_id or stored.client_id
    if hosted:
        if not domain or not client:
            err.print(Text("--hosted needs --auth-domain and --client-id", style="bold red"))
            raise typer.Exit(EXIT_USAGE)
        out.print(f"Opening the sign-in page; waiting on http://localhost:{port}/callback ...")
        try:
            tokens = oauth.sign_in(oauth.Hosted(domain, client), show_and_open, port)
        except oauth.SignInFailed as error:
            err.print(Text(f"sign-in failed: {error}", style="bold red"))
            raise typer.Exit(EXIT_API_ERROR) from None
        token, refresh_token = tokens.id_token, tokens.refresh_token
    with reported():
        if token is None:
            player_id = player or player_id_of(name or getpass.getuser())
            answer = Api(base, None).post("/dev/token", {"player": player_id, "name": name})
            token = str(answer["token"])
        me = Api(base, token).get("/me")  # proves the token before it is kept
    settings = config.Settings(
        url=base,
        token=token,
        ws_url=ws_url or stored.ws_url,
        auth_domain=domain if hosted else None,
        client_id=client if hosted else None,
        refresh_token=refresh_token,
    )
    path = config.save(settings)
    out.print(f"Logged in as {me.get('name')} ({me.get('player')}) at {base}.")
    out.print(Text(f"Settings saved in {path}.", style="dim"))


def show_and_open(url: str) -> None:
    """Open ``url`` in the person's browser, and print it for a machine without one."""
    out.print(f"If no browser opens, visit:\n{url}")
    webbrowser.open(url)


def player_id_of(name: str) -> str:
    """A player id from a display name: lower case letters, digits, ``-`` and ``_``."""
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "player"


Players = Annotated[int | None, typer.Option(help="Seats; default: the fewest the preset allows.")]
Bots = Annotated[int, typer.Option(help="Computer players in the last seats.")]
BotLevel = Annotated[
    str | None,
    typer.Option(help="The bots' level: random, greedy, strategist or expert (the default)."),
]
Private = Annotated[bool, typer.Option(help="Keep the game out of the open list.")]
Single = Annotated[bool, typer.Option(help="Play one hand, not a whole match.")]
TableName = Annotated[str | None, typer.Option(help="Your name at this table.")]
Preset = Annotated[str, typer.Argument(help="A preset id: clasico, dos-jugadores, …")]


def game_body(
    client: Api,
    preset: str,
    *,
    players: int | None,
    bots: int,
    bot_level: str | None,
    private: bool,
    single: bool,
    name: str | None,
    seed: int | None = None,
    invite: list[str] | None = None,
) -> dict[str, Any]:
    """The body of ``POST /games``: without ``players``, the fewest seats that hold the bots
    and the invitees besides the creator."""
    others = bots + len(invite or [])
    body: dict[str, Any] = {
        "preset": preset,
        "players": players or fewest_players(client, preset, others),
    }
    optional = {"bots": bots or None, "bot_level": bot_level, "name": name, "seed": seed}
    body.update({key: value for key, value in optional.items() if value is not None})
    if invite:
        body["invite"] = invite
    if private:
        body["private"] = True
    if single:
        body["rules"] = {"match": "single"}
    return body


def show_created(client: Api, view: dict[str, Any]) -> None:
    """A new game's id, who is invited, how others join, and the game."""
    out.print(Text(f"Created game {view['id']}", style="bold"))
    invited = render.invited_seats(view)
    if invited:
        out.print(Text(f"Invited: {', '.join(invited)}"))
    if render.open_seats(view):
        out.print(f"Others join with:  domino join {view['id']}")
        # the web client's join link: the local runtime serves the page beside the API
        out.print(f"or in a browser:   {client.base}/?join={quote(view['id'], safe='')}")
    render.render_game(out, view)


@app.command()
def new(
    preset: Preset,
    players: Players = None,
    bots: Bots = 0,
    bot_level: BotLevel = None,
    private: Private = False,
    single: Single = False,
    name: TableName = None,
    seed: Annotated[int | None, typer.Option(hidden=True, help="Dev mode: fixed shuffles.")] = None,
    as_json: AsJson = False,
) -> None:
    """Create a game; you take seat 0."""
    post_game(
        as_json,
        preset,
        players=players,
        bots=bots,
        bot_level=bot_level,
        private=private,
        single=single,
        name=name,
        seed=seed,
    )


@app.command()
def invite(
    preset: Preset,
    player_ids: Annotated[list[str], typer.Argument(metavar="PLAYER_ID", help="Who to invite.")],
    players: Players = None,
    bots: Bots = 0,
    bot_level: BotLevel = None,
    private: Private = False,
    single: Single = False,
    name: TableName = None,
    as_json: AsJson = False,
) -> None:
    """Create a game with seats kept for the players you invite; you take seat 0."""
    post_game(
        as_json,
        preset,
        players=players,
        bots=bots,
        bot_level=bot_level,
        private=private,
        single=single,
        name=name,
        invite=player_ids,
    )


def post_game(as_json: bool, preset: str, **options: Any) -> None:
    """``POST /games`` with ``game_body``'s fields, then the game created (or its JSON)."""
    client = api()
    with reported():
        view = client.post("/games", game_body(client, preset, **options))
    if as_json:
        print_json(view)
    else:
        show_created(client, view)


@app.command(context_settings=TAKES_A_GAME_ID)
def decline(game: GameId, as_json: AsJson = False) -> None:
    """Decline an invitation: your reserved seat is freed."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/decline", {})
    if as_json:
        print_json(view)
    else:
        out.print(f"Declined the invitation to game {view['id']}.")


@app.command(context_settings=TAKES_A_GAME_ID)
def rematch(game: GameId, as_json: AsJson = False) -> None:
    """The next match of a finished game with the same players: made, or the one made already."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/rematch", {})
    if as_json:
        print_json(view)
        return
    out.print(Text(f"Rematch: game {view['id']}", style="bold"))
    render.render_game(out, view)


@app.command(context_settings=TAKES_A_GAME_ID)
def emote(
    game: GameId,
    which: Annotated[Emote, typer.Argument(metavar="EMOTE", help="What to say.")],
) -> None:
    """Send an emote to the table (at most one every 3 seconds)."""
    client = api()
    with reported():
        client.post(f"{game_path(game)}/emotes", {"emote": which.value})
    out.print(f"Sent {which.value}.")


#: the most rows one page of a list holds (the API's ``limit`` maximum)
PAGE_LIMIT = 100
Limit = Annotated[int, typer.Option(min=1, help="How many rows at most.")]


def collect(client: Api, path: str, key: str, limit: int) -> dict[str, Any]:
    """Up to ``limit`` rows of a paged list: the last page's answer, its ``key`` holding every
    row read, and its ``next`` cursor."""
    rows: list[Any] = []
    cursor = None
    while True:
        page = client.get(path, limit=min(limit - len(rows), PAGE_LIMIT), cursor=cursor)
        rows += page[key]
        cursor = page.get("next")
        if not cursor or len(rows) >= limit:
            return {**page, key: rows}


@app.command()
def opponents(limit: Limit = 20, as_json: AsJson = False) -> None:
    """The people you have played finished matches with, most recent first."""
    client = api()
    with reported():
        answer = collect(client, "/me/opponents", "opponents", limit)
    if as_json:
        print_json(answer)
    else:
        render.render_opponents(out, answer["opponents"])


@app.command()
def top(
    pool: Annotated[str, typer.Argument(help="A pool, preset:players (dos-jugadores:2).")],
    limit: Limit = 20,
    me: Annotated[bool, typer.Option("--me", help="Your own rating and rank too.")] = False,
    as_json: AsJson = False,
) -> None:
    """A pool's leaderboard, highest first (provisional ratings are left out)."""
    client = api()
    path = f"/leaderboards/{quote(pool, safe=':')}"
    with reported():
        answer = collect(client, path, "players", limit)
        mine = client.get(f"{path}/me") if me else None
    if as_json:
        print_json(answer | ({"me": mine} if mine is not None else {}))
        return
    render.render_leaderboard(out, answer)
    if mine is not None:
        render.render_my_rank(out, mine)


@app.command()
def player(
    player_id: Annotated[str, typer.Argument(help="The player's id.")], as_json: AsJson = False
) -> None:
    """A player's profile: name, ratings per pool and match stats."""
    client = api()
    with reported():
        profile = client.get(f"/players/{quote(player_id, safe='')}")
    if as_json:
        print_json(profile)
    else:
        render.render_player(out, profile)


#: how often ``domino match`` asks whether its ticket was matched
MATCH_POLL_SECONDS = 1.0


@app.command("match")
def quick_match(
    preset: Preset,
    players: Players = None,
    ranked: Annotated[bool, typer.Option(help="Rated, and matched by rating.")] = True,
    wait: Annotated[
        int | None,
        typer.Option(help="Seconds before bots take the empty seats (default 60)."),
    ] = None,
    people_only: Annotated[bool, typer.Option(help="Never seat bots.")] = False,
    within: Annotated[
        float, typer.Option(help="Give up (and cancel the ticket) after this many seconds.")
    ] = 600.0,
    as_json: AsJson = False,
) -> None:
    """Find strangers to play (quick match): search, wait for the match, show the game."""
    client = api()
    with reported():
        body: dict[str, Any] = {
            "preset": preset,
            "players": players or fewest_players(client, preset, 0),
            "ranked": ranked,
        }
        if people_only:
            body["wait_s"] = None
        elif wait is not None:
            body["wait_s"] = wait
        ticket = client.post("/match/tickets", body)
        if not as_json:
            out.print(f"Searching ({ticket['preset']}, rating {ticket['rating']})…")
        deadline = time.monotonic() + within
        try:
            while ticket["status"] == "searching" and time.monotonic() < deadline:
                time.sleep(MATCH_POLL_SECONDS)
                ticket = client.get(f"/match/tickets/{quote(ticket['id'], safe='')}")
        except KeyboardInterrupt:
            ticket = cancel_search(client, ticket)
        if ticket["status"] == "searching":
            ticket = cancel_search(client, ticket)
        if ticket["status"] != "matched":
            if as_json:
                print_json(ticket)
            else:
                out.print(f"No match: the search was {ticket['status']}.")
            raise typer.Exit(EXIT_TIMED_OUT)
        view = client.get(game_path(ticket["game"]))
    if as_json:
        print_json(view)
        return
    out.print(Text(f"Matched into game {view['id']}", style="bold"))
    render.render_game(out, view)


def cancel_search(client: Api, ticket: dict[str, Any]) -> dict[str, Any]:
    """Cancel the search; the ticket as it ended (matched at the last moment, perhaps)."""
    path = f"/match/tickets/{quote(ticket['id'], safe='')}"
    try:
        client.request("DELETE", path)
    except ApiError as error:
        if error.code != "already_matched":
            raise
    return dict(client.get(path))


def fewest_players(client: Api, preset: str, others: int) -> int:
    """The preset's minimum seats, or one more than the ``others`` (bots and invitees); an
    unknown preset is left to the API to refuse (400 invalid_request)."""
    presets = {entry["id"]: entry for entry in client.get("/rules")["presets"]}
    seats = presets.get(preset, {}).get("players", {"min": 2, "max": 10})
    return max(int(seats["min"]), min(others + 1, int(seats["max"])))


@app.command(context_settings=TAKES_A_GAME_ID)
def join(
    game: GameId,
    seat: Annotated[int | None, typer.Option(help="A seat of your choice.")] = None,
    as_json: AsJson = False,
) -> None:
    """Take a seat in a game."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/join", {} if seat is None else {"seat": seat})
    show_view(view, as_json)


@app.command()
def games(
    mine: Annotated[bool, typer.Option("--my-turn", help="Only games waiting for you.")] = False,
    status: Annotated[str | None, typer.Option(help="waiting, playing or finished.")] = None,
    as_json: AsJson = False,
) -> None:
    """Your games, most recently changed first, with whose turn it is."""
    client = api()
    found: list[dict[str, Any]] = []
    cursor = None
    with reported():
        while True:
            turn = "mine" if mine else None
            page = client.get("/me/games", status=status, turn=turn, limit=100, cursor=cursor)
            found += page["games"]
            cursor = page.get("next")
            if not cursor:
                break
    if as_json:
        print_json(found)
    else:
        render.render_games(out, found)


@app.command(context_settings=TAKES_A_GAME_ID)
def show(game: GameId, as_json: AsJson = False) -> None:
    """The board, the seats and scores, your hand (legal tiles starred) and whose turn it is."""
    client = api()
    with reported():
        view = client.get(game_path(game))
    show_view(view, as_json)


@app.command(context_settings=TAKES_A_GAME_ID)
def play(
    game: GameId,
    tile: Annotated[str, typer.Argument(help="The tile, as 3-5.")],
    end: Annotated[
        str | None, typer.Option(help="The end (arm) to play on, when it fits more than one.")
    ] = None,
    if_match: IfMatch = None,
    as_json: AsJson = False,
) -> None:
    """Play a tile."""
    client = api()
    body = {"tile": tile} | ({"end": end} if end else {})
    with reported():
        view = client.post(f"{game_path(game)}/play", body, if_match=if_match)
    show_view(view, as_json)


@app.command(context_settings=TAKES_A_GAME_ID)
def draw(game: GameId, if_match: IfMatch = None, as_json: AsJson = False) -> None:
    """Draw a tile from the boneyard."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/draw", {}, if_match=if_match)
    show_view(view, as_json)


@app.command("pass", context_settings=TAKES_A_GAME_ID)
def pass_turn(game: GameId, if_match: IfMatch = None, as_json: AsJson = False) -> None:
    """Pass (only when you can neither play nor draw)."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/pass", {}, if_match=if_match)
    show_view(view, as_json)


@app.command(context_settings=TAKES_A_GAME_ID)
def cede(game: GameId, if_match: IfMatch = None, as_json: AsJson = False) -> None:
    """Cede the lead to your partner (cubano: only the seat offered it, before any tile)."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/cede", {}, if_match=if_match)
    show_view(view, as_json)


@app.command(context_settings=TAKES_A_GAME_ID)
def leave(game: GameId, as_json: AsJson = False) -> None:
    """Leave a game: before the deal your seat frees up; later a bot takes it (a forfeit)."""
    client = api()
    with reported():
        view = client.post(f"{game_path(game)}/leave", {})
    show_view(view, as_json)


@app.command(context_settings=TAKES_A_GAME_ID)
def moves(game: GameId, as_json: AsJson = False) -> None:
    """The game's move log (another player's drawn tiles stay hidden)."""
    client = api()
    found: list[dict[str, Any]] = []
    after = 0
    with reported():
        while True:
            page = client.get(f"{game_path(game)}/moves", after=after, limit=1000)
            found += page["moves"]
            if not page.get("next"):
                break
            after = int(page["next"])
    if as_json:
        print_json(found)
    else:
        render.render_moves(out, found)


@app.command(context_settings=TAKES_A_GAME_ID)
def watch(
    game: GameId,
    count: Annotated[
        int | None, typer.Option(help="Stop after this many changes (exit 4 if they don't come).")
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="Stop after this many seconds.")] = None,
    play_here: Annotated[
        bool, typer.Option("--play", help="Ask for your move here whenever it is your turn.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Follow a game live: redrawn on every change, until the match is over.

    It only shows, unless --play: then on your turn it asks for a move (3-5, 3-5 left, draw or
    pass; an empty line or end of input just watches)."""
    settings = config.load()
    client = Api(settings.url, settings.token)

    def show_change(view: dict[str, Any]) -> None:
        if as_json:
            typer.echo(json.dumps(view, ensure_ascii=False))  # one view per line
            return
        if out.is_terminal:
            out.clear()
        else:
            out.rule(f"version {view['version']}")
        render.render_game(out, view)

    def ready() -> None:
        if not as_json:
            out.print(Text(f"watching {game} (Ctrl-C to stop)", style="dim"))

    with reported():
        live.watch(
            client,
            settings.websocket_url,
            game,
            show_change,
            count=count,
            timeout=timeout,
            on_ready=ready,
            on_turn=MovePrompt(client, game) if play_here else None,
        )


MOVE_PROMPT = "your move (3-5 [end] / draw / pass / cede, empty to wait): "


class MovePrompt:
    """``watch --play``: reads the caller's moves from the terminal while they are on turn."""

    def __init__(self, client: Api, game: str) -> None:
        self.client, self.game = client, game
        self.closed = False  # end of input: watch without asking again

    def __call__(self, view: dict[str, Any]) -> dict[str, Any] | None:
        while not self.closed:
            try:
                typed = out.input(MOVE_PROMPT, markup=False).split()
            except EOFError:
                self.closed = True
                break
            if not typed:
                return None
            try:
                return self.move(typed)
            except ApiError as error:  # say why and ask again
                err.print(Text(f"error {error.code}: {error.message}", style="bold red"))
        return None

    def move(self, typed: list[str]) -> dict[str, Any]:
        path = game_path(self.game)
        if typed[0] in ("draw", "pass", "cede"):
            answer: dict[str, Any] = self.client.post(f"{path}/{typed[0]}", {})
            return answer
        body = {"tile": typed[0]} | ({"end": typed[1]} if len(typed) > 1 else {})
        answer = self.client.post(f"{path}/play", body)
        return answer


@app.command()
def inbox(
    limit: Annotated[int, typer.Option(help="How many notifications, newest first.")] = 20,
    mark_read: Annotated[bool, typer.Option(help="Mark the ones shown as read.")] = False,
    as_json: AsJson = False,
) -> None:
    """Your notifications: whose turn, hands and matches over, players joined."""
    client = api()
    with reported():
        page = client.get("/me/notifications", limit=limit)
        if mark_read and page["notifications"]:
            client.post("/me/notifications/read", {"until": page["notifications"][0]["id"]})
    if as_json:
        print_json(page)
    else:
        render.render_inbox(out, page)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
