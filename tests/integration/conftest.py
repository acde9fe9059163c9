"""Integration fixtures: the handlers of template.yaml on DynamoDB Local (tests/conftest.py)."""

from __future__ import annotations

import os

import pytest
from domino.api import idempotency, settings, wiring
from domino.store.dynamo import DynamoGameStore
from domino.store.table import Table

from tests.integration.client import Api, Privileged


@pytest.fixture(scope="session")
def api(ddb_endpoint: str) -> Api:
    # the environment now points at DynamoDB Local: drop anything built before it did
    settings.settings.cache_clear()
    for factory in (
        wiring.table,
        wiring.service,
        wiring.inbox,
        wiring.notifier,
        wiring.change_reach,
        wiring.push_channel,
        wiring.held_store,
        wiring.quiet_summary,
        wiring.analyses,
        wiring.vacations,
        wiring.watcher_store,
        wiring.socket_gateway,
        wiring.live,
        wiring.connection_store,
        wiring.devices,
        wiring.device_store,
        wiring.push,
        wiring.account_store,
        wiring.accounts,
        wiring.safety,
        wiring.gestures,
    ):
        factory.cache_clear()
    idempotency._records.cache_clear()
    return Api()


@pytest.fixture(scope="session")
def privileged(api: Api) -> Privileged:
    return Privileged(DynamoGameStore(Table(os.environ["TABLE_NAME"])))
