"""DynamoDB stream events for the local runtime, as Lambda's event source mapping delivers them.

Every function with a ``Type: DynamoDB`` event on ``!GetAtt <Table>.StreamArn`` gets the
table's stream records: read with the Streams API from DynamoDB Local (or moto), filtered by
its FilterCriteria, batched by BatchSize, retried up to MaximumRetryAttempts and, with
ReportBatchItemFailures, re-delivered from the first failed record. Delivery is at least once.
With a data folder each mapping keeps its position per shard (``checkpoints``) and a restart
resumes after it, as Lambda's mappings do (a mapping with no position for the kept data begins at
the stream's end); without, every shard is read from TRIM_HORIZON.

Not modelled: StartingPosition LATEST, MaximumBatchingWindowInSeconds, BisectBatchOnFunctionError,
parallelisation and on-failure destinations (a batch given up on is logged, not sent anywhere).

The parts, one module each:

- ``sources``: which function reads which table's stream, and how (``stream_sources``);
- ``filters``: Lambda's event-filter patterns (``matches``, ``check_pattern``);
- ``checkpoints``: where each mapping has got to, kept beside the data (``Checkpoints``);
- ``records``: the Lambda-shaped record of a Streams API record (``lambda_record``);
- ``pump``: reading the shards and invoking the functions (``StreamPump``).
"""

from local.streams.checkpoints import Checkpoints
from local.streams.filters import check_pattern, matches
from local.streams.pump import StreamPump
from local.streams.records import lambda_record
from local.streams.sources import (
    DEFAULT_BATCH_SIZE,
    LOCAL_RETRY_LIMIT,
    StreamSource,
    stream_sources,
)

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "LOCAL_RETRY_LIMIT",
    "Checkpoints",
    "StreamPump",
    "StreamSource",
    "check_pattern",
    "lambda_record",
    "matches",
    "stream_sources",
]
