"""A request DynamoDB Local's HTTP server refused unread is sent again; DynamoDB's own errors
are not (store/table.py, refused_unread)."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from domino.store.table import REFUSED_ATTEMPTS, Table

JETTY = "<html>\n<head>\n<title>Error 400 Illegal character COLON=&apos;:&apos;</title>"


def error(code: str, message: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, "GetItem")


class Flaky:
    def __init__(self, failures: list[ClientError]) -> None:
        self.failures, self.calls = failures, 0

    def __call__(self, **_kwargs: Any) -> dict[str, Any]:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return {"Item": {}}


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    return Table("GameTable", endpoint_url="http://127.0.0.1:9")


def test_a_request_refused_unread_is_sent_again(table: Table) -> None:
    fn = Flaky([error("400", JETTY), error("400", JETTY)])
    assert table.call(fn, Key={}) == {"Item": {}} and fn.calls == 3


def test_it_is_sent_a_bounded_number_of_times(table: Table) -> None:
    fn = Flaky([error("400", JETTY)] * REFUSED_ATTEMPTS)
    with pytest.raises(ClientError):
        table.call(fn, Key={})
    assert fn.calls == REFUSED_ATTEMPTS


@pytest.mark.parametrize(
    "err",
    [
        error("ConditionalCheckFailedException", "The conditional request failed"),
        error("ValidationException", "<html> is not a key"),
        error("400", "Bad Request"),
    ],
)
def test_dynamodbs_own_errors_are_not_sent_again(table: Table, err: ClientError) -> None:
    fn = Flaky([err])
    with pytest.raises(ClientError):
        table.call(fn, Key={})
    assert fn.calls == 1
