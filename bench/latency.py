"""Figure b: play handler latency against a bare GetItem + PutItem of the same item.

    python bench/latency.py [--quick] [--plays N] [--tree PATH] [--endpoint URL] [--json FILE]

Prints figures, asserts nothing (docs/benchmarks.md records a run). It starts its own DynamoDB
Local (in memory, a free port; ``--endpoint`` uses a running one) with the template's tables
and calls the handlers in-process through the local runtime's harness, with capacity tracking
off, as deployed.

Plays of seeded dos-jugadores games, each followed by the same change done bare on a copy of
the game item: GetItem(ConsistentRead) of the item as it was before the play, then PutItem of
the item the play wrote (same attributes, same size, same GSI keys changing), measured
alternately in the same run; three variants of the bare pair (low-level client, Table resource,
client with the handler's conditional put). The handler's time is also split into the time
inside its DynamoDB requests and the rest.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

from _dynamo import DynamoRequests, item_size
from _harness import as_player, choose, database, game_key, harness, new_game, raw_client
from _stats import ms, percentile
from _tree import add_common_arguments, banner, footer, use_tree, write_json


@dataclass
class Latency:
    handler: list[float] = field(default_factory=list)
    in_store: list[float] = field(default_factory=list)  # of which inside its DynamoDB requests
    bare_client: list[float] = field(default_factory=list)
    bare_table: list[float] = field(default_factory=list)
    bare_conditional: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def measure_latency(
    api: Any, requests: DynamoRequests, endpoint: str, plays: int, warmup: int = 20
) -> Latency:
    """Play handler calls on dos-jugadores games, each followed by the same change done bare on
    a copy of the game item: GetItem(ConsistentRead) of the item as it was before the play, then
    PutItem of the item the play wrote (same attributes, same size, same GSI keys changing)."""
    import boto3
    from boto3.dynamodb.types import TypeDeserializer

    client = requests.ignore(raw_client(endpoint))
    table = boto3.session.Session().resource("dynamodb", endpoint_url=endpoint).Table("GameTable")
    requests.ignore(table.meta.client)
    deserialize = TypeDeserializer().deserialize
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
            mine = as_player(api, "GET", f"/games/{game_id}", f"p{seat}").body
            action, body = choose(mine)
            before = fetch(game_id) if action == "play" else None
            requests.spent = 0.0
            reply = as_player(api, "POST", f"/games/{game_id}/{action}", f"p{seat}", body)
            in_store = requests.spent
            assert reply.status == 200, reply.body
            view = reply.body
            if before is None:
                continue
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
                result.handler.append(reply.elapsed)
                result.in_store.append(in_store)
                result.bare_client.append(bare_client)
                result.bare_table.append(bare_table)
                result.bare_conditional.append(bare_conditional)
                result.sizes.append(item_size(after))
    return result


def report_latency(latency: Latency) -> dict[str, Any]:
    outside = [h - i for h, i in zip(latency.handler, latency.in_store, strict=True)]
    sizes = f"{min(latency.sizes)}-{max(latency.sizes)} B"
    print(
        f"\nb. play handler latency on DynamoDB Local, {len(latency.handler)} plays "
        f"(dos-jugadores, items {sizes}; goal <= 1.3x)"
    )
    print(f"{'':<44}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}")
    rows = (
        ("play handler (event -> response)", latency.handler),
        ("  of which in its DynamoDB requests", latency.in_store),
        ("  of which outside them (handler - requests)", outside),
        ("bare GetItem+PutItem, low-level client", latency.bare_client),
        ("bare GetItem+PutItem, Table resource", latency.bare_table),
        ("bare GetItem+conditional PutItem, client", latency.bare_conditional),
    )
    for name, values in rows:
        p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
        print(f"{name:<44}{ms(p50):>9}{ms(p95):>9}{ms(statistics.fmean(values)):>9}")

    def ratio(bare: list[float], q: float) -> float:
        return percentile(latency.handler, q) / percentile(bare, q)

    def ratios(bare: list[float]) -> str:
        return f"p50 {ratio(bare, 0.5):.2f}x, p95 {ratio(bare, 0.95):.2f}x"

    print(
        f"ratio handler / bare GetItem+PutItem (client): {ratios(latency.bare_client)}; "
        f"(Table resource): {ratios(latency.bare_table)}; "
        f"/ bare with the conditional put: {ratios(latency.bare_conditional)}"
    )
    return {
        "plays": len(latency.handler),
        "handler_p50_ms": percentile(latency.handler, 0.5) * 1000,
        "bare_client_p50_ms": percentile(latency.bare_client, 0.5) * 1000,
        "outside_p50_ms": percentile(outside, 0.5) * 1000,
        "ratio_p50": ratio(latency.bare_client, 0.5),
        "ratio_p95": ratio(latency.bare_client, 0.95),
        "ratio_conditional_p50": ratio(latency.bare_conditional, 0.5),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 timed plays instead of 300")
    parser.add_argument("--plays", type=int, default=None, help="timed plays (after 20 untimed)")
    parser.add_argument("--endpoint", help="use this DynamoDB (e.g. DynamoDB Local) instead")
    add_common_arguments(parser)
    args = parser.parse_args()
    tree = use_tree(args.tree)
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    started = time.perf_counter()
    banner("bench/latency.py", tree)
    plays = args.plays or (100 if args.quick else 300)
    requests = DynamoRequests().install()  # timing only: no capacity asked for, as deployed
    with database(tree, args.endpoint, DOMINO_TRACK_CAPACITY="false") as endpoint:
        api = harness(tree, endpoint)
        figures = report_latency(measure_latency(api, requests, endpoint, plays))
    write_json(args.json, figures)
    footer(started, "these timings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
