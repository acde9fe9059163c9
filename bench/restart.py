"""How soon a restarted `make run` notifies again when its stream is full of earlier changes.

The local runtime is started on a new data folder; two people start a game, then the game item
is written ``--records`` more times (each a MODIFY the notifier reads), and with ``--moves``
four pairs of people play that many real moves between them (each one notified, as a day of
play leaves the stream); the runtime is stopped
and started again on the same data, and the player on turn moves. Printed: the seconds from
that move's answer to the other player's ``your_turn`` in their inbox, and how many
notifications of the first run came back (the inbox is emptied before the restart, so a replay
of the stream shows as notes that reappear). Run with checkpoints (what the runtime does) and
again without (the checkpoint files deleted before the restart, as with data an earlier
version of the runtime kept: the mappings begin at the stream's end; until 2026-12 they read
every shard from TRIM_HORIZON, a replay of the whole stream).

    .venv/bin/python bench/restart.py [--records 3000] [--moves 2000]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _runtime import start_runtime

from local.process import Runtime

GAME_TABLE = "GameTable"


@dataclass
class Outcome:
    seconds: float  # from the move's answer to the other player's note
    replayed: int  # notes of the first run that came back after the restart


def _notes(runtime: Runtime, token: str) -> list[dict[str, Any]]:
    status, _, body = runtime.request("GET", "/me/notifications?limit=100", token=token)
    assert status == 200, body
    return list(body["notifications"])


def _wait_for_note(
    runtime: Runtime, token: str, version: int, kind: str, within: float
) -> float | None:
    started = time.monotonic()
    while time.monotonic() - started < within:
        if any(n["version"] == version and n["type"] == kind for n in _notes(runtime, token)):
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def _move(runtime: Runtime, game: str, token: str) -> dict[str, Any]:
    status, _, view = runtime.request("GET", f"/games/{game}", token=token)
    assert status == 200, view
    you = view["you"]
    if you["legal"]:
        action, body = "play", {k: v for k, v in you["legal"][0].items() if v}
    else:
        action, body = ("draw" if you["can_draw"] else "pass"), {}
    status, _, after = runtime.request("POST", f"/games/{game}/{action}", body, token=token)
    assert status == 200, after
    return dict(after)


def _hand_the_turn_over(
    runtime: Runtime, game: str, tokens: dict[str, str], seat: dict[str, int]
) -> tuple[dict[str, Any], str]:
    """The player on turn moves until the other is on turn (a draw may keep it): the view
    after, and who is on turn now."""
    status, _, view = runtime.request("GET", f"/games/{game}", token=next(iter(tokens.values())))
    assert status == 200, view
    on_turn = next(player for player, s in seat.items() if s == view["turn"])
    other = next(player for player in seat if player != on_turn)
    while True:
        after = _move(runtime, game, tokens[on_turn])
        if after["status"] != "playing":
            raise RuntimeError("the hand ended before the turn passed: run again")
        if after["turn"] == seat[other]:
            return after, other


def _play(runtime: Runtime, moves: int, pair: int) -> None:
    """Two people play ``moves`` moves, in as many games as that takes."""
    tokens = [runtime.token(f"restart-pair{pair}-{seat}") for seat in range(2)]
    played = 0
    while played < moves:
        status, _, view = runtime.request(
            "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=tokens[0]
        )
        assert status == 201, view
        game = view["id"]
        status, _, view = runtime.request("POST", f"/games/{game}/join", {}, token=tokens[1])
        assert status == 200, view
        joiner_seat = view["you"]["seat"]
        while played < moves and view["status"] == "playing":
            on_turn = tokens[1] if view["turn"] == joiner_seat else tokens[0]
            view = _move(runtime, game, on_turn)
            played += 1


def _play_moves(runtime: Runtime, moves: int, pairs: int = 4) -> None:
    with ThreadPoolExecutor(pairs) as pool:
        for done in pool.map(lambda pair: _play(runtime, moves // pairs, pair), range(pairs)):
            assert done is None


def _empty_inboxes(runtime: Runtime, players: list[str]) -> None:
    database = runtime.database()
    for player in players:
        pages = database.get_paginator("query").paginate(
            TableName=GAME_TABLE,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :note)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player}"}, ":note": {"S": "NOTE#"}},
            ProjectionExpression="pk, sk",
        )
        for page in pages:
            for item in page["Items"]:
                database.delete_item(TableName=GAME_TABLE, Key=item)


def fill_then_restart(
    data_dir: Path,
    records: int,
    keep_checkpoints: bool = True,
    within: float = 600,
    moves: int = 0,
) -> Outcome:
    """The scenario of this script's docstring, on ``data_dir`` (new, or a copy of one)."""
    runtime = start_runtime(data_dir=data_dir)
    ana, ben = "restart-ana", "restart-ben"
    try:
        _play_moves(runtime, moves)
        tokens = {ana: runtime.token(ana), ben: runtime.token(ben)}
        status, _, created = runtime.request(
            "POST", "/games", {"preset": "dos-jugadores", "players": 2}, token=tokens[ana]
        )
        assert status == 201, created
        game = created["id"]
        status, _, joined = runtime.request("POST", f"/games/{game}/join", {}, token=tokens[ben])
        assert status == 200, joined
        database = runtime.database()
        key = {"pk": {"S": f"GAME#{game}"}, "sk": {"S": "GAME"}}
        for n in range(records):  # changes the notifier reads and finds nothing to say about
            database.update_item(
                TableName=GAME_TABLE,
                Key=key,
                UpdateExpression="SET filler = :n",
                ExpressionAttributeValues={":n": {"N": str(n)}},
            )
        # a move after the fillers, on the same game: once it is notified, so are they
        seat = {ana: 0, ben: joined["you"]["seat"]}
        after, other = _hand_the_turn_over(runtime, game, tokens, seat)
        if _wait_for_note(runtime, tokens[other], after["version"], "your_turn", within) is None:
            raise RuntimeError("the first run never notified its move")
        time.sleep(1.5)  # the pump's checkpoint follows its delivery
    finally:
        runtime.stop()
    if not keep_checkpoints:
        shutil.rmtree(data_dir / "streams", ignore_errors=True)

    runtime.start()
    try:
        _empty_inboxes(runtime, [ana, ben])
        tokens = {ana: runtime.token(ana), ben: runtime.token(ben)}
        after, other = _hand_the_turn_over(runtime, game, tokens, seat)
        seconds = _wait_for_note(runtime, tokens[other], after["version"], "your_turn", within)
        if seconds is None:
            raise RuntimeError(f"no notification within {within} s of the restart's move")
        time.sleep(1.0)  # anything the restart replays has had time to come back too
        replayed = sum(
            1
            for player in (ana, ben)
            for note in _notes(runtime, tokens[player])
            if note["version"] < after["version"]
        )
        return Outcome(seconds, replayed)
    finally:
        runtime.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=3000, help="changes in the stream")
    parser.add_argument("--moves", type=int, default=0, help="real moves before the fillers")
    args = parser.parse_args()
    for keep in (True, False):
        with tempfile.TemporaryDirectory() as folder:
            outcome = fill_then_restart(Path(folder) / "data", args.records, keep, moves=args.moves)
        label = "with checkpoints" if keep else "with the checkpoints deleted"
        print(
            f"{args.records} records and {args.moves} moves in the stream, restart {label}: "
            f"first notification {outcome.seconds:.2f} s after the move, "
            f"{outcome.replayed} earlier notes replayed"
        )


if __name__ == "__main__":
    main()
