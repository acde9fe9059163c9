"""Integration fixtures: the handlers of template.yaml on DynamoDB Local (tests/conftest.py)."""

from __future__ import annotations

import os

import pytest
from domino.api import http, settings
from domino.store.dynamo import DynamoGameStore
from domino.store.table import Table

from tests.integration.client import Api, Privileged


@pytest.fixture(scope="session")
def api(ddb_endpoint: str) -> Api:
    # the environment now points at DynamoDB Local: drop anything built before it did
    settings.settings.cache_clear()
    for factory in (
        http.table,
        http.service,
        http.inbox,
        http.notifier,
        http.socket_gateway,
        http.live,
        http.connection_store,
        http.devices,
        http.device_store,
        http.push,
        http.account_store,
        http.accounts,
    ):
        factory.cache_clear()
    http._idempotency.cache_clear()
    return Api()


@pytest.fixture(scope="session")
def privileged(api: Api) -> Privileged:
    return Privileged(DynamoGameStore(Table(os.environ["TABLE_NAME"])))
