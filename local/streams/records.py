"""The record of a Lambda DynamoDB stream event, made from a record of the Streams API."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Any


def _as_lambda_json(value: dict[str, Any]) -> dict[str, Any]:
    """A typed attribute value as Lambda's JSON has it: binaries base64, maps/lists recursed."""
    out: dict[str, Any] = {}
    for kind, inner in value.items():
        if kind == "B":
            out[kind] = base64.b64encode(inner).decode("ascii")
        elif kind == "BS":
            out[kind] = [base64.b64encode(b).decode("ascii") for b in inner]
        elif kind == "M":
            out[kind] = _image(inner)
        elif kind == "L":
            out[kind] = [_as_lambda_json(item) for item in inner]
        else:
            out[kind] = inner  # S, N (a string), SS, NS, BOOL, NULL
    return out


def _image(image: dict[str, Any]) -> dict[str, Any]:
    return {name: _as_lambda_json(value) for name, value in image.items()}


def lambda_record(raw: dict[str, Any], stream_arn: str, region: str) -> dict[str, Any]:
    """One GetRecords record (boto3's types) as the record of a Lambda event (plain JSON)."""
    source = raw["dynamodb"]
    body: dict[str, Any] = {}
    created = source.get("ApproximateCreationDateTime")
    if created is not None:
        body["ApproximateCreationDateTime"] = (
            created.timestamp() if isinstance(created, datetime) else created
        )
    for key in ("Keys", "NewImage", "OldImage"):
        if key in source:
            body[key] = _image(source[key])
    for key in ("SequenceNumber", "SizeBytes", "StreamViewType"):
        if key in source:
            body[key] = source[key]
    record: dict[str, Any] = {
        "eventID": raw["eventID"],
        "eventName": raw["eventName"],
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": region,
        "dynamodb": body,
        "eventSourceARN": stream_arn,
    }
    if "userIdentity" in raw:  # TTL deletions say who removed the item
        record["userIdentity"] = raw["userIdentity"]
    return record
