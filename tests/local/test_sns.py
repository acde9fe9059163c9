"""local/sns.py: moto's SNS server as the runtime and the tests run it. Real SNS takes any
number of calls at once; moto's backends are plain dicts, so the local server lets one request
at a time into them."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import boto3
import pytest
from botocore.config import Config

from local.sns import LocalSns


@pytest.fixture
def sns() -> Iterator[LocalSns]:
    server = LocalSns()
    try:
        yield server
    finally:
        server.stop()


def test_phones_registered_at_once_all_get_endpoints_and_pushes_reads_them(sns: LocalSns) -> None:
    """Eight clients register 60 phones each at once, the thread switch made as fine as it goes
    so that requests interleave inside moto (without the lock, a few of them failed with a 500:
    "dictionary changed size during iteration"); every call succeeds, and every endpoint is
    there to publish to."""
    failures: list[str] = []
    arns: list[str] = []

    def register(client_number: int) -> None:
        client = boto3.client(
            "sns",
            endpoint_url=sns.endpoint,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
            config=Config(retries={"max_attempts": 1}),
        )
        for phone in range(60):
            try:
                created = client.create_platform_endpoint(
                    PlatformApplicationArn=sns.applications["apns"],
                    Token=f"phone-{client_number}-{phone}",
                    CustomUserData=f"player-{client_number}",
                )
                arns.append(created["EndpointArn"])
            except Exception as err:  # every failure counted, none raised in a thread
                failures.append(f"{type(err).__name__}: {err}")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=register, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(set(arns)) == 480

    # moto keeps one backend a process, which the session's server shares: read this test's
    # endpoint alone, and leave the backend as it was found
    client = boto3.client(
        "sns",
        endpoint_url=sns.endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    try:
        client.publish(
            TargetArn=arns[0], Message='{"APNS": "{\\"game\\": \\"g\\"}"}', MessageStructure="json"
        )
        (push,) = [p for p in sns.pushes() if p["endpoint"] == arns[0]]
        assert push["platform"] == "apns" and push["payload"] == {"game": "g"}
    finally:
        for arn in arns:
            client.delete_endpoint(EndpointArn=arn)
