"""Every AWS client of the layer comes from the process's one boto3 session (store/clients.py):
a session of its own would read botocore's models and endpoint rules again, 54-92 ms of CPU on
a cold container against 4 ms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boto3
import pytest
from botocore.loaders import JSONFileLoader
from domino.api import idempotency
from domino.api.settings import settings
from domino.idp.cognito import CognitoUsers
from domino.notify.sns import SnsPush
from domino.notify.websocket import ApiGatewayConnections
from domino.store.clients import aws_client
from domino.store.table import Table
from domino.store.timers import SqsTimerQueue

CLIENTS: dict[str, Callable[[], Any]] = {
    "game table": lambda: Table("GameTable").client,
    "turn timers": lambda: SqsTimerQueue("https://sqs.us-east-1.amazonaws.com/1/timers").client,
    "push": lambda: SnsPush({}).client,
    "sockets": lambda: (
        ApiGatewayConnections("https://a.execute-api.us-east-1.amazonaws.com/p").client
    ),
    "sign-in users": lambda: CognitoUsers("us-east-1_pool").client,
}


@pytest.fixture
def new_sessions(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The boto3 sessions made from now on."""
    made: list[object] = []
    init = boto3.session.Session.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        init(self, *args, **kwargs)

    aws_client("dynamodb")  # the process's session exists, as after a container's first client
    monkeypatch.setattr(boto3.session.Session, "__init__", counted)
    return made


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_a_client_makes_no_session_of_its_own(name: str, new_sessions: list[object]) -> None:
    assert CLIENTS[name]() is not None
    assert new_sessions == []


def test_powertools_idempotency_records_use_the_shared_session(
    new_sessions: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLE_NAME", "GameTable")
    monkeypatch.setenv("IDEMPOTENCY_TABLE", "IdempotencyTable")
    settings.cache_clear()
    idempotency._records.cache_clear()
    try:
        _config, persistence, _run = idempotency._records()
        assert persistence.client is not None
        assert new_sessions == []
    finally:
        settings.cache_clear()
        idempotency._records.cache_clear()


def test_a_second_client_reads_no_model_again(monkeypatch: pytest.MonkeyPatch) -> None:
    aws_client("sqs")
    read: list[str] = []
    load = JSONFileLoader.load_file

    def counted(self: JSONFileLoader, file_path: str) -> Any:
        read.append(file_path)
        return load(self, file_path)

    monkeypatch.setattr(JSONFileLoader, "load_file", counted)
    aws_client("sqs")
    assert read == []
