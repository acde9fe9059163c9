"""Reading the tables' streams and invoking their functions, as event source mappings do."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import zlib
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from local.containers import ANY_TABLE
from local.streams.checkpoints import Checkpoints, Position
from local.streams.records import lambda_record
from local.streams.sources import StreamSource, stream_sources
from local.template import Template

#: how often a polling source looks for a recreated table or new shards, beyond the looks a
#: closed shard or a failed read make at once: a table made anew while running (by hand: the
#: runtime never does) is found within this; at 1 s an idle runtime's describes were two of
#: every three requests it made of DynamoDB Local
DESCRIBE_EVERY_SECONDS = 10.0
#: a mapping looks at its stream at once when a function that wrote to its table has run
#: (``wake``), and otherwise once an ``IDLE_SECONDS``: DynamoDB Local records a write before it
#: answers it, so the look a wake makes finds every record the function left, and looks in
#: between would find none (half the GetRecords of a runtime played at people's pace;
#: docs/decisions.md "Local runtime"). Only a write no function of the runtime made (a table
#: changed by hand) waits for the idle look; a failed look is tried again sooner.
IDLE_SECONDS = 3.0


#: the most records a GetRecords page holds: a page of an open shard with fewer was all the
#: shard had then (DynamoDB Local records a write before it answers it), so no second, empty
#: read follows it (half a busy runtime's reads); what is written after is the next look's
PAGE_RECORDS = 1000

#: get_shard_iterator's answers to a checkpoint the stream no longer holds
_LOST_POSITION = ("TrimmedDataAccessException", "ValidationException", "ResourceNotFoundException")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _error_code(err: Exception) -> str:
    return (
        str(err.response.get("Error", {}).get("Code", "")) if isinstance(err, ClientError) else ""
    )


def _lane(record: dict[str, Any], lanes: int) -> int:
    """Which of ``lanes`` concurrent batches a record goes to: by its item's key, so that one
    item's changes stay in order (a stable hash: Python's own is salted per process)."""
    if lanes == 1:
        return 0
    key = json.dumps(record["dynamodb"].get("Keys", {}), sort_keys=True).encode()
    return zlib.crc32(key) % lanes


def _last_line(text: str) -> str:
    """A traceback's last line (the error itself): the whole of it is logged on giving up."""
    lines = text.strip().splitlines()
    return lines[-1] if lines else text


@dataclass
class _Shard:
    shard_id: str
    parent: str | None
    iterator: str | None = None  # None: ask for one (again)
    last_sequence: str | None = None  # the last record read
    done_sequence: str | None = None  # every record up to here delivered or filtered out
    # where reading starts while no record is done: TRIM_HORIZON; LATEST (the mapping began
    # at the stream's end: asking again stays there rather than replaying the shard); or
    # AT_SEQUENCE_NUMBER ``first``, the first record read since it began at the end
    start: str = "TRIM_HORIZON"
    first: str | None = None
    pending: list[dict[str, Any]] = field(default_factory=list)  # read, matched, not delivered
    closed: bool = False  # listed with an ending sequence number: read on to its end


@dataclass
class _Stream:
    """One source's position in its table's stream (each mapping reads on its own)."""

    arn: str
    shards: dict[str, _Shard] = field(default_factory=dict)  # open, or closed but not drained
    finished: set[str] = field(default_factory=set)  # closed and drained
    described_at: float = 0.0  # monotonic: when the table and the shards were last described
    # a checkpoint's shards not listed yet (``Position``'s fields)
    resume: dict[str, str] = field(default_factory=dict)
    resume_at: dict[str, str] = field(default_factory=dict)
    from_end: set[str] = field(default_factory=set)
    at_end: bool = False  # no checkpoint at the start: every shard first listed begins at its end
    saved: Position | None = None  # what the checkpoint file holds now

    def position(self) -> Position:
        after, at, from_end = dict(self.resume), dict(self.resume_at), set(self.from_end)
        for shard in self.shards.values():
            if shard.done_sequence:
                after[shard.shard_id] = shard.done_sequence
            elif shard.first:
                at[shard.shard_id] = shard.first
            elif shard.start == "LATEST":
                from_end.add(shard.shard_id)
        return Position(self.arn, after, set(self.finished), at, from_end)


class StreamPump:
    """Reads the template's table streams and invokes their functions, like event source mappings.

    ``invoke(source, event)`` runs the function; raising means the batch failed. ``drain()``
    delivers everything the streams hold now; ``run(stop)`` keeps draining until ``stop``.
    With ``checkpoints``, each mapping resumes where the last pump stopped (see
    ``local.streams.checkpoints``), and one with no position for its stream begins at the
    stream's end as ``start()`` finds it (call it before anything can write); without, every
    shard is read from TRIM_HORIZON.
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
        concurrent_lanes: bool = True,
        checkpoints: Checkpoints | None = None,
    ) -> None:
        self.checkpoints = checkpoints
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
        self._begun: set[int] = set()  # sources whose first stream has been looked at
        self._warned: set[str] = set()
        self._locks = [threading.Lock() for _ in self.sources]  # one poller per source
        # False: lanes one after the other, for functions called in this process (Powertools'
        # logger and metrics are per process, as in one Lambda container)
        self.concurrent_lanes = concurrent_lanes
        # one pool for every delivery (not one a poll): as many threads as lanes may run at once
        widest = max((source.parallelization for source in self.sources), default=1)
        self._lanes_pool = (
            ThreadPoolExecutor(widest * len(self.sources), thread_name_prefix="stream-lane")
            if concurrent_lanes and widest > 1
            else None
        )
        self._stop: threading.Event | None = None
        self._woken = [threading.Event() for _ in self.sources]

    def wake(self, tables: Collection[str] = (ANY_TABLE,)) -> None:
        """A function wrote to ``tables`` (their local names; ``ANY_TABLE``: any): the
        mappings that read their streams look now: the function's writes are in them."""
        for index, source in enumerate(self.sources):
            if ANY_TABLE in tables or self.table_names.get(source.table) in tables:
                self._woken[index].set()

    def _stopping(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    def _warn_once(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            self.log(message)

    # -------------------------------------------------------------- shards

    def start(self) -> None:
        """Fix where each mapping begins, before the tables can change: at its checkpoint, else
        (kept data an earlier run, or an earlier version of this runtime, already delivered)
        at the stream's end as it is now. A pump never started begins at its first drain."""
        for index, source in enumerate(self.sources):
            with self._locks[index]:
                try:
                    self._stream(index, source, fresh=True)
                except Exception as err:  # the first poll looks again: never the runtime's end
                    self.log(f"streams: {source.function}: {type(err).__name__}: {err}")

    def _stream(self, index: int, source: StreamSource, fresh: bool) -> _Stream | None:
        """The source's stream state, following the table to a new stream if it was recreated.
        ``fresh``: describe the table and its shards now; else at most every
        ``DESCRIBE_EVERY_SECONDS`` (a poll that describes both every time costs DynamoDB Local
        more than the reads, at 10 polls a second, with or without records)."""
        state = self._state.get(index)
        if (
            not fresh
            and state is not None
            and state.shards
            and time.monotonic() - state.described_at < DESCRIBE_EVERY_SECONDS
        ):
            return state
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
            # a stream first seen at the start holds what earlier runs wrote; one that appears
            # later is a table made anew while running: every record of it is new
            starting = index not in self._begun
            self._begun.add(index)
            state = self._state[index] = self._resumed(source, arn, starting)
        self._list_shards(state)
        state.described_at = time.monotonic()
        return state

    def _resumed(self, source: StreamSource, arn: str, starting: bool) -> _Stream:
        """A stream state at the mapping's checkpoint, when it has one for this stream; at the
        stream's end when the pump is ``starting`` on kept data without one (Lambda's mapping
        keeps its position: replaying a day of changes would hold a new one up for minutes);
        else at its start."""
        state = _Stream(arn)
        if self.checkpoints is None:
            return state
        saved = self.checkpoints.load(source.function, source.table)
        if saved is not None and saved.stream == arn:
            state.resume, state.resume_at = dict(saved.shards), dict(saved.at)
            state.finished, state.from_end = set(saved.finished), set(saved.from_end)
            state.saved = saved
        elif starting:
            state.at_end = True
            self.log(
                f"streams: {source.function}: no position kept for this stream; reading from "
                "its end (what it holds was delivered by the run that wrote it)"
            )
        else:
            self.log(f"streams: {source.function}: the table's stream is new; reading it whole")
        return state

    def _checkpoint(self, source: StreamSource, state: _Stream) -> None:
        if self.checkpoints is None:
            return
        position = state.position()
        if position != state.saved:
            self.checkpoints.save(source.function, source.table, position)
            state.saved = position

    def _list_shards(self, state: _Stream) -> None:
        args: dict[str, Any] = {"StreamArn": state.arn}
        listed: set[str] = set()
        while True:
            description = self.streams.describe_stream(**args)["StreamDescription"]
            for shard in description.get("Shards", []):
                shard_id = shard["ShardId"]
                listed.add(shard_id)
                if shard_id in state.shards or shard_id in state.finished:
                    continue
                closed = "EndingSequenceNumber" in shard.get("SequenceNumberRange", {})
                if state.at_end and closed:  # it ended before this mapping began
                    state.finished.add(shard_id)
                    continue
                resume = state.resume.pop(shard_id, None)
                added = state.shards[shard_id] = _Shard(
                    shard_id,
                    shard.get("ParentShardId"),
                    last_sequence=resume,
                    done_sequence=resume,
                    closed=closed,
                )
                if shard_id in state.resume_at:
                    added.start = "AT_SEQUENCE_NUMBER"
                    added.first = state.resume_at.pop(shard_id)
                elif state.at_end or shard_id in state.from_end:
                    state.from_end.discard(shard_id)
                    added.start = "LATEST"
                    added.iterator = self._iterator(state, added)  # the end as it is now
            last = description.get("LastEvaluatedShardId")
            if not last:
                # a checkpointed shard the stream no longer lists was trimmed away
                state.resume.clear()
                state.resume_at.clear()
                state.from_end.clear()
                state.finished &= listed
                state.at_end = False  # shards listed from now on are new
                return
            args["ExclusiveStartShardId"] = last

    def _iterator(self, state: _Stream, shard: _Shard) -> str:
        args: dict[str, Any] = {"StreamArn": state.arn, "ShardId": shard.shard_id}
        if shard.last_sequence:  # a new iterator where the expired one was
            args["ShardIteratorType"] = "AFTER_SEQUENCE_NUMBER"
            args["SequenceNumber"] = shard.last_sequence
        else:
            args["ShardIteratorType"] = shard.start
            if shard.first:
                args["SequenceNumber"] = shard.first
        return str(self.streams.get_shard_iterator(**args)["ShardIterator"])

    # -------------------------------------------------------------- draining

    def drain(self) -> int:
        """Deliver every record the streams hold now; returns how many (after filtering)."""
        return sum(self._drain_one(index, fresh=True) for index in range(len(self.sources)))

    def _drain_one(self, index: int, fresh: bool) -> int:
        with self._locks[index]:
            return self._drain_source(index, self.sources[index], fresh)

    def _drain_source(self, index: int, source: StreamSource, fresh: bool) -> int:
        state = self._stream(index, source, fresh)
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
        self._checkpoint(source, state)
        return delivered

    def _drain_shard(self, source: StreamSource, state: _Stream, shard: _Shard) -> int:
        delivered = 0
        while not self._stopping():
            if shard.iterator is None:
                try:
                    shard.iterator = self._iterator(state, shard)
                except ClientError as err:
                    had = shard.last_sequence or shard.first
                    if not had or _error_code(err) not in _LOST_POSITION:
                        raise
                    # what we had is gone (trimmed, or not this stream's): start over
                    shard.last_sequence = shard.done_sequence = shard.first = None
                    shard.start = "TRIM_HORIZON"
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
            if records and shard.start == "LATEST" and not shard.last_sequence:
                # begun at the end: a stop before its delivery resumes at this record
                shard.start, shard.first = (
                    "AT_SEQUENCE_NUMBER",
                    records[0]["dynamodb"]["SequenceNumber"],
                )
            for raw in records:
                shard.last_sequence = raw["dynamodb"]["SequenceNumber"]
                record = lambda_record(raw, state.arn, self.region)
                if source.passes(record):
                    shard.pending.append(record)
            if not shard.pending:  # every record read was filtered out
                shard.done_sequence = shard.last_sequence
            elif len(shard.pending) >= source.batch_size * source.parallelization:
                delivered += self._deliver_pending(source, shard)
            if not records or shard.iterator is None:
                break
            if len(records) < PAGE_RECORDS and not shard.closed:
                break  # a short page of an open shard was all it held when it was read
        if shard.pending and not self._stopping():
            delivered += self._deliver_pending(source, shard)
        if shard.iterator is None and not shard.pending:  # closed and drained
            del state.shards[shard.shard_id]
            state.finished.add(shard.shard_id)
        return delivered

    def _deliver_pending(self, source: StreamSource, shard: _Shard) -> int:
        """Deliver the shard's pending records, in batches of at most ``batch_size``. With a
        ParallelizationFactor above 1, as Lambda does, the records are split by partition key
        into that many lanes delivered at once, each lane in order: one key's (a game's)
        records keep their order, different keys' overtake each other."""
        pending, shard.pending = shard.pending, []
        read_up_to = shard.last_sequence
        lanes: list[list[dict[str, Any]]] = [[] for _ in range(source.parallelization)]
        for record in pending:
            lanes[_lane(record, source.parallelization)].append(record)
        lanes = [lane for lane in lanes if lane]
        if len(lanes) == 1 or not self.concurrent_lanes:
            delivered = sum(self._deliver_lane(source, lane) for lane in lanes)
        else:
            assert self._lanes_pool is not None  # concurrent lanes, and a source with several
            delivered = sum(
                self._lanes_pool.map(lambda lane: self._deliver_lane(source, lane), lanes)
            )
        if not self._stopping():  # a stop may have cut a batch short: replay it next start
            shard.done_sequence = read_up_to
        return delivered

    def _deliver_lane(self, source: StreamSource, records: list[dict[str, Any]]) -> int:
        size = source.batch_size
        return sum(
            self._deliver(source, records[i : i + size]) for i in range(0, len(records), size)
        )

    def _deliver(self, source: StreamSource, batch: list[dict[str, Any]]) -> int:
        """Invoke with ``batch``, retrying as the mapping would."""
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
        """Drain at once when woken (``wake``), else once an ``IDLE_SECONDS``, until ``stop``
        is set (seen within ``interval``), each source on its own thread as each event source
        mapping polls on its own (a slow consumer does not hold the others up); errors are
        logged, not raised, and a failed look is tried again after ``interval``, doubling."""
        self._stop = stop
        pollers = [
            threading.Thread(
                target=self._poll,
                args=(index, stop, interval),
                name=f"streams-{source.function}",
                daemon=True,
            )
            for index, source in enumerate(self.sources)
        ]
        for poller in pollers:
            poller.start()
        for poller in pollers:
            poller.join()

    def _poll(self, index: int, stop: threading.Event, interval: float) -> None:
        function = self.sources[index].function
        last_error: str | None = None
        failures = 0
        while not stop.is_set():
            try:
                self._drain_one(index, fresh=False)
            except Exception as err:  # the database restarting, a bug: never the runtime's end
                stale = self._state.get(index)
                if stale is not None:
                    stale.described_at = 0.0  # the table may be new: describe it next time
                message = f"{type(err).__name__}: {err}"
                if message != last_error:
                    self.log(f"streams: {function}: polling failed (retrying): {message}")
                last_error = message
                failures += 1
            else:
                if last_error is not None:
                    self.log(f"streams: {function}: polling again")
                last_error = None
                failures = 0
            pause = min(interval * 2 ** (failures - 1), IDLE_SECONDS) if failures else IDLE_SECONDS
            self._pause(index, stop, interval, pause)

    def _pause(self, index: int, stop: threading.Event, interval: float, seconds: float) -> None:
        """``seconds`` until the next look, unless woken first (a stop is seen within
        ``interval``)."""
        woken = self._woken[index]
        until = time.monotonic() + seconds
        while not stop.is_set():
            if woken.wait(min(interval, max(until - time.monotonic(), 0.0))):
                woken.clear()
                return
            if time.monotonic() >= until:
                return
