"""How late turn reminders and timeouts come after their due time, on the local runtime (what
`make run` starts): the turn timers' path (the notifier sets an SQS delay message, the timers
function handles the game), the minutely sweep behind it.

``--turns`` two-player games (default 200) are started a few a second, each with a 36 s turn
(``turn_timeout_hours: 0.01``) for the same late player; a poller reads that player's inbox
every 0.2 s and notes when each game's ``reminder`` (due at 80 % of the turn) and ``timeout``
(due at the deadline) first shows. The delay is that moment minus the due time: what the player
sees, the stream's latency included (due times are whole seconds, as the server keeps them).

    .venv/bin/python bench/timers.py [--turns 200] [--rate 5]
"""

from __future__ import annotations

import argparse
import threading
import time
from datetime import UTC, datetime
from typing import Any

from _runtime import start_runtime
from _stats import percentile

from local.process import Runtime

DEAL = {  # seat 0 holds 6-6 and leads: the creator is on turn as soon as the game starts
    "hands": [
        ["6-6", "0-1", "1-3", "2-5", "3-3", "4-5", "5-5"],
        ["0-0", "0-2", "1-1", "1-2", "2-2", "2-3", "0-3"],
    ]
}
HOURS = 0.01  # 36 s, the shortest turn the API takes


def epoch(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())


def run(runtime: Runtime, turns: int, rate: float) -> dict[str, list[float]]:
    late, other = runtime.token("timers-late"), runtime.token("timers-other")
    due: dict[tuple[str, str], int] = {}  # (game, kind) -> due time
    seen: dict[tuple[str, str], float] = {}
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            status, _, body = runtime.request("GET", "/me/notifications?limit=100", token=late)
            now = time.time()
            if status == 200:
                for note in body["notifications"]:
                    key = (note["game"], note["type"])
                    if key in due and key not in seen:
                        seen[key] = now
            done.wait(0.2)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    body: dict[str, Any] = {"preset": "dos-jugadores", "players": 2, "deal": DEAL}
    body["turn_timeout_hours"] = HOURS
    for n in range(turns):
        started = time.monotonic()
        status, _, game = runtime.request("POST", "/games", body, token=late)
        assert status == 201, game
        status, _, view = runtime.request("POST", f"/games/{game['id']}/join", {}, token=other)
        assert status == 200 and view["turn"] == 0, view
        deadline = epoch(view["deadline"])
        due[(game["id"], "timeout")] = deadline
        due[(game["id"], "reminder")] = int(deadline - 0.2 * HOURS * 3600)
        time.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))
        if n % 50 == 49:
            print(f"  {n + 1} turns started", flush=True)
    last = max(due.values())
    while len(seen) < len(due) and time.time() < last + 120:
        time.sleep(0.2)
    done.set()
    poller.join()
    delays: dict[str, list[float]] = {"reminder": [], "timeout": []}
    for key, at in seen.items():
        delays[key[1]].append(at - due[key])
    missing = len(due) - len(seen)
    if missing:
        print(f"  {missing} of {len(due)} never showed within 120 s of the last deadline")
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--rate", type=float, default=5.0, help="turns started a second")
    args = parser.parse_args()
    runtime = start_runtime()
    try:
        delays = run(runtime, args.turns, args.rate)
    finally:
        runtime.stop()
    for kind, values in delays.items():
        if not values:
            print(f"{kind}: none seen")
            continue
        print(
            f"{kind}: {len(values)} seen, delay after due p50 {percentile(values, 0.5):.2f} s, "
            f"p99 {percentile(values, 0.99):.2f} s, max {max(values):.2f} s, "
            f"min {min(values):.2f} s"
        )


if __name__ == "__main__":
    main()
