"""local/sns.py: moto's SNS server as the runtime and the tests run it (here the session's).
Real SNS takes any number of calls at once; moto's backends are plain dicts, so the local
server lets one SNS request at a time into them."""

from __future__ import annotations

import sys
import threading
from typing import Any

import boto3
from botocore.config import Config

from local.sns import LocalSns


def client(sns: LocalSns, **config: Any) -> Any:
    """An SNS client of ``sns``, as the handlers make one."""
    return boto3.client(
        "sns",
        endpoint_url=sns.endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
        config=Config(**config),
    )


def test_phones_registered_at_once_all_get_endpoints_and_pushes_reads_them(sns: LocalSns) -> None:
    """Eight clients register 60 phones each at once, the thread switch made as fine as it goes
    so that requests interleave inside moto (without the lock, a few of them failed with a 500:
    "dictionary changed size during iteration"); every call succeeds, and every endpoint is
    there to publish to."""
    failures: list[str] = []
    arns: list[str] = []

    def register(client_number: int) -> None:
        sender = client(sns, retries={"max_attempts": 1})
        for phone in range(60):
            try:
                created = sender.create_platform_endpoint(
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

    # the session's server (tests/conftest.py): read this test's endpoint alone, and leave
    # moto's backend as it was found
    reader = client(sns)
    try:
        reader.publish(
            TargetArn=arns[0], Message='{"APNS": "{\\"game\\": \\"g\\"}"}', MessageStructure="json"
        )
        (push,) = [p for p in sns.pushes() if p["endpoint"] == arns[0]]
        assert push["platform"] == "apns" and push["payload"] == {"game": "g"}
    finally:
        for arn in arns:
            reader.delete_endpoint(EndpointArn=arn)
