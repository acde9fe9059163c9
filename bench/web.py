"""The web client's weight and time to interactive in headless Chromium, on `make run`.

    python bench/web.py [--runs N] [--tree PATH] [--json FILE]

Prints figures, asserts nothing. It starts the local runtime (in memory, on free ports) and
loads http://127.0.0.1:PORT/ in Debian's Chromium (``/usr/bin/chromium``, or ``CHROMIUM``)
through Playwright, each run in a fresh context (an empty cache):

- weight: the bytes of every response of the first load (headers and bodies, as Playwright's
  ``request.sizes()`` counts them), and of a reload (the files revalidated: 304s);
- sign-in usable: from navigation start (``performance.now()`` 0) to the name field in the page;
- board drawn: signed in, from navigation start of ``/?game=<id>`` (a clasico game against
  three bots, dealt) to the board and the hand drawn: the page, GET /games/{id} and the moves.

Loopback, no network throttling: the figures are the page's own cost, not a phone network's.
Without Chromium or Playwright it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _runtime import start_runtime
from _tree import add_common_arguments, banner, footer, use_tree, write_json

from local.chromium import CHROMIUM, LAUNCH_ARGS, missing


def load(page: Any, url: str, ready: str) -> tuple[int, int, float]:
    """Navigate; (responses, bytes, ms from navigation start until ``ready`` is true)."""
    responses: list[Any] = []

    def finished(request: Any) -> None:
        responses.append(request)

    page.on("requestfinished", finished)
    page.goto(url, wait_until="commit")
    shown = page.wait_for_function(f"() => ({ready}) && performance.now()", polling="raf")
    page.wait_for_load_state("networkidle")
    page.remove_listener("requestfinished", finished)
    total = 0
    for request in responses:
        sizes = request.sizes()
        total += sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0)
    return len(responses), total, float(shown.json_value())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_common_arguments(parser)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    started = time.perf_counter()
    banner("bench/web.py", tree)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("Playwright is not installed (pip install -e '.[dev]'): nothing measured")
        return
    if why := missing():
        print(f"{why}: nothing measured")
        return
    files = sorted(p for p in (tree.path / "web").rglob("*") if p.is_file())
    print(f"web/ holds {len(files)} files, {sum(p.stat().st_size for p in files)} bytes:")
    for path in files:
        print(f"  {path.relative_to(tree.path)}: {path.stat().st_size} B")

    runtime = start_runtime(tree.path, 2)
    figures: dict[str, Any] = {}
    try:
        base = runtime.base
        token = runtime.token("bench-web")
        _, _, game = runtime.request(
            "POST", "/games", {"preset": "clasico", "players": 4, "bots": 3}, token=token
        )
        first, again, signin, board = [], [], [], []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            for _ in range(args.runs):
                context = browser.new_context(viewport={"width": 1200, "height": 900})
                page = context.new_page()
                count, size, ms = load(page, base + "/", "document.querySelector('#name')")
                first.append((count, size))
                signin.append(ms)
                again.append(load(page, base + "/", "document.querySelector('#name')")[:2])
                page.evaluate(
                    "([key, token]) => localStorage.setItem(key, JSON.stringify("
                    "{token, player: 'bench-web', name: 'bench-web'}))",
                    [f"domino.session.{base}", token],
                )
                board.append(
                    load(
                        page,
                        f"{base}/?game={game['id']}",
                        "document.querySelector('.board') && document.querySelector('#hand .tile')",
                    )[2]
                )
                context.close()
            browser.close()
    finally:
        runtime.stop()
    figures = {
        "first_load_requests": first[0][0],
        "first_load_bytes": int(statistics.median(size for _, size in first)),
        "reload_bytes": int(statistics.median(size for _, size in again)),
        "signin_usable_ms_median": round(statistics.median(signin), 1),
        "signin_usable_ms_max": round(max(signin), 1),
        "board_drawn_ms_median": round(statistics.median(board), 1),
        "board_drawn_ms_max": round(max(board), 1),
    }
    print(
        f"first load: {figures['first_load_requests']} responses, "
        f"{figures['first_load_bytes']} bytes (headers and bodies)"
    )
    print(f"reload (revalidated): {figures['reload_bytes']} bytes")
    print(
        f"sign-in form usable: median {figures['signin_usable_ms_median']} ms, "
        f"max {figures['signin_usable_ms_max']} ms ({args.runs} fresh contexts)"
    )
    print(
        f"game board drawn: median {figures['board_drawn_ms_median']} ms, "
        f"max {figures['board_drawn_ms_max']} ms"
    )
    write_json(args.json, figures)
    footer(started)


if __name__ == "__main__":
    main()
