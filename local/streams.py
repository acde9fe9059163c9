"""DynamoDB stream events for the local runtime, as Lambda's event source mapping delivers them.

Every function with a ``Type: DynamoDB`` event on ``!GetAtt <Table>.StreamArn`` gets the
table's stream records: read with the Streams API from DynamoDB Local (or moto), filtered by
its FilterCriteria, batched by BatchSize, retried up to MaximumRetryAttempts and, with
ReportBatchItemFailures, re-delivered from the first failed record. Delivery is at least once:
every shard is read from TRIM_HORIZON, so a restart replays what the stream still holds.

Not modelled: StartingPosition LATEST, MaximumBatchingWindowInSeconds, BisectBatchOnFunctionError,
parallelisation and on-failure destinations (a batch given up on is logged, not sent anywhere).
"""

from __future__ import annotations

import base64
import json
import operator
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from local.template import Intrinsic, Template

# Lambda's default (-1) retries until the records expire from the stream (24 h); a local
# runtime stuck on one batch for a day helps nobody, so it gives up after this many instead.
LOCAL_RETRY_LIMIT = 10
DEFAULT_BATCH_SIZE = 100  # Lambda's default for DynamoDB streams
_NUMERIC_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    "=": operator.eq,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class StreamSource:
    """One DynamoDB event of a function: which table's stream feeds it, and how."""

    function: str  # logical id
    code_uri: Path
    handler: str
    table: str  # logical id of the table
    batch_size: int = DEFAULT_BATCH_SIZE
    max_retries: int = -1  # as in the template: -1 means Lambda's "until the records expire"
    report_item_failures: bool = False
    filters: list[dict[str, Any]] = field(default_factory=list)

    @property
    def retry_limit(self) -> int:
        return self.max_retries if self.max_retries >= 0 else LOCAL_RETRY_LIMIT

    def passes(self, record: dict[str, Any]) -> bool:
        """Lambda's FilterCriteria: no filters lets everything through, else any filter."""
        return not self.filters or any(matches(pattern, record) for pattern in self.filters)


def _stream_table(stream: Any) -> str | None:
    """The table of ``!GetAtt Table.StreamArn`` (short or long form), else None."""
    if isinstance(stream, dict) and set(stream) == {"Fn::GetAtt"}:
        stream = Intrinsic("GetAtt", stream["Fn::GetAtt"])
    if not isinstance(stream, Intrinsic) or stream.name != "GetAtt":
        return None
    value = stream.value
    parts = value.split(".", 1) if isinstance(value, str) else list(value)
    if len(parts) == 2 and parts[1] == "StreamArn":
        return str(parts[0])
    return None


def stream_sources(template: Template) -> list[StreamSource]:
    """Every enabled DynamoDB event of the template's functions on one of its tables' streams."""
    tables = template.of_type("AWS::DynamoDB::Table")
    sources: list[StreamSource] = []
    for name, code_uri, handler, ev in template.function_events("DynamoDB"):
        table = _stream_table(ev.get("Stream"))
        if table not in tables or ev.get("Enabled") is False:
            continue
        filters = []
        for entry in ev.get("FilterCriteria", {}).get("Filters", []):
            raw = entry["Pattern"]
            pattern = json.loads(raw) if isinstance(raw, str) else raw
            check_pattern(pattern, f"{name} FilterCriteria")
            filters.append(pattern)
        sources.append(
            StreamSource(
                function=name,
                code_uri=code_uri,
                handler=handler,
                table=table,
                batch_size=int(ev.get("BatchSize", DEFAULT_BATCH_SIZE)),
                max_retries=int(ev.get("MaximumRetryAttempts", -1)),
                report_item_failures="ReportBatchItemFailures"
                in ev.get("FunctionResponseTypes", []),
                filters=filters,
            )
        )
    return sources


# ---------------------------------------------------------------------------- event filtering


def matches(pattern: dict[str, Any], record: dict[str, Any]) -> bool:
    """Whether ``record`` (a Lambda stream record) matches one Lambda event-filter pattern.

    The subset of Lambda's (EventBridge's) pattern language the template needs:

    - an object in the pattern descends into the same key of the record; every key must match;
    - a leaf is a list of matchers, any of which may match (OR):
      a literal string, number, bool or null (JSON equality: ``3`` does not match ``"3"``);
      ``{"exists": true|false}`` (present as a non-object value, or not);
      ``{"prefix": "..."}``; ``{"anything-but": value or [values]}``;
      ``{"numeric": [op, number, ...]}`` with op in ``< <= = > >=``, all of them holding;
    - a record value that is a list matches when any of its items does;
    - a key missing from the record fails every matcher but ``{"exists": false}``.

    Numeric matchers also accept the number strings of typed ``"N"`` values (``{"N": "3"}``):
    Lambda compares JSON numbers only, so such a filter may match less when deployed.
    Unsupported operators raise ValueError (``check_pattern`` finds them up front).
    """
    for key, want in pattern.items():
        present = key in record
        value = record.get(key)
        if isinstance(want, dict):
            if not matches(want, value if isinstance(value, dict) else {}):
                return False
        elif isinstance(want, list):
            if not any(_matcher(m, present, value, key == "N") for m in want):
                return False
        else:
            raise ValueError(f"pattern value of {key!r} must be an object or a list")
    return True


def _matcher(matcher: Any, present: bool, value: Any, typed_number: bool) -> bool:
    if not isinstance(matcher, dict):
        return present and any(_equal(v, matcher) for v in _leaves(value))
    if len(matcher) != 1:
        raise ValueError(f"a matcher has exactly one operator: {matcher!r}")
    ((op, arg),) = matcher.items()
    if op == "exists":
        return (present and not isinstance(value, dict)) == bool(arg)
    if not present:
        return False
    leaves = _leaves(value)
    if op == "prefix":
        return any(isinstance(v, str) and v.startswith(arg) for v in leaves)
    if op == "anything-but":
        excluded = arg if isinstance(arg, list) else [arg]
        return any(not any(_equal(v, e) for e in excluded) for v in leaves)
    if op == "numeric":
        return any(_numeric(arg, v, typed_number) for v in leaves)
    raise ValueError(f"unsupported filter operator {op!r}")


def _leaves(value: Any) -> list[Any]:
    items = value if isinstance(value, list) else [value]
    return [v for v in items if not isinstance(v, dict)]  # objects are never leaves


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _equal(value: Any, literal: Any) -> bool:
    if _is_number(value) and _is_number(literal):
        return float(value) == float(literal)
    return type(value) is type(literal) and value == literal


def _numeric(conditions: list[Any], value: Any, typed_number: bool) -> bool:
    if _is_number(value):
        number = float(value)
    elif typed_number and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return False
    else:
        return False
    pairs = zip(conditions[::2], conditions[1::2], strict=True)
    return all(_NUMERIC_OPS[op](number, float(bound)) for op, bound in pairs)


def check_pattern(pattern: Any, where: str = "filter") -> None:
    """Raise ValueError if ``pattern`` uses what ``matches`` does not implement."""
    if not isinstance(pattern, dict):
        raise ValueError(f"{where}: a pattern is a JSON object")
    for key, want in pattern.items():
        if isinstance(want, dict):
            check_pattern(want, f"{where}.{key}")
            continue
        if not isinstance(want, list):
            raise ValueError(f"{where}.{key}: expected an object or a list")
        for matcher in want:
            if not isinstance(matcher, dict):
                if isinstance(matcher, list):
                    raise ValueError(f"{where}.{key}: nested lists are not matchers")
                continue
            if len(matcher) != 1:
                raise ValueError(f"{where}.{key}: one operator per matcher: {matcher!r}")
            ((op, arg),) = matcher.items()
            if op not in ("exists", "prefix", "anything-but", "numeric"):
                raise ValueError(f"{where}.{key}: unsupported filter operator {op!r}")
            if not _valid_argument(op, arg):
                raise ValueError(f"{where}.{key}: bad argument for {op!r}: {arg!r}")


def _valid_argument(op: str, arg: Any) -> bool:
    if op == "exists":
        return isinstance(arg, bool)
    if op == "prefix":
        return isinstance(arg, str)
    if op == "anything-but":
        return not isinstance(arg, dict)
    return (
        isinstance(arg, list)
        and len(arg) > 0
        and len(arg) % 2 == 0
        and all(o in _NUMERIC_OPS for o in arg[::2])
        and all(_is_number(n) for n in arg[1::2])
    )


# ---------------------------------------------------------------------------- Lambda records


def _typed(value: dict[str, Any]) -> dict[str, Any]:
    """A typed attribute value as Lambda's JSON has it: binaries base64, maps/lists recursed."""
    out: dict[str, Any] = {}
    for kind, inner in value.items():
        if kind == "B":
            out[kind] = base64.b64encode(inner).decode("ascii")
        elif kind == "BS":
            out[kind] = [base64.b64encode(b).decode("ascii") for b in inner]
        elif kind == "M":
            out[kind] = _image(inner)
        elif kind == "L":
            out[kind] = [_typed(item) for item in inner]
        else:
            out[kind] = inner  # S, N (a string), SS, NS, BOOL, NULL
    return out


def _image(image: dict[str, Any]) -> dict[str, Any]:
    return {name: _typed(value) for name, value in image.items()}


def lambda_record(raw: dict[str, Any], stream_arn: str, region: str) -> dict[str, Any]:
    """One GetRecords record (boto3's types) as the record of a Lambda event (plain JSON)."""
    source = raw["dynamodb"]
    body: dict[str, Any] = {}
    created = source.get("ApproximateCreationDateTime")
    if created is not None:
        body["ApproximateCreationDateTime"] = (
            created.timestamp() if isinstance(created, datetime) else created
        )
    for key in ("Keys", "NewImage", "OldImage"):
        if key in source:
            body[key] = _image(source[key])
    for key in ("SequenceNumber", "SizeBytes", "StreamViewType"):
        if key in source:
            body[key] = source[key]
    record: dict[str, Any] = {
        "eventID": raw["eventID"],
        "eventName": raw["eventName"],
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": region,
        "dynamodb": body,
        "eventSourceARN": stream_arn,
    }
    if "userIdentity" in raw:  # TTL deletions say who removed the item
        record["userIdentity"] = raw["userIdentity"]
    return record


# ---------------------------------------------------------------------------- the pump


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _error_code(err: Exception) -> str:
    return (
        str(err.response.get("Error", {}).get("Code", "")) if isinstance(err, ClientError) else ""
    )


def _last_line(text: str) -> str:
    """A traceback's last line (the error itself): the whole of it is logged on giving up."""
    lines = text.strip().splitlines()
    return lines[-1] if lines else text


@dataclass
class _Shard:
    shard_id: str
    parent: str | None
    iterator: str | None = None  # None: ask for one (again)
    last_sequence: str | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)  # read, matched, not delivered


@dataclass
class _Stream:
    """One source's position in its table's stream (each mapping reads on its own)."""

    arn: str
    shards: dict[str, _Shard] = field(default_factory=dict)  # open, or closed but not drained
    finished: set[str] = field(default_factory=set)  # closed and drained


class StreamPump:
    """Reads the template's table streams and invokes their functions, like event source mappings.

    ``invoke(source, event)`` runs the function; raising means the batch failed. ``drain()``
    delivers everything the streams hold now; ``run(stop)`` keeps draining until ``stop``.
    """

    def __init__(
        self,
        endpoint_url: str,
        template: Template,
        table_names: dict[str, str],
        invoke: Callable[[StreamSource, dict[str, Any]], Any],
        log: Callable[[str], None] = _stderr,
        *,
        sources: Sequence[StreamSource] | None = None,
    ) -> None:
        self.sources = list(stream_sources(template) if sources is None else sources)
        self.table_names = table_names
        self.invoke = invoke
        self.log = log
        self.region = (
            os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
        )
        config = Config(
            retries={"max_attempts": 2, "mode": "standard"}, connect_timeout=2, read_timeout=20
        )
        self.dynamodb = boto3.client(
            "dynamodb", endpoint_url=endpoint_url, region_name=self.region, config=config
        )
        self.streams = boto3.client(
            "dynamodbstreams", endpoint_url=endpoint_url, region_name=self.region, config=config
        )
        self._state: dict[int, _Stream] = {}  # per index in sources
        self._warned: set[str] = set()
        self._lock = threading.Lock()
        self._stop: threading.Event | None = None

    def _stopping(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    def _warn_once(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            self.log(message)

    # -------------------------------------------------------------- shards

    def _stream(self, index: int, source: StreamSource) -> _Stream | None:
        """The source's stream state, following the table to a new stream if it was recreated."""
        table = self.table_names.get(source.table)
        if table is None:
            self._warn_once(f"streams: {source.function}: no local table for {source.table}")
            return None
        try:
            arn = self.dynamodb.describe_table(TableName=table)["Table"].get("LatestStreamArn")
        except ClientError as err:
            if _error_code(err) != "ResourceNotFoundException":
                raise
            arn = None
        if not arn:
            self._warn_once(f"streams: {source.function}: table {table} has no stream")
            self._state.pop(index, None)
            return None
        state = self._state.get(index)
        if state is None or state.arn != arn:
            state = self._state[index] = _Stream(arn)
        self._list_shards(state)
        return state

    def _list_shards(self, state: _Stream) -> None:
        args: dict[str, Any] = {"StreamArn": state.arn}
        while True:
            description = self.streams.describe_stream(**args)["StreamDescription"]
            for shard in description.get("Shards", []):
                shard_id = shard["ShardId"]
                if shard_id not in state.shards and shard_id not in state.finished:
                    state.shards[shard_id] = _Shard(shard_id, shard.get("ParentShardId"))
            last = description.get("LastEvaluatedShardId")
            if not last:
                return
            args["ExclusiveStartShardId"] = last

    def _iterator(self, state: _Stream, shard: _Shard) -> str:
        args: dict[str, Any] = {"StreamArn": state.arn, "ShardId": shard.shard_id}
        if shard.last_sequence:  # a new iterator where the expired one was
            args["ShardIteratorType"] = "AFTER_SEQUENCE_NUMBER"
            args["SequenceNumber"] = shard.last_sequence
        else:
            args["ShardIteratorType"] = "TRIM_HORIZON"
        return str(self.streams.get_shard_iterator(**args)["ShardIterator"])

    # -------------------------------------------------------------- draining

    def drain(self) -> int:
        """Deliver every record the streams hold now; returns how many (after filtering)."""
        with self._lock:
            return sum(self._drain_source(i, source) for i, source in enumerate(self.sources))

    def _drain_source(self, index: int, source: StreamSource) -> int:
        state = self._stream(index, source)
        if state is None:
            return 0
        delivered = 0
        while not self._stopping():
            closed = False
            for shard in list(state.shards.values()):
                if shard.parent in state.shards:
                    continue  # a parent's records come before its children's
                delivered += self._drain_shard(source, state, shard)
                if shard.shard_id not in state.shards:
                    closed = True
            if not closed:
                break
            self._list_shards(state)  # a closed shard's children may be listed by now
        return delivered

    def _drain_shard(self, source: StreamSource, state: _Stream, shard: _Shard) -> int:
        delivered = 0
        while not self._stopping():
            if shard.iterator is None:
                try:
                    shard.iterator = self._iterator(state, shard)
                except ClientError as err:
                    if _error_code(err) != "TrimmedDataAccessException":
                        raise
                    shard.last_sequence = None  # what we had is gone: start over
                    shard.iterator = self._iterator(state, shard)
            try:
                page = self.streams.get_records(ShardIterator=shard.iterator)
            except ClientError as err:
                if _error_code(err) in ("ExpiredIteratorException", "TrimmedDataAccessException"):
                    shard.iterator = None
                    continue
                raise
            records = page.get("Records", [])
            shard.iterator = page.get("NextShardIterator")
            for raw in records:
                shard.last_sequence = raw["dynamodb"]["SequenceNumber"]
                record = lambda_record(raw, state.arn, self.region)
                if source.passes(record):
                    shard.pending.append(record)
            while len(shard.pending) >= source.batch_size:
                delivered += self._deliver(source, shard, source.batch_size)
            if not records or shard.iterator is None:
                break
        if shard.pending and not self._stopping():
            delivered += self._deliver(source, shard, len(shard.pending))
        if shard.iterator is None and not shard.pending:  # closed and drained
            del state.shards[shard.shard_id]
            state.finished.add(shard.shard_id)
        return delivered

    def _deliver(self, source: StreamSource, shard: _Shard, size: int) -> int:
        """Invoke with the first ``size`` pending records, retrying as the mapping would."""
        batch, shard.pending = shard.pending[:size], shard.pending[size:]
        remaining = batch
        retries = 0
        while True:
            failed_from, reason = self._invoke(source, remaining)
            if failed_from is None:
                return len(batch)
            remaining = remaining[failed_from:]
            sequences = [r["dynamodb"]["SequenceNumber"] for r in remaining]
            if self._stopping():
                self.log(f"streams: {source.function}: stopping; not delivered: {sequences}")
                return len(batch)
            if retries >= source.retry_limit:
                self.log(
                    f"streams: {source.function} gave up after {retries} retries; "
                    f"skipped records {sequences}: {reason}"
                )
                return len(batch)
            retries += 1
            self.log(
                f"streams: {source.function} failed on {len(remaining)} record(s), "
                f"retry {retries}/{source.retry_limit}: {_last_line(reason)}"
            )

    def _invoke(
        self, source: StreamSource, records: list[dict[str, Any]]
    ) -> tuple[int | None, str]:
        """Index of the first record to deliver again (None: all done) and why."""
        event = {"Records": records}
        # Lambda sends JSON: a type left unconverted is a bug here, raised rather than hidden
        # (the batch is dropped, so the pump does not stall on it)
        json.dumps(event)
        try:
            result = self.invoke(source, event)
        except Exception as err:
            return 0, str(err) or type(err).__name__
        if not source.report_item_failures or not isinstance(result, dict):
            return None, ""
        failures = result.get("batchItemFailures")
        if not failures:
            return None, ""
        positions = {r["dynamodb"]["SequenceNumber"]: i for i, r in enumerate(records)}
        if not isinstance(failures, list):
            return 0, f"batchItemFailures is not a list: {failures!r}"
        found: list[int] = []
        for failure in failures:
            identifier = failure.get("itemIdentifier") if isinstance(failure, dict) else None
            if identifier not in positions:  # Lambda fails the whole batch on a bad identifier
                return 0, f"bad batchItemFailures entry {failure!r}"
            found.append(positions[identifier])
        return min(found), f"batchItemFailures {failures!r}"

    def run(self, stop: threading.Event, interval: float = 0.1) -> None:
        """Drain every ``interval`` seconds until ``stop`` is set; errors are logged, not raised."""
        self._stop = stop
        last_error: str | None = None
        while not stop.is_set():
            try:
                self.drain()
            except Exception as err:  # the database restarting, a bug: never the runtime's end
                message = f"{type(err).__name__}: {err}"
                if message != last_error:
                    self.log(f"streams: polling failed (retrying): {message}")
                last_error = message
            else:
                if last_error is not None:
                    self.log("streams: polling again")
                last_error = None
            stop.wait(interval)
