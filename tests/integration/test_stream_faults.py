"""The notifier (functions/notify) under the stream's own faults: batches redelivered, records
of different games interleaved in another order (each game's stay in order, as a stream shard
keeps them), and DynamoDB faults on its inbox writes, with the function dying in between.
Each notification lands in its player's inbox exactly once and is sent once."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.retries.standard import ExponentialBackoff
from domino.api import http
from domino.service.notices import notices
from domino.store.inbox import Note
from domino.store.records import game_id_of, record_from_image

from local.streams.pump import StreamPump
from local.streams.sources import stream_sources
from tests.faults import injected
from tests.integration.client import TEMPLATE, Api
from tests.integration.test_notifications import play_out
from tests.soak import add_random_faults, deliver_batches, interleave

pytestmark = pytest.mark.ddb


class Recorder:
    """A push channel that counts what it was asked to send (SNS is moto's, elsewhere)."""

    def __init__(self) -> None:
        self.sent: Counter[tuple[str, str]] = Counter()

    def send(self, note: Note) -> bool:
        self.sent[(note.player, note.id)] += 1
        return True


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    recorder = Recorder()
    notifier = http.notifier()
    monkeypatch.setattr(notifier, "channels", [recorder])
    monkeypatch.setattr(notifier, "live", None)
    monkeypatch.setattr(ExponentialBackoff, "delay_amount", lambda _self, _context: 0)
    yield recorder


def notify_records(api: Api) -> list[dict[str, Any]]:
    """Every record the stream holds for the notifier (from the start: TRIM_HORIZON)."""
    (source,) = [s for s in stream_sources(TEMPLATE) if s.function == "NotifyFunction"]
    records: list[dict[str, Any]] = []

    def capture(_source: Any, event: dict[str, Any]) -> dict[str, Any]:
        records.extend(event["Records"])
        return {"batchItemFailures": []}

    endpoint = os.environ["AWS_ENDPOINT_URL_DYNAMODB"]
    pump = StreamPump(
        endpoint, TEMPLATE, TEMPLATE.table_names(), capture, lambda _line: None, sources=[source]
    )
    pump.drain()
    return records


def game_of(record: dict[str, Any]) -> str | None:
    return game_id_of(record["dynamodb"]["Keys"])


def test_redelivered_and_reordered_batches_notify_once(api: Api, recorder: Recorder) -> None:
    games = []
    for number in range(3):
        players = [f"s{number}a", f"s{number}b"]
        single = {"match": "single"}
        game = api.create(players[0], preset="dos-jugadores", players=2, rules=single).ok(201)["id"]
        api.join(game, players[1]).ok()
        play_out(api, game, players)
        games.append(game)
    by_game: dict[str, list[dict[str, Any]]] = {game: [] for game in games}
    for record in notify_records(api):
        if game_of(record) in by_game:
            by_game[str(game_of(record))].append(record)
    expected: set[tuple[str, str]] = set()
    for records in by_game.values():
        assert records, "the stream holds each game's changes"
        for record in records:
            change = record["dynamodb"]
            old, new = change.get("OldImage"), change.get("NewImage")
            found = notices(record_from_image(old) if old else None, record_from_image(new))
            expected |= {
                (n.player, Note(n.player, n.type, n.game, n.version, n.at, n.preset).id)
                for n in found
            }
    assert len(expected) > 30

    rng = random.Random(5)
    with injected(http.table().client, seed=5) as faults:
        add_random_faults(faults, 0.05)
        tally = deliver_batches(
            lambda batch: api.invoke("notify", {"Records": batch}).body,
            interleave(by_game, rng),
            rng,
        )
    assert tally["died"] > 0 and faults.injected["lost_reply"] > 0, (tally, faults.injected)
    written = {
        (player, note_id)
        for player in {p for p, _ in expected}
        for note_id in inbox_ids(player)
        if any(g in note_id for g in games)
    }
    assert written == expected  # none lost, none extra
    assert set(recorder.sent) == expected
    assert all(times == 1 for times in recorder.sent.values()), recorder.sent.most_common(3)


def inbox_ids(player: str) -> list[str]:
    notes, cursor = [], None
    while True:
        page, cursor = http.inbox().inbox.page(player, 100, cursor)
        notes += [n.id for n in page]
        if cursor is None:
            return notes
