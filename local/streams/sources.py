"""Which functions read which table's stream, and how: the template's ``Type: DynamoDB`` events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local.streams.filters import check_pattern, matches
from local.template import Intrinsic, Template

# Lambda's default (-1) retries until the records expire from the stream (24 h); a local
# runtime stuck on one batch for a day helps nobody, so it gives up after this many instead.
LOCAL_RETRY_LIMIT = 10
DEFAULT_BATCH_SIZE = 100  # Lambda's default for DynamoDB streams


@dataclass(frozen=True)
class StreamSource:
    """One DynamoDB event of a function: which table's stream feeds it, and how."""

    function: str  # logical id
    code_uri: Path
    handler: str
    table: str  # logical id of the table
    batch_size: int = DEFAULT_BATCH_SIZE
    max_retries: int = -1  # as in the template: -1 means Lambda's "until the records expire"
    report_item_failures: bool = False
    parallelization: int = 1  # ParallelizationFactor: batches of one shard at once, by key
    filters: list[dict[str, Any]] = field(default_factory=list)

    @property
    def retry_limit(self) -> int:
        return self.max_retries if self.max_retries >= 0 else LOCAL_RETRY_LIMIT

    def passes(self, record: dict[str, Any]) -> bool:
        """Lambda's FilterCriteria: no filters lets everything through, else any filter."""
        return not self.filters or any(matches(pattern, record) for pattern in self.filters)


def _stream_table(stream: Any) -> str | None:
    """The table of ``!GetAtt Table.StreamArn`` (short or long form), else None."""
    if isinstance(stream, dict) and set(stream) == {"Fn::GetAtt"}:
        stream = Intrinsic("GetAtt", stream["Fn::GetAtt"])
    if not isinstance(stream, Intrinsic) or stream.name != "GetAtt":
        return None
    value = stream.value
    parts = value.split(".", 1) if isinstance(value, str) else list(value)
    if len(parts) == 2 and parts[1] == "StreamArn":
        return str(parts[0])
    return None


def stream_sources(template: Template) -> list[StreamSource]:
    """Every enabled DynamoDB event of the template's functions on one of its tables' streams."""
    tables = template.of_type("AWS::DynamoDB::Table")
    sources: list[StreamSource] = []
    for name, code_uri, handler, ev in template.function_events("DynamoDB"):
        table = _stream_table(ev.get("Stream"))
        if table not in tables or ev.get("Enabled") is False:
            continue
        filters = []
        for entry in ev.get("FilterCriteria", {}).get("Filters", []):
            raw = entry["Pattern"]
            pattern = json.loads(raw) if isinstance(raw, str) else raw
            check_pattern(pattern, f"{name} FilterCriteria")
            filters.append(pattern)
        sources.append(
            StreamSource(
                function=name,
                code_uri=code_uri,
                handler=handler,
                table=table,
                batch_size=int(ev.get("BatchSize", DEFAULT_BATCH_SIZE)),
                max_retries=int(ev.get("MaximumRetryAttempts", -1)),
                parallelization=int(ev.get("ParallelizationFactor", 1)),
                report_item_failures="ReportBatchItemFailures"
                in ev.get("FunctionResponseTypes", []),
                filters=filters,
            )
        )
    return sources
