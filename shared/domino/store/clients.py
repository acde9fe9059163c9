"""Every AWS client of the layer, made from one boto3 session per process.

A new ``boto3.session.Session`` reads botocore's service models and endpoint rules from disk
again: its first client cost 54-92 ms of CPU, another client of a session that has read them
4 ms (docs/decisions.md, "One boto3 session"). A container used to make a session for each of
its clients (the game table, Powertools' idempotency records, SNS, SQS, API Gateway, Cognito).
A session is not thread-safe, its clients are: clients are made under a lock.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

import boto3
from botocore.config import Config

#: the SNS, SQS, API Gateway and Cognito clients': three tries, standard backoff, 2 s to connect
#: (the game table's own, store/table.py, also sets timeouts and skips parameter validation)
SERVICE_CONFIG = Config(retries={"max_attempts": 3, "mode": "standard"}, connect_timeout=2)

_making = threading.Lock()


@cache
def _session() -> boto3.session.Session:
    return boto3.session.Session()


def aws_client(service: str, **options: Any) -> Any:
    """A low-level client of ``service`` (``options`` as ``Session.client`` takes them)."""
    with _making:
        return _session().client(service, **options)
