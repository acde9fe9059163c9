"""A request DynamoDB Local's HTTP server refused unread is sent again; DynamoDB's own errors
are not (store/table.py, refused_unread); a batch read asks again for what it was not given."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from domino.store.errors import Unavailable
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


class Batches:
    """A client whose BatchGetItem answers from ``answers`` in turn (then every key at once)."""

    def __init__(self, answers: list[dict[str, Any]]) -> None:
        self.answers, self.requests = answers, list[dict[str, Any]]()

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(RequestItems)
        if self.answers:
            return self.answers.pop(0)
        return {"Responses": {name: list(ask["Keys"]) for name, ask in RequestItems.items()}}


def key(n: int) -> dict[str, Any]:
    return {"pk": {"S": f"P#{n}"}, "sk": {"S": "X"}}


def test_a_batch_read_asks_again_for_what_was_left_unread_and_for_a_foreign_answer(
    table: Table,
) -> None:
    left = {"GameTable": {"Keys": [key(2)]}}
    table.client = client = Batches(
        [{"ResponseMetadata": {}}, {"Responses": {"GameTable": [key(1)]}, "UnprocessedKeys": left}]
    )
    assert table.batch_get([key(1), key(2)], consistent=True) == [key(1), key(2)]
    assert len(client.requests) == 3 and client.requests[2] == left
    assert client.requests[0]["GameTable"]["ConsistentRead"] is True


def test_a_batch_read_goes_100_keys_at_a_time_and_never_answers_in_part(table: Table) -> None:
    table.client = client = Batches([])
    assert len(table.batch_get([key(n) for n in range(250)])) == 250
    assert [len(r["GameTable"]["Keys"]) for r in client.requests] == [100, 100, 50]
    never = {"Responses": {"GameTable": []}, "UnprocessedKeys": {"GameTable": {"Keys": [key(1)]}}}
    table.client = Batches([never] * 100)
    with pytest.raises(Unavailable):
        table.batch_get([key(1)])
