"""The notifier (functions/notify) under the stream's own faults: batches redelivered, records
of different games interleaved in another order (each game's stay in order, as a stream shard
keeps them), and DynamoDB faults on its inbox writes, with the function dying in between.
Each notification lands in its player's inbox exactly once and is sent once."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest
from domino.api import wiring

from tests.faults import injected, no_backoff
from tests.integration.client import TEMPLATE, Api
from tests.integration.test_notifications import play_out
from tests.soak import (
    CountingChannel,
    add_random_faults,
    deliver_batches,
    expected_notes,
    inbox_ids,
    interleave,
    notify_records,
)

pytestmark = pytest.mark.ddb


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingChannel]:
    counting = CountingChannel()
    notifier = wiring.notifier()
    monkeypatch.setattr(notifier, "channels", [counting])
    monkeypatch.setattr(notifier, "live", None)
    with no_backoff():
        yield counting


def test_redelivered_and_reordered_batches_notify_once(api: Api, counting: CountingChannel) -> None:
    games = set()
    for number in range(3):
        players = [f"s{number}a", f"s{number}b"]
        single = {"match": "single"}
        game = api.create(players[0], preset="dos-jugadores", players=2, rules=single).ok(201)["id"]
        api.join(game, players[1]).ok()
        play_out(api, game, players)
        games.add(game)
    by_game = notify_records(os.environ["AWS_ENDPOINT_URL_DYNAMODB"], TEMPLATE, games)
    assert all(by_game.values()), "the stream holds each game's changes"
    expected = expected_notes(by_game)
    assert len(expected) > 30

    rng = random.Random(5)
    with injected(wiring.table().client, seed=5) as faults:
        add_random_faults(faults, 0.05)
        tally = deliver_batches(
            lambda batch: api.invoke("notify", {"Records": batch}).body,
            interleave(by_game, rng),
            rng,
        )
    assert tally["died"] > 0 and faults.injected["lost_reply"] > 0, (tally, faults.injected)
    written = inbox_ids(wiring.inbox().inbox, {player for player, _ in expected})
    assert {(p, n) for p, n in written if any(g in n for g in games)} == expected  # none lost
    assert set(counting.sent) == expected
    assert all(times == 1 for times in counting.sent.values()), counting.sent.most_common(3)
