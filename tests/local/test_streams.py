"""DynamoDB stream events in the local runtime: the template's filters, the event Lambda builds,
batches, retries and partial failures, on DynamoDB Local's stream of the template's game table.
The filter rules themselves are checked one by one in test_filters.py."""

from __future__ import annotations

import base64
import contextlib
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import boto3
import pytest

from local import ddb
from local.containers import ANY_TABLE, written_tables
from local.streams import Checkpoints, StreamPump, StreamSource, stream_sources
from local.streams.pump import _lane
from local.template import Template

TEMPLATE = Template()
GAME_TABLE = TEMPLATE.table_names()["GameTable"]
STATE = b"\x00\xffstate\x01"  # not UTF-8: must reach the function base64-encoded


def archive_source() -> StreamSource:
    (source,) = [s for s in stream_sources(TEMPLATE) if s.function == "ArchiveFunction"]
    return source


def record(
    event_name: str = "MODIFY",
    new: dict[str, Any] | None = None,
    old: dict[str, Any] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"Keys": {"pk": {"S": "GAME#g"}, "sk": {"S": "GAME"}}}
    if new is not None:
        body["NewImage"] = new
    if old is not None:
        body["OldImage"] = old
    return {"eventName": event_name, "eventSource": "aws:dynamodb", "dynamodb": body}


# ------------------------------------------------------------------------- the template's filters


def test_the_templates_archive_filters() -> None:
    """Writes marked with ``archive``, the write that deals a game (waiting to playing, or
    created playing), the write that finishes it, and removed game items; nothing else."""
    source = archive_source()
    assert len(source.filters) == 5
    waiting = {"pk": {"S": "GAME#g"}, "status": {"S": "waiting"}}
    playing = {"pk": {"S": "GAME#g"}, "status": {"S": "playing"}}
    over = {"pk": {"S": "GAME#g"}, "status": {"S": "finished"}}
    assert source.passes(record("MODIFY", new=over, old=playing))  # the game finished
    assert source.passes(record("MODIFY", new=playing, old=waiting))  # the game was dealt
    assert source.passes(record("INSERT", new=playing))  # created dealt (every other seat a bot)
    assert not source.passes(record("MODIFY", new=playing, old=playing))  # a move
    assert not source.passes(record("INSERT", new=over))  # no game is created finished
    note = record("MODIFY", new=over)
    note["dynamodb"]["Keys"]["sk"] = {"S": "NOTE#x"}  # another item with a status: not a game
    assert not source.passes(note)
    marked = {"pk": {"S": "GAME#g"}, "archive": {"N": "3"}}
    unmarked = {"pk": {"S": "GAME#g"}}
    assert source.passes(record("MODIFY", new=marked, old=unmarked))
    assert source.passes(record("INSERT", new=marked))
    assert not source.passes(record("MODIFY", new=unmarked, old=marked))
    assert not source.passes(record("MODIFY", new={"archive": {"S": "3"}}))
    assert source.passes(record("REMOVE", old=marked))  # a game item went (TTL)
    assert source.passes(record("REMOVE", old=unmarked))
    hand = record("REMOVE", old=unmarked)
    hand["dynamodb"]["Keys"]["sk"] = {"S": "HAND#0001"}  # an archive or membership item went
    assert not source.passes(hand)


# ---------------------------------------------------------------------------- stream_sources


def test_stream_sources_find_the_archive_function_with_the_templates_settings() -> None:
    sources = stream_sources(TEMPLATE)
    assert [s.function for s in sources] == ["ArchiveFunction", "NotifyFunction"]
    source = sources[0]
    raw = TEMPLATE.resources["ArchiveFunction"]["Properties"]
    event = raw["Events"]["HandEnded"]["Properties"]
    assert source.table == "GameTable"
    assert source.code_uri == TEMPLATE.root / raw["CodeUri"]
    assert source.handler == raw["Handler"]
    assert (source.code_uri / f"{source.handler.rpartition('.')[0]}.py").exists()
    assert source.batch_size == event["BatchSize"]
    assert source.max_retries == event["MaximumRetryAttempts"] >= 0
    assert source.report_item_failures is True
    assert source.filters == [json.loads(f["Pattern"]) for f in event["FilterCriteria"]["Filters"]]


def test_stream_sources_read_globals_defaults_and_skip_what_is_not_a_local_stream(
    tmp_path: Path,
) -> None:
    (tmp_path / "template.yaml").write_text(
        """
Globals:
  Function:
    CodeUri: src/
    Handler: main.consume
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties: {}
  Consumer:
    Type: AWS::Serverless::Function
    Properties:
      Events:
        Short:
          Type: DynamoDB
          Properties:
            Stream: !GetAtt Table.StreamArn
            StartingPosition: LATEST
        Long:
          Type: DynamoDB
          Properties:
            Stream: {"Fn::GetAtt": [Table, StreamArn]}
            BatchSize: 7
            FilterCriteria:
              Filters:
                - Pattern: '{"eventName": ["INSERT"]}'
                - Pattern: '{"eventName": ["REMOVE"]}'
        Off:
          Type: DynamoDB
          Properties: {Stream: !GetAtt Table.StreamArn, Enabled: false}
        Elsewhere:
          Type: DynamoDB
          Properties: {Stream: "arn:aws:dynamodb:us-east-1:1:table/x/stream/y"}
        NotAStream:
          Type: DynamoDB
          Properties: {Stream: !GetAtt Table.Arn}
        Http:
          Type: HttpApi
          Properties: {Path: /x, Method: GET}
"""
    )
    short, long = stream_sources(Template(tmp_path / "template.yaml"))
    assert short.code_uri == tmp_path / "src"
    assert short.handler == "main.consume"
    assert (short.table, short.batch_size, short.max_retries) == ("Table", 100, -1)
    assert short.report_item_failures is False
    assert short.filters == []
    assert long.batch_size == 7
    assert long.filters == [{"eventName": ["INSERT"]}, {"eventName": ["REMOVE"]}]


def test_a_filter_the_pump_cannot_apply_stops_the_start(tmp_path: Path) -> None:
    (tmp_path / "template.yaml").write_text(
        """
Resources:
  Table: {Type: AWS::DynamoDB::Table, Properties: {}}
  Consumer:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: src/
      Handler: app.handler
      Events:
        Changes:
          Type: DynamoDB
          Properties:
            Stream: !GetAtt Table.StreamArn
            FilterCriteria: {Filters: [{Pattern: '{"eventName": [{"wildcard": "*T"}]}'}]}
"""
    )
    with pytest.raises(ValueError, match=r"Consumer.*wildcard"):
        stream_sources(Template(tmp_path / "template.yaml"))


# ---------------------------------------------------------------------------- the pump


class Function:
    """A fake stream consumer: keeps every event it gets and answers with ``respond``."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.respond: Callable[[dict[str, Any]], Any] = lambda event: None

    def __call__(self, source: StreamSource, event: dict[str, Any]) -> Any:
        # what crosses to a worker process must survive JSON unchanged
        assert json.loads(json.dumps(event)) == event
        self.events.append(event)
        return self.respond(event)

    def batches(self) -> list[list[str]]:
        """The partition keys of each event's records."""
        return [[r["dynamodb"]["Keys"]["pk"]["S"] for r in e["Records"]] for e in self.events]


class Stream:
    """A pump on the game table's stream that has already caught up with earlier tests."""

    def __init__(
        self, endpoint: str, checkpoints: Checkpoints | None = None, **changes: Any
    ) -> None:
        self.client = boto3.client("dynamodb", endpoint_url=endpoint)
        self.function = Function()
        self.logs: list[str] = []
        self.pump = StreamPump(
            endpoint,
            TEMPLATE,
            TEMPLATE.table_names(),
            self.function,
            self.logs.append,
            sources=[replace(archive_source(), **changes)],
            checkpoints=checkpoints,
        )
        self.pump.drain()  # what other tests left on the stream is not this test's
        self.function.events.clear()
        self.logs.clear()

    def put(self, pk: str, archive: int | None = None, **extra: Any) -> None:
        item: dict[str, Any] = {"pk": {"S": pk}, "sk": {"S": "GAME"}, "state": {"B": STATE}}
        if archive is not None:
            item["archive"] = {"N": str(archive)}
        self.client.put_item(TableName=GAME_TABLE, Item={**item, **extra})

    def drain(self, records: int, timeout: float = 10.0) -> int:
        """Drain until the function got ``records`` records (the stream may lag the write)."""
        delivered = 0
        deadline = time.monotonic() + timeout
        while True:
            delivered += self.pump.drain()
            got = sum(len(b) for b in self.function.batches())
            if got >= records or time.monotonic() > deadline:
                return delivered
            time.sleep(0.05)


def key(name: str) -> str:
    return f"GAME#stream-{name}-{uuid.uuid4().hex[:8]}"


def sequences(event: dict[str, Any]) -> list[str]:
    return [r["dynamodb"]["SequenceNumber"] for r in event["Records"]]


@pytest.mark.ddb
def test_only_matching_records_are_delivered_as_lambda_events(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint)
    marked, plain = key("marked"), key("plain")
    stream.put(marked, archive=3, blobs={"BS": [b"\x01", b"\x02"]})
    stream.put(plain)
    assert stream.drain(1) == 1
    assert stream.function.batches() == [[marked]]
    (event,) = stream.function.events
    (rec,) = event["Records"]
    arn = stream.client.describe_table(TableName=GAME_TABLE)["Table"]["LatestStreamArn"]
    assert rec["eventSourceARN"] == arn
    assert (rec["eventName"], rec["eventSource"], rec["eventVersion"]) == (
        "INSERT",
        "aws:dynamodb",
        "1.1",
    )
    assert rec["awsRegion"] == "us-east-1"
    body = rec["dynamodb"]
    assert body["Keys"] == {"pk": {"S": marked}, "sk": {"S": "GAME"}}
    assert body["NewImage"]["state"] == {"B": base64.b64encode(STATE).decode()}
    assert body["NewImage"]["blobs"] == {"BS": ["AQ==", "Ag=="]}
    assert body["NewImage"]["archive"] == {"N": "3"}
    assert "OldImage" not in body
    assert body["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    assert isinstance(body["ApproximateCreationDateTime"], int | float)
    assert abs(body["ApproximateCreationDateTime"] - time.time()) < 3600
    assert isinstance(body["SizeBytes"], int)

    assert stream.pump.drain() == 0  # nothing new: nothing delivered again
    assert len(stream.function.events) == 1

    # marking the plain item is a MODIFY with both images; removing the marked one is a
    # REMOVE with only the old image; unmarking it again is not delivered at all
    stream.put(plain, archive=1)
    stream.client.delete_item(TableName=GAME_TABLE, Key={"pk": {"S": marked}, "sk": {"S": "GAME"}})
    stream.put(plain)
    assert stream.drain(2) == 2
    assert stream.function.batches() == [[marked], [plain, marked]]
    modify, remove = stream.function.events[1]["Records"]
    assert modify["eventName"] == "MODIFY"
    assert "archive" not in modify["dynamodb"]["OldImage"]
    assert modify["dynamodb"]["NewImage"]["archive"] == {"N": "1"}
    assert remove["eventName"] == "REMOVE" and "NewImage" not in remove["dynamodb"]
    assert remove["dynamodb"]["OldImage"]["archive"] == {"N": "3"}
    assert stream.pump.drain() == 0


@pytest.mark.ddb
def test_batches_hold_at_most_batch_size_records_in_stream_order(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint, batch_size=2)
    keys = [key(f"batch{i}") for i in range(3)]
    for pk in keys:
        stream.put(pk, archive=1)
    assert stream.drain(3) == 3
    assert stream.function.batches() == [keys[:2], keys[2:]]
    first, second = stream.function.events
    assert sequences(first) + sequences(second) == sorted(
        sequences(first) + sequences(second), key=int
    )


def keys_in_other_lanes(lanes: int) -> tuple[str, str]:
    """Two item keys the pump puts in different lanes."""
    first = key("lane")
    while True:
        second = key("lane")
        lane = [
            _lane({"dynamodb": {"Keys": {"pk": {"S": pk}, "sk": {"S": "GAME"}}}}, lanes)
            for pk in (first, second)
        ]
        if lane[0] != lane[1]:
            return first, second


@pytest.mark.ddb
def test_parallel_lanes_keep_each_items_order_and_do_not_wait_for_each_other(
    ddb_endpoint: str,
) -> None:
    stream = Stream(ddb_endpoint, parallelization=4, batch_size=2)
    slow, quick = keys_in_other_lanes(4)
    for version in range(1, 4):  # slow, quick, slow, quick, ...: the stream interleaves them
        stream.put(slow, archive=version)
        stream.put(quick, archive=version)
    quick_seen = threading.Event()

    def respond(event: dict[str, Any]) -> None:
        pks = {r["dynamodb"]["Keys"]["pk"]["S"] for r in event["Records"]}
        if quick in pks:
            quick_seen.set()
        elif not quick_seen.wait(10):  # one lane after the other would wait here for nothing
            raise AssertionError("the quick lane waited for the slow one")

    stream.function.respond = respond
    assert stream.drain(6) == 6
    assert not any("failed" in line for line in stream.logs), stream.logs
    for pk in (slow, quick):
        mine = [
            (r["dynamodb"]["SequenceNumber"], r["dynamodb"]["NewImage"]["archive"]["N"])
            for e in stream.function.events
            for r in e["Records"]
            if r["dynamodb"]["Keys"]["pk"]["S"] == pk
        ]
        assert [version for _, version in mine] == ["1", "2", "3"]  # in order, each once
    for batch in stream.function.batches():
        assert len(batch) <= 2 and len(set(batch)) == 1  # a batch holds one lane's records


def test_the_notifier_reads_its_stream_in_parallel_lanes() -> None:
    (source,) = [s for s in stream_sources(TEMPLATE) if s.function == "NotifyFunction"]
    event = TEMPLATE.resources["NotifyFunction"]["Properties"]["Events"]["GameChanged"]
    assert source.parallelization == event["Properties"]["ParallelizationFactor"] == 10
    assert archive_source().parallelization == 1


@pytest.mark.ddb
def test_a_reported_item_failure_redelivers_from_that_record_on(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint)
    keys = [key(f"partial{i}") for i in range(3)]
    answers: list[Any] = []

    def respond(event: dict[str, Any]) -> Any:
        if not answers:  # the first delivery: the middle record failed
            answers.append({"batchItemFailures": [{"itemIdentifier": sequences(event)[1]}]})
        else:
            answers.append({"batchItemFailures": []})
        return answers[-1]

    stream.function.respond = respond
    for pk in keys:
        stream.put(pk, archive=2)
    assert stream.drain(3) == 3
    assert stream.function.batches() == [keys, keys[1:]]
    assert sequences(stream.function.events[1]) == sequences(stream.function.events[0])[1:]
    retry = f"retry 1/{archive_source().max_retries}"
    assert any(retry in line for line in stream.logs), stream.logs
    assert not any("gave up" in line for line in stream.logs)


@pytest.mark.ddb
def test_an_unknown_item_identifier_fails_the_whole_batch(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint)
    calls: list[int] = []

    def respond(event: dict[str, Any]) -> Any:
        calls.append(1)
        return {"batchItemFailures": [{"itemIdentifier": "nope"}]} if len(calls) == 1 else None

    stream.function.respond = respond
    keys = [key("whole0"), key("whole1")]
    for pk in keys:
        stream.put(pk, archive=1)
    stream.drain(2)
    assert stream.function.batches() == [keys, keys]


@pytest.mark.ddb
def test_item_failures_are_ignored_without_report_batch_item_failures(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint, report_item_failures=False)
    stream.function.respond = lambda event: {
        "batchItemFailures": [{"itemIdentifier": sequences(event)[0]}]
    }
    pk = key("ignored")
    stream.put(pk, archive=1)
    assert stream.drain(1) == 1
    assert stream.pump.drain() == 0
    assert stream.function.batches() == [[pk]]


@pytest.mark.ddb
def test_a_failing_batch_is_given_up_after_max_retries_then_later_records_flow(
    ddb_endpoint: str,
) -> None:
    stream = Stream(ddb_endpoint, max_retries=2)
    poison = key("poison")

    def respond(event: dict[str, Any]) -> Any:
        if any(r["dynamodb"]["Keys"]["pk"]["S"] == poison for r in event["Records"]):
            raise RuntimeError("Traceback ...\nValueError: poisoned record")
        return None

    stream.function.respond = respond
    stream.put(poison, archive=1)
    stream.drain(3)
    assert stream.function.batches() == [[poison]] * 3  # the first try and two retries
    (seq,) = sequences(stream.function.events[0])
    gave_up = [line for line in stream.logs if "gave up" in line]
    assert len(gave_up) == 1 and seq in gave_up[0], stream.logs
    assert "ArchiveFunction" in gave_up[0] and "poisoned record" in gave_up[0]

    after = key("after")
    stream.put(after, archive=1)
    assert stream.drain(4) == 1
    assert stream.function.batches()[3:] == [[after]]
    assert len([line for line in stream.logs if "gave up" in line]) == 1


@pytest.mark.ddb
def test_partial_failures_give_up_on_the_rest_of_the_batch_after_max_retries(
    ddb_endpoint: str,
) -> None:
    stream = Stream(ddb_endpoint, max_retries=1)
    ok, poison, behind = key("ok"), key("stuck"), key("behind")

    def respond(event: dict[str, Any]) -> Any:
        failed = [
            {"itemIdentifier": r["dynamodb"]["SequenceNumber"]}
            for r in event["Records"]
            if r["dynamodb"]["Keys"]["pk"]["S"] == poison
        ]
        return {"batchItemFailures": failed}

    stream.function.respond = respond
    for pk in (ok, poison, behind):
        stream.put(pk, archive=1)
    stream.drain(5)
    assert stream.function.batches() == [[ok, poison, behind], [poison, behind]]
    skipped = sequences(stream.function.events[1])
    (gave_up,) = [line for line in stream.logs if "gave up" in line]
    assert all(seq in gave_up for seq in skipped)
    assert sequences(stream.function.events[0])[0] not in gave_up


@pytest.mark.ddb
def test_run_delivers_until_stopped(ddb_endpoint: str) -> None:
    stream = Stream(ddb_endpoint)
    stop = threading.Event()
    thread = threading.Thread(target=stream.pump.run, args=(stop, 0.05), daemon=True)
    thread.start()
    try:
        pk = key("run")
        stream.put(pk, archive=1)
        deadline = time.monotonic() + 10
        while not stream.function.events and time.monotonic() < deadline:
            time.sleep(0.05)
        assert stream.function.batches() == [[pk]]
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


@contextlib.contextmanager
def running_on_fakes(
    monkeypatch: pytest.MonkeyPatch, records: list[int]
) -> Iterator[tuple[StreamPump, FakeStreams, Function]]:
    """The archive mapping's pump, idle looks 30 s apart, running (0.05 s ``interval``) on one
    open fake shard that holds ``records``; stopped on the way out."""
    from local.streams import pump as pump_module

    monkeypatch.setattr(pump_module, "IDLE_SECONDS", 30.0)
    pump, fake, function = pump_on_fakes({"open": (None, records, False)})
    stop = threading.Event()
    thread = threading.Thread(target=pump.run, args=(stop, 0.05), daemon=True)
    thread.start()
    try:
        yield pump, fake, function
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def wait_until(done: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_pump_looks_once_a_wake_and_else_seldom(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mapping reads its stream once when a function that wrote its table ends (``wake``),
    and otherwise once an IDLE_SECONDS: DynamoDB Local records a write before it answers it,
    so the wake's look finds every record and looks in between would find none (half the
    GetRecords of a runtime played at people's pace)."""
    with running_on_fakes(monkeypatch, [1]) as (pump, fake, function):
        wait_until(lambda: bool(function.events), 10)
        assert function.batches() == [["GAME#1"]]
        time.sleep(0.5)  # ten 0.05 s intervals: no look follows a delivery of its own accord
        assert fake.reads == ["open"]

        fake.shards["open"][1].append(2)  # written by a function that then ends
        pump.wake()
        wait_until(lambda: len(function.events) >= 2, 5)
        assert function.batches()[-1] == ["GAME#2"]
        time.sleep(0.5)
        assert fake.reads == ["open", "open"]


def test_a_write_to_a_table_no_mapping_reads_wakes_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """A function that wrote only to other tables (an inbox, a device) makes no look; one that
    wrote to the game table makes its mappings look at once."""
    with running_on_fakes(monkeypatch, []) as (pump, fake, _):
        wait_until(lambda: bool(fake.reads), 10)
        assert fake.reads == ["open"]  # the first look, then 30 s of pause (nothing was active)
        pump.wake({"an-inbox-no-mapping-reads"})
        time.sleep(0.5)
        assert fake.reads == ["open"]
        pump.wake({GAME_TABLE})
        wait_until(lambda: len(fake.reads) >= 2, 5)
        assert fake.reads == ["open", "open"]


def test_run_survives_a_database_that_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polls go on after failures, and sooner than the idle looks; each poller logs once."""
    from local.streams import pump as pump_module

    monkeypatch.setattr(pump_module, "IDLE_SECONDS", 60.0)
    logs: list[str] = []
    endpoint = f"http://127.0.0.1:{ddb.free_port()}"  # nothing listens there
    pump = StreamPump(endpoint, TEMPLATE, TEMPLATE.table_names(), Function(), logs.append)
    polls = threading.Semaphore(0)
    drain = pump._drain_one

    def counted(index: int, fresh: bool) -> int:
        polls.release()
        return drain(index, fresh)

    monkeypatch.setattr(pump, "_drain_one", counted)
    stop = threading.Event()
    thread = threading.Thread(target=pump.run, args=(stop, 0.01), daemon=True)
    thread.start()
    try:
        for _ in range(3):  # a failed look is tried again after 0.01, 0.02 s...
            assert polls.acquire(timeout=20)
        assert thread.is_alive()
    finally:
        stop.set()
        thread.join(timeout=20)
    assert not thread.is_alive()
    # each source's poller logged once, not once per poll
    assert sorted(logs) == sorted(
        f"streams: {s.function}: polling failed (retrying): {logs[0].split('(retrying): ')[1]}"
        for s in pump.sources
    ), logs


class FakeStreams:
    """DynamoDB + DynamoDB Streams with shards as given: a closed parent and its open child."""

    def __init__(self, shards: dict[str, tuple[str | None, list[int], bool]]) -> None:
        self.shards = shards  # id -> (parent, sequence numbers, closed), listed in this order
        self.reads: list[str] = []
        self.arn = "arn:local:stream"

    def describe_table(self, TableName: str) -> dict[str, Any]:
        return {"Table": {"LatestStreamArn": self.arn}}

    def describe_stream(self, StreamArn: str, **page: Any) -> dict[str, Any]:
        ids = list(self.shards)  # one shard per page: the pump must follow the pages
        index = ids.index(page["ExclusiveStartShardId"]) + 1 if page else 0
        shard_id = ids[index]
        parent, numbers, closed = self.shards[shard_id]
        sequences = {"StartingSequenceNumber": "1"}
        if closed:
            sequences["EndingSequenceNumber"] = str(numbers[-1] if numbers else 1)
        description: dict[str, Any] = {
            "Shards": [
                {"ShardId": shard_id, "ParentShardId": parent, "SequenceNumberRange": sequences}
            ]
        }
        if index + 1 < len(ids):
            description["LastEvaluatedShardId"] = shard_id
        return {"StreamDescription": description}

    def get_shard_iterator(self, ShardId: str, ShardIteratorType: str, **_: Any) -> dict[str, Any]:
        assert ShardIteratorType in ("TRIM_HORIZON", "LATEST")
        at = 0 if ShardIteratorType == "TRIM_HORIZON" else len(self.shards[ShardId][1])
        return {"ShardIterator": f"{ShardId}|{at}"}

    def get_records(self, ShardIterator: str) -> dict[str, Any]:
        shard_id, _, position = ShardIterator.partition("|")
        self.reads.append(shard_id)
        _, numbers, closed = self.shards[shard_id]
        start = int(position)
        page: dict[str, Any] = {
            "Records": [
                {
                    "eventID": str(n),
                    "eventName": "INSERT",
                    "dynamodb": {
                        "Keys": {"pk": {"S": f"GAME#{n}"}},
                        "SequenceNumber": str(n),
                        "SizeBytes": 1,
                    },
                }
                for n in numbers[start:]
            ]
        }
        if not closed or start < len(numbers):
            page["NextShardIterator"] = f"{shard_id}|{len(numbers)}"
        return page


def pump_on_fakes(
    shards: dict[str, tuple[str | None, list[int], bool]],
) -> tuple[StreamPump, FakeStreams, Function]:
    """The archive mapping's pump, filters off, reading ``FakeStreams(shards)``."""
    function = Function()
    pump = StreamPump(
        "http://127.0.0.1:1",
        TEMPLATE,
        TEMPLATE.table_names(),
        function,
        lambda _: None,
        sources=[replace(archive_source(), filters=[])],
    )
    fake = FakeStreams(shards)
    pump.dynamodb = pump.streams = fake
    return pump, fake, function


def test_a_parent_shard_is_drained_before_its_children_then_dropped() -> None:
    # the child is listed first; its parent is closed and holds the older records
    pump, fake, function = pump_on_fakes(
        {"child": ("parent", [3, 4], False), "parent": (None, [1, 2], True)}
    )
    assert pump.drain() == 4
    assert function.batches() == [["GAME#1", "GAME#2"], ["GAME#3", "GAME#4"]]
    fake.reads.clear()
    assert pump.drain() == 0
    assert fake.reads == ["child"]  # the drained closed parent is not read again


def test_a_containers_writes_name_the_tables_whose_mappings_it_wakes() -> None:
    assert written_tables("PutItem", {"TableName": "games", "Item": {}}) == {"games"}
    assert written_tables("UpdateItem", {"Key": {}}) == {ANY_TABLE}  # unreadable: wake all
    transaction = {
        "TransactItems": [
            {"Put": {"TableName": "games", "Item": {}}},
            {"Update": {"TableName": "accounts", "Key": {}}},
            {"ConditionCheck": {"TableName": "players", "Key": {}}},  # checks write nothing
        ]
    }
    assert written_tables("TransactWriteItems", transaction) == {"games", "accounts"}
    batch = {"RequestItems": {"inbox": [], "devices": []}}
    assert written_tables("BatchWriteItem", batch) == {"inbox", "devices"}


def test_a_short_page_of_an_open_shard_is_its_last_read_of_the_look() -> None:
    """DynamoDB Local records a write before answering it, so a page of an open shard with
    fewer records than a page holds was all there was: one read a look, not a second, empty
    one (a closed shard is read on to its end: the parent test above)."""
    pump, fake, function = pump_on_fakes({"open": (None, [1, 2], False)})
    assert pump.drain() == 2
    assert fake.reads == ["open"]
    fake.shards["open"][1].append(3)
    assert pump.drain() == 1 and function.batches()[-1] == ["GAME#3"]
    assert fake.reads == ["open", "open"]


# ---------------------------------------------------------------------------- checkpoints


def archive_pump(endpoint: str, function: Function, checkpoints: Checkpoints | None) -> StreamPump:
    """A new pump of the archive function's mapping: what a (re)start of the runtime makes."""
    return StreamPump(
        endpoint,
        TEMPLATE,
        TEMPLATE.table_names(),
        function,
        lambda _: None,
        sources=[archive_source()],
        checkpoints=checkpoints,
    )


def put_many(client: Any, keys: list[str]) -> None:
    for start in range(0, len(keys), 25):
        client.batch_write_item(
            RequestItems={
                GAME_TABLE: [
                    {
                        "PutRequest": {
                            "Item": {"pk": {"S": pk}, "sk": {"S": "GAME"}, "archive": {"N": "1"}}
                        }
                    }
                    for pk in keys[start : start + 25]
                ]
            }
        )


@pytest.mark.ddb
def test_a_restarted_pump_resumes_after_its_checkpoint_not_from_the_start(
    ddb_endpoint: str, tmp_path: Path
) -> None:
    """A restart replays nothing already delivered, however much the stream holds: the next
    record is the first one delivered (a pump without checkpoints re-reads them all)."""
    checkpoints = Checkpoints(tmp_path / "streams")
    first = Stream(ddb_endpoint, checkpoints)
    earlier = [key(f"earlier{i}") for i in range(2000)]
    put_many(first.client, earlier)
    assert first.drain(2000, timeout=60) == 2000
    saved = checkpoints.load("ArchiveFunction", "GameTable")
    assert saved is not None and saved.shards

    restarted = Stream(ddb_endpoint, checkpoints)  # its first drain is the restart's
    assert restarted.function.events == [] and restarted.logs == []
    later = key("later")
    restarted.put(later, archive=1)
    assert restarted.drain(1) == 1
    assert restarted.function.batches() == [[later]]

    from_scratch = Stream(ddb_endpoint, checkpoints=None)  # what every start did before
    from_scratch.function.events.clear()
    assert archive_pump(ddb_endpoint, from_scratch.function, None).drain() >= 2001


@pytest.mark.ddb
def test_without_a_checkpoint_of_its_stream_a_start_begins_at_the_streams_end(
    ddb_endpoint: str, tmp_path: Path
) -> None:
    """Kept data with no position for its stream (written by an earlier version of the
    runtime, or the file lost or another stream's): what the stream holds was delivered by the
    run that wrote it, so a start replays none of it, and delivers what comes after."""
    checkpoints = Checkpoints(tmp_path)
    path = checkpoints.path("ArchiveFunction", "GameTable")
    stream = Stream(ddb_endpoint, checkpoints)
    earlier = key("earlier")
    stream.put(earlier, archive=1)
    assert stream.drain(1) == 1
    saved = json.loads(path.read_text())
    for written in (
        None,
        json.dumps({**saved, "stream": saved["stream"] + "-recreated"}),
        "{not json",
        json.dumps({**saved, "shards": {"shard": 7}}),
    ):
        if written is None:
            path.unlink()
        else:
            path.write_text(written)
        again = Function()
        logs: list[str] = []
        restarted = StreamPump(
            ddb_endpoint,
            TEMPLATE,
            TEMPLATE.table_names(),
            again,
            logs.append,
            sources=[archive_source()],
            checkpoints=checkpoints,
        )
        restarted.start()
        later = key("later")
        stream.put(later, archive=1)  # after the start, before its first poll
        deadline = time.monotonic() + 10
        while not again.events and time.monotonic() < deadline:
            restarted.drain()
            time.sleep(0.05)
        assert again.batches() == [[later]], written
        assert any("reading from its end" in line for line in logs), logs
        assert json.loads(path.read_text())["stream"] == saved["stream"]  # rewritten


def test_a_start_without_a_checkpoint_skips_closed_shards_and_a_new_stream_is_read_whole(
    tmp_path: Path,
) -> None:
    function = Function()
    pump = StreamPump(
        "http://127.0.0.1:1",
        TEMPLATE,
        TEMPLATE.table_names(),
        function,
        lambda _: None,
        sources=[replace(archive_source(), filters=[])],
        checkpoints=Checkpoints(tmp_path),
    )
    fake = FakeStreams({"old": (None, [1, 2], True), "open": ("old", [3, 4], False)})
    pump.dynamodb = pump.streams = fake
    pump.start()
    fake.shards["open"][1].append(5)  # written after the start
    assert pump.drain() == 1
    assert function.batches() == [["GAME#5"]]
    assert "old" not in fake.reads  # the shard closed before the start is never read

    # a stop, then a start that finds no new record: it begins at the end again, not at the
    # shard's start, though no record gave it a sequence number to resume after
    saved = pump.checkpoints.load("ArchiveFunction", "GameTable") if pump.checkpoints else None
    assert saved is not None and saved.shards == {"open": "5"} and saved.finished == {"old"}

    # the table made anew while running: its stream is new, and every record of it is read
    function.events.clear()
    fake.arn = "arn:local:stream-2"
    fake.shards.clear()
    fake.shards["fresh"] = (None, [11, 12], False)
    pump._state[0].described_at = 0.0
    assert pump.drain() == 2
    assert function.batches() == [["GAME#11", "GAME#12"]]


def test_a_shard_begun_at_its_end_with_no_record_since_begins_at_its_end_again(
    tmp_path: Path,
) -> None:
    checkpoints = Checkpoints(tmp_path)

    def pump_on(fake: FakeStreams, function: Function) -> StreamPump:
        pump = StreamPump(
            "http://127.0.0.1:1",
            TEMPLATE,
            TEMPLATE.table_names(),
            function,
            lambda _: None,
            sources=[replace(archive_source(), filters=[])],
            checkpoints=checkpoints,
        )
        pump.dynamodb = pump.streams = fake
        pump.start()
        return pump

    fake = FakeStreams({"open": (None, [1, 2], False)})
    first = Function()
    assert pump_on(fake, first).drain() == 0
    saved = checkpoints.load("ArchiveFunction", "GameTable")
    assert saved is not None and saved.from_end == {"open"} and not saved.shards

    fake.shards["child"] = (None, [7], False)  # a shard new since: read from its start
    second = Function()
    pump = pump_on(fake, second)
    fake.shards["open"][1].append(3)
    assert pump.drain() == 2
    assert second.batches() == [["GAME#3"], ["GAME#7"]]


@pytest.mark.ddb
def test_a_checkpoint_never_passes_a_batch_a_stop_cut_short(
    ddb_endpoint: str, tmp_path: Path
) -> None:
    checkpoints = Checkpoints(tmp_path)
    stream = Stream(ddb_endpoint, checkpoints)
    stop = threading.Event()
    stream.pump._stop = stop

    def stop_midway(event: dict[str, Any]) -> None:
        stop.set()
        raise RuntimeError("the runtime is stopping")

    stream.function.respond = stop_midway
    cut = key("cut")
    stream.put(cut, archive=1)
    deadline = time.monotonic() + 10
    while not stream.function.events and time.monotonic() < deadline:
        stream.pump.drain()
        time.sleep(0.05)
    assert stream.function.batches() == [[cut]]

    replay = Function()  # the next start delivers it again
    assert archive_pump(ddb_endpoint, replay, checkpoints).drain() == 1
    assert replay.batches() == [[cut]]
