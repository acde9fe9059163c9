"""Where the local runtime keeps its files: an ignored ``.local/`` folder at the repo root."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def local_dir() -> Path:
    """The ignored working folder (``DOMINO_LOCAL_DIR`` overrides it)."""
    return Path(os.environ.get("DOMINO_LOCAL_DIR") or REPO_ROOT / ".local")


def run_dir() -> Path:
    """What a running runtime keeps while it runs: pid files, its dev clock, DynamoDB Local's
    working folder."""
    return local_dir() / "run"


def template_path() -> Path:
    return Path(os.environ.get("DOMINO_TEMPLATE") or REPO_ROOT / "template.yaml")
