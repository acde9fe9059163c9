"""Create the template's DynamoDB tables locally (what CloudFormation does when deployed)."""

from __future__ import annotations

import time
from typing import Any

import boto3
from botocore.config import Config

from local.template import Template


def dynamodb_client(endpoint: str) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
        config=Config(retries={"max_attempts": 3, "mode": "standard"}),
    )


def ensure_tables(endpoint: str, template: Template | None = None) -> list[str]:
    """Create every missing table (with its GSIs, stream and TTL); returns the table names."""
    template = template or Template()
    client = dynamodb_client(endpoint)
    existing = set(client.list_tables().get("TableNames", []))
    for name, table in template.table_definitions().items():
        if name in existing:
            add_missing_indexes(client, table["spec"])
            continue
        client.create_table(**table["spec"])
        client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2})
        if table["ttl"]:
            client.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": table["ttl"]},
            )
    return list(template.table_definitions())


def add_missing_indexes(client: Any, spec: dict[str, Any]) -> list[str]:
    """Create the GSIs the template gained since the table was made (the data of an earlier
    ``make run`` kept under .local/), as CloudFormation's update does deployed; DynamoDB
    creates one at a time and backfills it from the items there. Returns the names created."""
    name = spec["TableName"]
    table = client.describe_table(TableName=name)["Table"]
    present = {index["IndexName"] for index in table.get("GlobalSecondaryIndexes", [])}
    created = []
    for index in spec.get("GlobalSecondaryIndexes", []):
        if index["IndexName"] in present:
            continue
        keys = {key["AttributeName"] for key in index["KeySchema"]}
        client.update_table(
            TableName=name,
            AttributeDefinitions=[
                a for a in spec["AttributeDefinitions"] if a["AttributeName"] in keys
            ],
            GlobalSecondaryIndexUpdates=[{"Create": index}],
        )
        created.append(index["IndexName"])
    if created:
        wait_for_indexes(client, name)
    return created


def wait_for_indexes(client: Any, name: str, within: float = 120.0) -> None:
    """Until every GSI of ``name`` is ACTIVE (a new one is backfilled first): a query the
    next moment would otherwise find no index, or half of it."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        table = client.describe_table(TableName=name)["Table"]
        statuses = [i.get("IndexStatus") for i in table.get("GlobalSecondaryIndexes", [])]
        if all(status == "ACTIVE" for status in statuses):
            return
        time.sleep(0.1)
    raise TimeoutError(f"the indexes of {name} are not active after {within:.0f} s")
