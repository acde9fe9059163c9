"""What the benchmark scripts share (a helper module: ``make bench`` does not run it).

Every script takes ``--tree PATH`` (default: this repository) and measures that checkout's code:
its ``shared/`` goes first on ``sys.path`` (and on ``PYTHONPATH`` for fresh interpreters), its
``template.yaml`` names the routes and its ``functions/`` the handlers, while the harness that
drives them is this checkout's (``local.harness``), which relies on nothing but the template,
the handlers' ``handler(event, context)`` and the environment. So ``bench/compare.py`` can run
the same measurement on an older commit's tree. ``use_tree`` must run before anything imports
``domino``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # this checkout's local/ (the harness), whatever the tree

#: what the handlers read, besides the template's variables (local.environment)
ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
    "TABLE_NAME": "GameTable",
    "IDEMPOTENCY_TABLE": "IdempotencyTable",
    "DEV_MODE": "true",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "DOMINO_TRACK_CAPACITY": "true",
}
READS = {"GetItem", "Query", "BatchGetItem", "Scan", "TransactGetItems"}
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}
JSON = {"content-type": "application/json"}


# ------------------------------------------------------------------------------ the tree


@dataclass(frozen=True)
class Tree:
    """A checkout whose code a benchmark measures."""

    path: Path

    @property
    def shared(self) -> Path:
        return self.path / "shared"

    @property
    def template(self) -> Path:
        return self.path / "template.yaml"

    def describe(self) -> str:
        """The path, and its commit when it is a git checkout (``+`` when changed)."""
        try:
            out = subprocess.run(
                ["git", "-C", str(self.path), "describe", "--always", "--dirty=+"],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            )
            return f"{self.path} ({out.stdout.strip()})"
        except (OSError, subprocess.SubprocessError):
            return str(self.path)


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tree",
        type=Path,
        default=REPO,
        help="measure this checkout's shared/, functions/ and template.yaml (default: this one)",
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="also write the key figures to this JSON file"
    )


def use_tree(path: Path) -> Tree:
    """Put ``path``'s ``shared/`` first on sys.path (before anything imports domino)."""
    tree = Tree(path.resolve())
    for needed in (tree.template, tree.shared / "domino", tree.path / "functions"):
        if not needed.exists():
            raise SystemExit(f"--tree {path}: {needed} is missing")
    if "domino" in sys.modules:
        raise RuntimeError("domino was imported before use_tree(): the tree would be mixed")
    sys.path.insert(0, str(tree.shared))
    return tree


def banner(script: str, tree: Tree) -> None:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{script} {' '.join(sys.argv[1:])} {when}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; tree {tree.describe()}",
        flush=True,
    )


def footer(started: float, skewed: str | None = None) -> None:
    note = f" (other work on the machine skews {skewed})" if skewed else ""
    print(
        f"\ntotal {time.perf_counter() - started:.0f} s, load average now "
        f"{os.getloadavg()[0]:.1f}{note}"
    )


def write_json(path: Path | None, figures: dict[str, Any]) -> None:
    if path is not None:
        path.write_text(json.dumps(figures, indent=1, sort_keys=True))


# ------------------------------------------------------------------------------ harness


@contextmanager
def database(tree: Tree, endpoint: str | None = None, **env: str) -> Iterator[str]:
    """The tree's tables on a DynamoDB Local of our own (in memory, a free port), or on the
    one at ``endpoint``; the handlers' environment set (ENV, then ``env``)."""
    from local.environment import local_environment
    from local.harness import local_database
    from local.tables import ensure_tables
    from local.template import Template

    template = Template(tree.template)
    os.environ.update(ENV)
    os.environ.pop("AWS_PROFILE", None)
    if endpoint is None:
        with local_database(template, {**ENV, **env}) as url:
            yield url
        return
    ensure_tables(endpoint, template)
    os.environ.update({**local_environment(template, endpoint), **ENV, **env})
    yield endpoint


def harness(tree: Tree, endpoint: str) -> Any:
    """The tree's routes and stream functions, called in-process (quiet: no metric blobs)."""
    from local.harness import Harness
    from local.template import Template

    return Harness(Template(tree.template), endpoint=endpoint, quiet=True)


def as_player(
    api: Any, method: str, path: str, player: str, body: Any = None, **headers: str
) -> Any:
    """``api.call`` as ``player`` (the JWT claims API Gateway would pass), JSON in and out."""
    claims = {"sub": player, "name": player}
    return api.call(method, path, body, claims=claims, headers={**JSON, **headers})


def new_game(api: Any, preset: str, players: int, seed: int) -> tuple[str, dict[str, Any]]:
    """A seeded game of ``players`` people (``p0`` creates it, the others join)."""
    reply = as_player(
        api, "POST", "/games", "p0", {"preset": preset, "players": players, "seed": seed}
    )
    assert reply.status == 201, reply.body
    view = reply.body
    for seat in range(1, players):
        reply = as_player(api, "POST", f"/games/{view['id']}/join", f"p{seat}", {})
        assert reply.status == 200, reply.body
        view = reply.body
    return view["id"], view


def choose(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The seat's first legal play, else a draw, else a pass."""
    you = view["you"]
    if you["legal"]:
        return "play", dict(you["legal"][0])
    if you["can_draw"]:
        return "draw", {}
    return "pass", {}


def raw_client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=2, read_timeout=5
    )
    return boto3.session.Session().client("dynamodb", endpoint_url=endpoint, config=config)


def game_key(game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}


# ------------------------------------------------------------------------------ requests


@dataclass
class Call:
    operation: str
    total: float | None  # capacity units of the request, GSIs included
    table: float  # units of the base table
    indexes: dict[str, float]  # units per GSI
    kind: str = ""  # what the request wrote or read: its sort key up to "#" (GAME, HAND, NOTE...)


class DynamoRequests:
    """The DynamoDB reads and writes of this process, timed and (``counting``) recorded with
    their consumed capacity: a request that asks for ``TOTAL`` is sent asking for ``INDEXES``,
    to split the base table from the GSIs.

    It wraps botocore's ``BaseClient._make_api_call``, which every client's requests go
    through, rather than hooking the store's client: so it needs nothing of the code it
    measures, whichever tree that is. Clients passed to ``ignore`` (the benchmark's own) are
    left alone.
    """

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.spent = 0.0  # seconds inside requests, counting or not
        self.counting = False
        self._ignored: set[int] = set()
        self._installed: Callable[..., Any] | None = None

    def install(self) -> DynamoRequests:
        from botocore.client import BaseClient

        original = BaseClient._make_api_call
        requests = self

        def make_api_call(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if (
                operation not in READS | WRITES
                or id(client) in requests._ignored
                or client.meta.service_model.service_name != "dynamodb"
            ):
                return original(client, operation, params)
            if requests.counting:  # every request, Powertools' idempotency layer's too
                params = {**params, "ReturnConsumedCapacity": "INDEXES"}
            started = time.perf_counter()
            try:
                parsed = original(client, operation, params)
            finally:
                requests.spent += time.perf_counter() - started
            if requests.counting:
                requests._record(operation, parsed, item_kind(params))
            return parsed

        BaseClient._make_api_call = make_api_call  # type: ignore[method-assign]
        self._installed = original
        return self

    def ignore(self, client: Any) -> Any:
        self._ignored.add(id(client))
        return client

    def _record(self, operation: str, parsed: dict[str, Any], kind: str = "") -> None:
        consumed = parsed.get("ConsumedCapacity")
        if consumed is None:
            self.calls.append(Call(operation, None, 0.0, {}, kind))
            return
        total, table, indexes = 0.0, 0.0, dict[str, float]()
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            total += float(entry.get("CapacityUnits", 0))
            table += float((entry.get("Table") or {}).get("CapacityUnits", 0))
            for name, units in (entry.get("GlobalSecondaryIndexes") or {}).items():
                indexes[name] = indexes.get(name, 0.0) + float(units.get("CapacityUnits", 0))
        self.calls.append(Call(operation, total, table, indexes, kind))


def item_kind(params: dict[str, Any]) -> str:
    """The kind of item a request is about: its sort key up to the first "#" (KEY: an
    idempotency record, whose table has no sort key)."""
    key = params.get("Item") or params.get("Key") or {}
    if "id" in key and "sk" not in key:
        return "KEY"
    sort = (key.get("sk") or {}).get("S", "")
    return str(sort).split("#", 1)[0]


# ------------------------------------------------------------------------------ numbers


Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile
PLY_BITS = 24  # plies of a match or hand fit in the low bits of a decision seed


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (``z`` = 1.96: 95 %)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the edges
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def decision_seed(deal: int, seating: int, ply: int) -> int:
    """The seed of one bot decision: distinct for every (deal, seating, ply)."""
    if not 0 <= ply < 1 << PLY_BITS or seating not in (0, 1) or deal < 0:
        raise ValueError(f"no decision seed for deal {deal}, seating {seating}, ply {ply}")
    return (deal * 2 + seating) << PLY_BITS | ply


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * q
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def attribute_size(value: dict[str, Any]) -> int:
    """Bytes of one typed attribute value by DynamoDB's item size rules."""
    ((kind, raw),) = value.items()
    if kind == "S":
        return len(raw.encode())
    if kind == "B":
        return len(raw)
    if kind == "N":
        digits = raw.lstrip("+-").replace(".", "").split("E")[0].split("e")[0]
        significant = digits.strip("0") or "0"
        return math.ceil(len(significant) / 2) + 1
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + attribute_size(v) for v in raw)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + attribute_size(v) for k, v in raw.items())
    if kind in ("SS", "NS", "BS"):
        return sum(attribute_size({kind[0]: v}) for v in raw)
    raise ValueError(kind)


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + attribute_size(value) for name, value in item.items())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


# ------------------------------------------------------------------------------ over HTTP


class Runtime:
    """A ``python -m local`` process on free ports (what ``make run`` starts), in memory or on
    ``data_dir`` (then ``stop`` and ``start`` restart it on the same data and ports)."""

    def __init__(
        self, tree_path: str = str(REPO), workers: int = 4, data_dir: Path | None = None
    ) -> None:
        from local.ddb import free_port

        self.port, self.ddb_port = free_port(), free_port()
        self.tree_path, self.workers, self.data_dir = tree_path, workers, data_dir
        self.start()

    def start(self) -> None:
        env = dict(os.environ)
        env["DOMINO_TEMPLATE"] = f"{self.tree_path}/template.yaml"
        env["PYTHONPATH"] = os.pathsep.join([f"{self.tree_path}/shared", str(REPO)])
        args = [sys.executable, "-m", "local", "--port", str(self.port), "--ddb-port"]
        args += [str(self.ddb_port), "--quiet", "--workers", str(self.workers)]
        args += ["--data-dir", str(self.data_dir)] if self.data_dir else ["--in-memory"]
        self.process = subprocess.Popen(args, cwd=REPO, env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                if self.request("GET", "/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the local runtime did not start")
            time.sleep(0.2)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        return self.exchange(method, path, body, token, headers)[::2]

    def exchange(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """Status, headers and parsed body (None for an empty one)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method=method
        )
        if data is not None:  # urllib's default is a form's, which /dev/* refuses
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                raw = response.read()
                return response.status, dict(response.headers), json.loads(raw or b"null")
        except urllib.error.HTTPError as err:
            raw = err.read()
            return err.code, dict(err.headers), json.loads(raw) if raw else None

    def token(self, player: str) -> str:
        return str(
            self.request("POST", "/dev/token", {"player": player, "name": player})[1]["token"]
        )

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time so far of the runtime's processes, by role: ``database`` (DynamoDB Local's
        JVM), ``workers`` (the function containers) and ``front`` (the HTTP and WebSocket
        server, the stream pump, the sweeper). Read from /proc: empty where there is none."""
        roles: dict[str, float] = {}
        ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        for pid in _process_tree(self.process.pid):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    command = cmdline.read()
            except OSError:
                continue
            role = (
                "database"
                if b"java" in command
                else "workers"
                if b"multiprocessing" in command
                else "front"
            )
            roles[role] = roles.get(role, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
        return roles

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def database(self) -> Any:
        """A client of the runtime's DynamoDB Local."""
        import boto3

        return boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{self.ddb_port}",
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )


def _process_tree(root: int) -> list[int]:
    """``root`` and its descendants (Linux /proc; just ``root`` elsewhere)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat") if Path("/proc").is_dir() else []:
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue += children.get(pid, [])
    return found


class Inbox:
    """A socket's messages, each stamped when it arrived (a thread reads them)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=10)
        self.arrived: dict[tuple[str, int], tuple[float, dict[str, Any]]] = {}
        self.latest: dict[str, int] = {}  # per game, the highest version announced
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.ws:
                at = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") == "game_changed":
                    with self.changed:
                        key = (message["game"], message["version"])
                        self.arrived.setdefault(key, (at, message))
                        game = message["game"]
                        self.latest[game] = max(self.latest.get(game, 0), message["version"])
                        self.changed.notify_all()
        except ConnectionClosed:
            pass

    def wait(self, game: str, version: int, within: float) -> tuple[float, dict[str, Any]] | None:
        with self.changed:
            self.changed.wait_for(lambda: (game, version) in self.arrived, timeout=within)
            return self.arrived.get((game, version))

    def wait_newer(self, game: str, version: int, within: float) -> bool:
        """Whether a change of ``game`` past ``version`` was announced (within ``within`` s)."""
        with self.changed:
            return self.changed.wait_for(lambda: self.latest.get(game, 0) > version, timeout=within)

    def close(self) -> None:
        self.ws.close()
