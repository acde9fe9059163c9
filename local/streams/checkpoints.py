"""Where each event source mapping has got to in its stream, kept beside the data.

Lambda's event source mapping keeps its position across deployments; a local runtime that read
every shard from TRIM_HORIZON on each start would replay the whole stream through its functions
before anything new (121 s on a checkout with 25 MB of earlier games). So each mapping writes its
position, per shard, to ``<data dir>/streams/<function>-<table>.json``, and the next start resumes
AFTER_SEQUENCE_NUMBER. A mapping with no checkpoint for the stream it finds at the start (data
kept by an earlier version of this runtime, or a lost file) begins at the stream's end: what the
stream holds then was delivered by the run that wrote it. A shard begun there keeps, until a
record of it is done, the first record read since (``at``), or, with none read, ``from_end``:
it begins at its end again. TRIM_HORIZON is for a stream
that appears while the runtime runs (a table made anew), for shards new since the checkpoint,
and for a position the stream no longer holds (trimmed).

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
    """One mapping's position: its stream, each open shard's last done record, drained shards;
    and for shards begun at their end with no record done since, the first record read
    (``at``), or, with none read, the shard in ``from_end``."""

    stream: str
    shards: dict[str, str] = field(default_factory=dict)
    finished: set[str] = field(default_factory=set)
    at: dict[str, str] = field(default_factory=dict)
    from_end: set[str] = field(default_factory=set)


def _valid(data: Any) -> Position | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    stream, shards, finished = data.get("stream"), data.get("shards"), data.get("finished")
    # absent from the files of the first runtimes
    at, from_end = data.get("at", {}), data.get("from_end", [])
    if (
        not isinstance(stream, str)
        or not isinstance(shards, dict)
        or not isinstance(at, dict)
        or not isinstance(finished, list)
        or not isinstance(from_end, list)
    ):
        return None
    pairs = [*shards.items(), *at.items()]
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in pairs):
        return None
    if not all(isinstance(shard, str) for shard in [*finished, *from_end]):
        return None
    return Position(stream, dict(shards), set(finished), dict(at), set(from_end))


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
            "at": dict(sorted(position.at.items())),
            "from_end": sorted(position.from_end),
        }
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, path)
