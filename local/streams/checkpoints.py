"""Where each event source mapping has got to in its stream, kept beside the data.

Lambda's event source mapping keeps its position across deployments; a local runtime that read
every shard from TRIM_HORIZON on each start would replay the whole stream through its functions
before anything new (121 s on a checkout with 25 MB of earlier games). So each mapping writes its
position, per shard, to ``<data dir>/streams/<function>-<table>.json``, and the next start resumes
AFTER_SEQUENCE_NUMBER: TRIM_HORIZON is only for a mapping with no checkpoint, a checkpoint of
another stream (the table was made anew) or a position the stream no longer holds (trimmed).

A checkpoint never runs ahead of delivery: it names the last record whose batch was delivered
(or that the mapping's filters dropped), so a crash between a delivery and its checkpoint
replays that batch, which is Lambda's at-least-once as well.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = 1
#: a checkpoint file is small (a sequence number per shard); anything bigger is not ours
MAX_BYTES = 1 << 20


@dataclass
class Position:
    """One mapping's position: its stream, each open shard's last done record, drained shards."""

    stream: str
    shards: dict[str, str] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)


def _valid(data: Any) -> Position | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    stream, shards, finished = data.get("stream"), data.get("shards"), data.get("finished")
    if (
        not isinstance(stream, str)
        or not isinstance(shards, dict)
        or not isinstance(finished, list)
    ):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in shards.items()):
        return None
    if not all(isinstance(shard, str) for shard in finished):
        return None
    return Position(stream, dict(shards), set(finished))


class Checkpoints:
    """The checkpoint files of one data folder (one per mapping)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, function: str, table: str) -> Path:
        return self.folder / f"{function}-{table}.json"

    def load(self, function: str, table: str) -> Position | None:
        """The saved position, or None (none saved, or unreadable: then the mapping is new)."""
        path = self.path(function, table)
        try:
            if path.stat().st_size > MAX_BYTES:
                return None
            return _valid(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return None

    def save(self, function: str, table: str, position: Position) -> None:
        """Write atomically (a crash leaves the old file or the new one, never half of one)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.path(function, table)
        data = {
            "format": FORMAT,
            "stream": position.stream,
            "shards": dict(sorted(position.shards.items())),
            "finished": sorted(position.finished),
        }
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, path)
