"""API benchmark: DynamoDB cost per accepted play, play handler latency, cold start.

    python bench/api.py [--quick]

Prints figures, asserts nothing (docs/benchmarks.md records a run). It starts its own DynamoDB
Local (in memory, a free port) with the template's tables and calls the handlers in-process with
API Gateway HTTP API v2 events, as the local runtime does:

a. per preset: whole games played by human seats (``you.legal[0]``, else draw, else pass);
   every accepted play's DynamoDB requests and ReturnConsumedCapacity, and the largest game
   item (DynamoDB's size rule: attribute names + values); then what the stream consumer
   (functions/archive) writes for the hands that ended, outside the requests;
b. play handler latency (p50/p95) against a bare GetItem(ConsistentRead) + PutItem of the same
   item, measured alternately in the same run;
c. cold start: in a fresh interpreter each time, importing the play handler module (which builds
   its resolver) against a bare ``import boto3, pydantic, aws_lambda_powertools.event_handler``,
   in a venv holding only shared/requirements.txt (.venv-bench-runtime, created on first use).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO / "shared"
sys.path.insert(0, str(SHARED))
sys.path.insert(0, str(REPO))  # the local runtime (local/), for its harness

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

#: (preset, players): every double-six preset, clasico at 3 and 4, and chipre (double-nine)
GAMES: list[tuple[str, int]] = [
    ("clasico", 3),
    ("clasico", 4),
    ("dos-jugadores", 2),
    ("ida-y-vuelta", 2),
    ("parejas-111", 4),
    ("infantil", 4),
    ("multicolor-plus", 4),
    ("buho21", 4),
    ("pool", 4),
    ("cruzado", 4),
    ("chipre", 4),
]
READS = {"GetItem", "Query", "BatchGetItem", "Scan", "TransactGetItems"}
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}


# ------------------------------------------------------------------------------ helpers


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


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Powertools Metrics prints a metric blob every 100 values even when disabled."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


@dataclass
class Call:
    operation: str
    total: float | None  # capacity units of the request, GSIs included
    table: float  # units of the base table
    indexes: dict[str, float]  # units per GSI


@dataclass
class Api:
    """The template's routes called in-process, the way the local runtime calls them."""

    calls: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        from local.invoke import LambdaContext, http_event, load_handler
        from local.template import Template

        self.template = Template()
        self._event, self._context, self._load = http_event, LambdaContext, load_handler
        self.hooked = False
        self._pump: Any = None

    def drain(self, endpoint: str) -> int:
        """Run the stream consumers (functions/archive) in-process on the stream's new records,
        as Lambda's event source mapping would; returns the records delivered."""
        from local.streams import StreamPump

        if self._pump is None:
            self._pump = StreamPump(
                endpoint, self.template, self.template.table_names(), self._consume
            )
        return int(self._pump.drain())

    def _consume(self, source: Any, event: dict[str, Any]) -> Any:
        with quiet_stdout():
            return self._load(source.code_uri, source.handler)(
                event, self._context(function_name=source.function)
            )

    def hook(self) -> None:
        """Count the store's DynamoDB requests (after the first request built the service), and
        ask for the per-index breakdown (INDEXES) where the store asks for TOTAL."""
        from domino.api.http import service

        store = service().store
        self.store = store
        if not self.hooked:
            events = store.client.meta.events
            # first: boto3 hands the call a deep copy of the params in a later handler
            events.register_first("provide-client-params.dynamodb", self._indexes)
            events.register("after-call.dynamodb", self._after_call)
            self.hooked = True

    def unhook(self) -> None:
        """Stop counting: the store's client as a deployed function has it (for timings)."""
        if self.hooked:
            events = self.store.client.meta.events
            events.unregister("provide-client-params.dynamodb", self._indexes)
            events.unregister("after-call.dynamodb", self._after_call)
            self.hooked = False

    @staticmethod
    def _indexes(params: dict[str, Any], **_: Any) -> None:
        if params.get("ReturnConsumedCapacity") == "TOTAL":
            params["ReturnConsumedCapacity"] = "INDEXES"

    def _after_call(self, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        consumed = parsed.get("ConsumedCapacity")
        if consumed is None:
            self.calls.append(Call(model.name, None, 0.0, {}))
            return
        total, table, indexes = 0.0, 0.0, dict[str, float]()
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            total += float(entry.get("CapacityUnits", 0))
            table += float((entry.get("Table") or {}).get("CapacityUnits", 0))
            for name, units in (entry.get("GlobalSecondaryIndexes") or {}).items():
                indexes[name] = indexes.get(name, 0.0) + float(units.get("CapacityUnits", 0))
        self.calls.append(Call(model.name, total, table, indexes))

    def handler(self, method: str, path: str) -> tuple[Callable[..., Any], Any, dict[str, str]]:
        found = self.template.find_route(method, path)
        assert found is not None, (method, path)
        route, params = found
        return self._load(route.code_uri, route.handler), route, params

    def call(
        self, method: str, path: str, player: str, body: Any = None
    ) -> tuple[int, dict[str, Any], float]:
        fn, route, params = self.handler(method, path)
        event = self._event(
            method,
            path,
            route_key=route.route_key,
            path_parameters=params or None,
            headers={"content-type": "application/json"},
            body=None if body is None else json.dumps(body),
            claims={"sub": player, "name": player},
        )
        context = self._context(function_name=route.function)
        with quiet_stdout():
            started = time.perf_counter()
            result = fn(event, context)
            elapsed = time.perf_counter() - started
        return int(result["statusCode"]), json.loads(result["body"] or "null"), elapsed


def start_database() -> tuple[Any, str]:
    from local import ddb
    from local.server import local_environment
    from local.tables import ensure_tables
    from local.template import Template

    os.environ.update(ENV)
    os.environ.pop("AWS_PROFILE", None)
    server = ddb.start_dynamodb_local(ddb.free_port())
    template = Template()
    ensure_tables(server.endpoint, template)
    env = local_environment(template, server.endpoint)
    env.update(ENV)
    os.environ.update(env)
    return server, server.endpoint


def raw_client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=2, read_timeout=5
    )
    return boto3.session.Session().client("dynamodb", endpoint_url=endpoint, config=config)


def game_key(game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}


# ------------------------------------------------------------------------------ a. cost per play


#: (action or "in hand"/"hand end", reads, writes, RCU, WCU, WCU on the table, GSI WCU text)
Shape = tuple[str, int, int, float, float, float, str]


@dataclass
class PresetCost:
    preset: str
    players: int
    hands: int = 0
    finished: bool = False
    plays: int = 0
    draws: int = 0
    passes: int = 0
    exact: int = 0  # plays with 1 read + 1 write and 1 RCU + 1 WCU (GSI writes included)
    exact_table: int = 0  # 1 read + 1 write and 1 RCU + 1 WCU on the table (GSIs left out)
    shapes: Counter[Shape] = field(default_factory=Counter)
    other_shapes: Counter[Shape] = field(default_factory=Counter)
    max_item: int = 0
    max_item_double_six: bool = True
    wcu_mismatch: int = 0  # reported WCU != ceil(max(old, new) / 1 KB) for the game write
    archived: int = 0  # records the stream consumer archived a hand for
    archive_writes: int = 0  # its PutItems (outside the requests)
    archive_wcu: float = 0.0
    errors: list[str] = field(default_factory=list)


def choose(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    you = view["you"]
    if you["legal"]:
        return "play", dict(you["legal"][0])
    if you["can_draw"]:
        return "draw", {}
    return "pass", {}


def new_game(api: Api, preset: str, players: int, seed: int) -> tuple[str, dict[str, Any]]:
    status, view, _ = api.call(
        "POST", "/games", "p0", {"preset": preset, "players": players, "seed": seed}
    )
    assert status == 201, view
    for seat in range(1, players):
        status, view, _ = api.call("POST", f"/games/{view['id']}/join", f"p{seat}", {})
        assert status == 200, view
    return view["id"], view


def measure_costs(
    api: Api,
    client: Any,
    endpoint: str,
    preset: str,
    players: int,
    seed: int,
    max_hands: int | None,
    max_actions: int = 6000,
) -> PresetCost:
    cost = PresetCost(preset, players)
    game_id, view = new_game(api, preset, players, seed)
    api.hook()
    size = item_size(
        client.get_item(TableName="GameTable", Key=game_key(game_id), ConsistentRead=True)["Item"]
    )
    cost.max_item = size
    for _ in range(max_actions):
        if view["status"] != "playing":
            cost.finished = view["status"] == "finished"
            break
        if max_hands is not None and view["hand_number"] > max_hands:
            break
        seat = view["turn"]
        status, mine, _ = api.call("GET", f"/games/{game_id}", f"p{seat}")
        assert status == 200, mine
        action, body = choose(mine)
        api.calls.clear()
        status, out, _ = api.call("POST", f"/games/{game_id}/{action}", f"p{seat}", body)
        calls = list(api.calls)
        if status != 200:
            cost.errors.append(f"{action} {body}: {status} {out}")
            break
        old_size = size
        size = item_size(
            client.get_item(TableName="GameTable", Key=game_key(game_id), ConsistentRead=True)[
                "Item"
            ]
        )
        cost.max_item = max(cost.max_item, size)
        reads = sum(1 for c in calls if c.operation in READS)
        writes = sum(1 for c in calls if c.operation in WRITES)
        rcu = sum(c.total or 0 for c in calls if c.operation in READS)
        wcu = sum(c.total or 0 for c in calls if c.operation in WRITES)
        table_wcu = sum(c.table for c in calls if c.operation in WRITES)
        gsi: Counter[str] = Counter()
        for c in calls:
            if c.operation in WRITES:
                gsi.update(c.indexes)
        gsi_text = "+".join(f"{units:g} {name}" for name, units in sorted(gsi.items()) if units)
        ended = out["hand_number"] != mine["hand_number"] or out["status"] == "finished"
        tag = "hand end" if ended else "in hand"
        game_writes = [c for c in calls if c.operation == "PutItem"]
        if game_writes and game_writes[-1].total is not None:
            expected = math.ceil(max(old_size, size) / 1024)
            if game_writes[-1].table != expected:
                cost.wcu_mismatch += 1
        if action == "play":
            cost.plays += 1
            cost.shapes[(tag, reads, writes, rcu, wcu, table_wcu, gsi_text)] += 1
            if (reads, writes, rcu, wcu) == (1, 1, 1.0, 1.0):
                cost.exact += 1
            if (reads, writes, rcu, table_wcu) == (1, 1, 1.0, 1.0):
                cost.exact_table += 1
        else:
            cost.draws += action == "draw"
            cost.passes += action == "pass"
            cost.other_shapes[(action, reads, writes, rcu, wcu, table_wcu, gsi_text)] += 1
        view = out
    cost.hands = view["hand_number"]
    cost.finished = view["status"] == "finished"
    api.calls.clear()
    cost.archived = api.drain(endpoint)
    puts = [c for c in api.calls if c.operation == "PutItem"]
    cost.archive_writes, cost.archive_wcu = len(puts), sum(c.total or 0 for c in puts)
    return cost


def shape_text(shape: Shape) -> str:
    tag, reads, writes, rcu, wcu, table_wcu, gsi = shape
    split = f" (table {table_wcu:g} + GSI {gsi})" if gsi else f" (table {table_wcu:g})"
    return f"{tag}: {reads}R+{writes}W {rcu:g}RCU+{wcu:g}WCU{split}"


# ------------------------------------------------------------------------------ b. latency


@dataclass
class Latency:
    handler: list[float] = field(default_factory=list)
    in_store: list[float] = field(default_factory=list)  # of which inside the store's requests
    bare_client: list[float] = field(default_factory=list)
    bare_table: list[float] = field(default_factory=list)
    bare_conditional: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def measure_latency(api: Api, endpoint: str, plays: int, warmup: int = 20) -> Latency:
    """Play handler calls on dos-jugadores games, each followed by the same change done bare on
    a copy of the game item: GetItem(ConsistentRead) of the item as it was before the play, then
    PutItem of the item the play wrote (same attributes, same size, same GSI keys changing)."""
    import boto3
    from boto3.dynamodb.types import TypeDeserializer

    client = raw_client(endpoint)
    table = boto3.session.Session().resource("dynamodb", endpoint_url=endpoint).Table("GameTable")
    deserialize = TypeDeserializer().deserialize
    api.hook()
    api.unhook()  # no counting hooks on the timed client, as deployed
    store = api.store
    store.track_capacity = False  # what a deployed function does
    inner = store._call
    spent = [0.0]

    def timed(fn: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return inner(fn, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    store._call = timed  # type: ignore[method-assign]
    result = Latency()
    copy_key = {"pk": {"S": "BENCH#copy"}, "sk": {"S": "GAME"}}
    plain_key = {"pk": "BENCH#copy", "sk": "GAME"}

    def fetch(game_id: str) -> dict[str, Any]:
        key = game_key(game_id)
        return client.get_item(TableName="GameTable", Key=key, ConsistentRead=True)["Item"]

    def reset(item: dict[str, Any]) -> None:
        client.put_item(TableName="GameTable", Item={**item, **copy_key})

    seed, done = 1000, -warmup
    while done < plays:
        seed += 1
        game_id, view = new_game(api, "dos-jugadores", 2, seed)
        while view["status"] == "playing" and done < plays:
            seat = view["turn"]
            _, mine, _ = api.call("GET", f"/games/{game_id}", f"p{seat}")
            action, body = choose(mine)
            before = fetch(game_id) if action == "play" else None
            spent[0] = 0.0
            status, out, elapsed = api.call("POST", f"/games/{game_id}/{action}", f"p{seat}", body)
            assert status == 200, out
            view = out
            if before is None:
                continue
            in_store = spent[0]
            # the same change on a copy: the item as it was, read back, then the item as the
            # play wrote it (same size, same index attributes changing)
            after = {**fetch(game_id), **copy_key}
            plain = {k: deserialize(v) for k, v in after.items()}
            reset(before)
            started = time.perf_counter()
            client.get_item(TableName="GameTable", Key=copy_key, ConsistentRead=True)
            client.put_item(TableName="GameTable", Item=after)
            bare_client = time.perf_counter() - started
            reset(before)
            started = time.perf_counter()
            table.get_item(Key=plain_key, ConsistentRead=True)
            table.put_item(Item=plain)
            bare_table = time.perf_counter() - started
            reset(before)
            started = time.perf_counter()
            client.get_item(TableName="GameTable", Key=copy_key, ConsistentRead=True)
            client.put_item(
                TableName="GameTable",
                Item=after,
                ConditionExpression="version = :expected",
                ExpressionAttributeValues={":expected": before["version"]},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
            bare_conditional = time.perf_counter() - started
            done += 1
            if done > 0:
                result.handler.append(elapsed)
                result.in_store.append(in_store)
                result.bare_client.append(bare_client)
                result.bare_table.append(bare_table)
                result.bare_conditional.append(bare_conditional)
                result.sizes.append(item_size(after))
    store.track_capacity = True
    del store._call  # back to the class's method
    return result


# ------------------------------------------------------------------------------ c. cold start

LOAD_HANDLER = """
spec = importlib.util.spec_from_file_location("play_app", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules["play_app"] = module
spec.loader.exec_module(module)
assert module.app is not None and callable(module.handler)
"""
HANDLER_IMPORT = f"""
import importlib.util, sys, time
started = time.perf_counter()
{LOAD_HANDLER}
print(time.perf_counter() - started)
"""
BARE_IMPORT = """
import importlib.util, sys, time
started = time.perf_counter()
import boto3, pydantic, aws_lambda_powertools.event_handler
print(time.perf_counter() - started)
"""
#: both in one interpreter: what the handler adds on top of the bare set, without the noise
#: between two processes
MARGINAL_IMPORT = f"""
import importlib.util, sys, time
started = time.perf_counter()
import boto3, pydantic, aws_lambda_powertools.event_handler
bare = time.perf_counter()
{LOAD_HANDLER}
print(time.perf_counter() - bare, bare - started)
"""
#: pydantic's model machinery: ``import pydantic`` is lazy in pydantic 2, so the bare line
#: leaves out what a ``BaseModel`` would cost (the request bodies use pydantic-core schemas)
BARE_MODEL_IMPORT = """
import time
started = time.perf_counter()
import boto3, aws_lambda_powertools.event_handler
from pydantic import BaseModel
print(time.perf_counter() - started)
"""
#: what the handler imports beyond the bare set, one piece at a time (the same bare imports first)
PIECES = {
    "+ Tracer() (only with DetailedTracing=true)": "from aws_lambda_powertools import Tracer\n"
    "Tracer(service='domino')",
    "+ Logger() + Metrics()": "from aws_lambda_powertools import Logger, Metrics\n"
    "Logger(service='domino'); Metrics(namespace='Domino', service='domino')",
    "+ domino.engine": "import domino.engine",
    "+ domino.api.models (pydantic-core validators)": "import domino.api.models",
    "+ idempotency utility": "import aws_lambda_powertools.utilities.idempotency",
    "+ APIGatewayHttpResolver(enable_validation)": "from aws_lambda_powertools.event_handler "
    "import APIGatewayHttpResolver\nAPIGatewayHttpResolver(enable_validation=True)",
}
PIECE_IMPORT = """
import time
import boto3, pydantic, aws_lambda_powertools.event_handler
started = time.perf_counter()
{piece}
print(time.perf_counter() - started)
"""
RUNTIME_VENV = REPO / ".venv-bench-runtime"


def runtime_python() -> tuple[str, str]:
    """A venv with only the runtime dependencies (created on first use), else this one."""
    requirements = SHARED / "requirements.txt"
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()
    python = RUNTIME_VENV / "bin" / "python"
    stamp = RUNTIME_VENV / ".requirements-sha256"
    if python.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return str(python), f"{RUNTIME_VENV.name} (runtime dependencies only)"
    print(
        f"creating {RUNTIME_VENV.name} (pip install -r shared/requirements.txt) ...",
        file=sys.stderr,
        flush=True,
    )
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(RUNTIME_VENV)],
            check=True,
            timeout=60,
            capture_output=True,
        )
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run(
            [*pip, "-r", str(requirements)], check=True, timeout=150, capture_output=True
        )
        stamp.write_text(digest)
        return str(python), f"{RUNTIME_VENV.name} (runtime dependencies only, just created)"
    except (subprocess.SubprocessError, OSError) as err:
        return sys.executable, f"FALLBACK main venv ({type(err).__name__} creating the runtime one)"


def cold_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    env.update(ENV)
    env["DOMINO_TRACK_CAPACITY"] = "false"
    env["PYTHONPATH"] = str(SHARED)
    return env


def measure_cold(python: str, repeats: int) -> dict[str, list[float]]:
    """Fresh interpreters: handler and bare alternately (ABBA, so drift on a shared machine hits
    both alike), then the marginal cost in one interpreter, then the pieces."""
    play = str(REPO / "functions" / "play" / "app.py")
    env = cold_env()
    runs: dict[str, list[float]] = {
        name: []
        for name in ("handler", "bare", "ratio", "bare_models", "marginal", "marginal_bare")
    }

    def once(code: str, *args: str) -> list[float]:
        out = subprocess.run(
            [python, "-c", code, *args],
            env=env,
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return [float(x) for x in out.stdout.split()]

    once(HANDLER_IMPORT, play)  # bytecode caches written, as a built layer ships them
    once(BARE_IMPORT)
    for round_ in range(repeats):
        first_handler = round_ % 2 == 0
        pair = [("handler", HANDLER_IMPORT, (play,)), ("bare", BARE_IMPORT, ())]
        seconds = {}
        for name, code, args in pair if first_handler else pair[::-1]:
            seconds[name] = once(code, *args)[0]
            runs[name].append(seconds[name])
        runs["ratio"].append(seconds["handler"] / seconds["bare"])
        runs["bare_models"].append(once(BARE_MODEL_IMPORT)[0])
        marginal, bare = once(MARGINAL_IMPORT, play)
        runs["marginal"].append(marginal)
        runs["marginal_bare"].append(bare)
    for _ in range(max(3, repeats // 2)):
        for name, piece in PIECES.items():
            runs.setdefault(name, []).append(once(PIECE_IMPORT.format(piece=piece))[0])
    return runs


# ------------------------------------------------------------------------------ main


def print_shapes(title: str, tallies: list[Counter[Any]]) -> None:
    """One line per request shape, most frequent first, summed over every game."""
    total: Counter[str] = Counter()
    for tally in tallies:
        for shape, count in tally.items():
            total[shape_text(shape)] += count
    print(title)
    for text, count in total.most_common():
        print(f"  {count:>6}  {text}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def report_costs(api: Api, endpoint: str, max_hands: int | None) -> None:
    client = raw_client(endpoint)
    costs = []
    for index, (preset, players) in enumerate(GAMES):
        costs.append(measure_costs(api, client, endpoint, preset, players, 7 + index, max_hands))
    print(
        "\na. DynamoDB per accepted play (whole matches"
        f"{', first 2 hands' if max_hands else ''}; goal 1R+1W, 1 RCU + 1 WCU)"
    )
    header = (
        f"{'preset':<16}{'n':>2}{'hands':>6}{'plays':>6}{'exact':>7}{'%':>6}"
        f"{'table':>7}{'max item B':>11}{'draw/pass R+W':>15}"
        "  exceptions (count x shape)"
    )
    print(header)
    print("-" * len(header))
    for cost in costs:
        exceptions = [
            f"{count}x {shape_text(shape)}"
            for shape, count in sorted(cost.shapes.items(), key=lambda kv: -kv[1])
            if shape[1:5] != (1, 1, 1.0, 1.0)
        ]
        others = sorted({f"{s[1]}+{s[2]}" for s in cost.other_shapes})
        share = 100 * cost.exact / cost.plays if cost.plays else 0
        finished = "" if cost.finished else "*"
        print(
            f"{cost.preset:<16}{cost.players:>2}{cost.hands:>5}{finished:1}{cost.plays:>6}"
            f"{cost.exact:>7}{share:>6.1f}{cost.exact_table:>7}{cost.max_item:>11}"
            f"{','.join(others) or '-':>15}  {'; '.join(exceptions) or 'none'}"
        )
        for error in cost.errors:
            print(f"    ERROR {error}")
    total_plays = sum(c.plays for c in costs)
    total_exact = sum(c.exact for c in costs)
    six = [c for c in costs if c.preset != "chipre"]
    print(
        "exact: plays with 1R+1W and 1 RCU + 1 WCU in all (GSIs included); table: the "
        "same counting only the base table's units"
    )
    print(
        f"all: {total_exact}/{total_plays} plays exactly 1R+1W and 1RCU+1WCU, "
        f"{sum(c.exact_table for c in costs)} counting the table alone; "
        f"largest double-six item {max(c.max_item for c in six)} B, "
        f"chipre {max(c.max_item for c in costs if c.preset == 'chipre')} B; "
        f"game writes whose WCU != ceil(max(old,new)/1KB): "
        f"{sum(c.wcu_mismatch for c in costs)}"
    )
    print(
        "stream consumer (functions/archive, outside the requests): "
        f"{sum(c.archived for c in costs)} marked records, "
        f"{sum(c.archive_writes for c in costs)} archive PutItems, "
        f"{sum(c.archive_wcu for c in costs):g} WCU, for "
        f"{sum(c.hands - 1 for c in costs)} hands that ended before the last"
    )
    if not all(c.finished for c in costs):
        print("(* = stopped before the match ended)")
    print_shapes("distribution over every play:", [c.shapes for c in costs])
    print_shapes("draws and passes:", [c.other_shapes for c in costs])


def report_latency(api: Api, endpoint: str, plays: int) -> None:
    latency = measure_latency(api, endpoint, plays)
    outside = [h - i for h, i in zip(latency.handler, latency.in_store, strict=True)]
    sizes = f"{min(latency.sizes)}-{max(latency.sizes)} B"
    print(
        f"\nb. play handler latency on DynamoDB Local, {len(latency.handler)} plays "
        f"(dos-jugadores, items {sizes}; goal <= 1.3x)"
    )
    print(f"{'':<44}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}")
    rows = (
        ("play handler (event -> response)", latency.handler),
        ("  of which in the store's DynamoDB requests", latency.in_store),
        ("  of which outside them (handler - store)", outside),
        ("bare GetItem+PutItem, low-level client", latency.bare_client),
        ("bare GetItem+PutItem, Table resource", latency.bare_table),
        ("bare GetItem+conditional PutItem, client", latency.bare_conditional),
    )
    for name, values in rows:
        p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
        print(f"{name:<44}{ms(p50):>9}{ms(p95):>9}{ms(statistics.fmean(values)):>9}")

    def ratios(bare: list[float]) -> str:
        p50 = percentile(latency.handler, 0.5) / percentile(bare, 0.5)
        p95 = percentile(latency.handler, 0.95) / percentile(bare, 0.95)
        return f"p50 {p50:.2f}x, p95 {p95:.2f}x"

    print(
        f"ratio handler / bare GetItem+PutItem (client): {ratios(latency.bare_client)}; "
        f"(Table resource): {ratios(latency.bare_table)}; "
        f"/ bare with the conditional put: {ratios(latency.bare_conditional)}"
    )


def report_cold(repeats: int) -> None:
    python, which = runtime_python()
    cold = measure_cold(python, repeats)
    h, b = statistics.median(cold["handler"]), statistics.median(cold["bare"])
    q = statistics.quantiles(cold["ratio"], n=4)
    added = [m / bare for m, bare in zip(cold["marginal"], cold["marginal_bare"], strict=True)]
    print(
        f"\nc. cold start, {repeats} fresh interpreters each, alternating (goal <= 1.15x); {which}"
    )
    print(f"{'play handler module (functions/play/app.py + resolver)':<58}{ms(h):>9} ms")
    print(f"{'bare import boto3, pydantic, powertools.event_handler':<58}{ms(b):>9} ms")
    print(
        "ratio, handler / bare of the same round: median "
        f"{statistics.median(cold['ratio']):.3f}x (quartiles {q[0]:.3f}-{q[2]:.3f}x); "
        f"ratio of the medians {h / b:.3f}x"
    )
    print(
        f"in one interpreter, after the bare imports: the handler adds "
        f"{ms(statistics.median(cold['marginal']))} ms = "
        f"{1 + statistics.median(added):.3f}x of that run's bare imports"
    )
    bm = statistics.median(cold["bare_models"])
    print(f"(for scale: bare with pydantic.BaseModel loaded {ms(bm)} ms = {bm / b:.2f}x)")
    print("what the handler adds, one piece at a time after the bare imports (median; pieces")
    print("overlap, so they need not add up to the difference):")
    for name in PIECES:
        extra = statistics.median(cold[name])
        print(f"  {name:<52}{ms(extra):>10} ms  ({extra / b:+.0%} of bare)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 hands per game, fewer samples")
    parser.add_argument(
        "--only",
        choices=("a", "b", "c"),
        nargs="+",
        default=["a", "b", "c"],
        help="run only these parts (a: costs, b: latency, c: cold start)",
    )
    args = parser.parse_args()
    parts = set(args.only)
    # GET handlers add no metric: Powertools warns about it once per process
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    started = time.perf_counter()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"bench/api.py {' '.join(sys.argv[1:])} {when}, "
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    if parts & {"a", "b"}:
        server, endpoint = start_database()
        try:
            api = Api()
            if "a" in parts:
                report_costs(api, endpoint, 2 if args.quick else None)
            if "b" in parts:
                report_latency(api, endpoint, 100 if args.quick else 300)
        finally:
            server.stop()
    if "c" in parts:
        report_cold(11 if args.quick else 21)
    print(
        f"\ntotal {time.perf_counter() - started:.0f} s, load average now "
        f"{os.getloadavg()[0]:.1f} (other work on the machine skews b and c)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
