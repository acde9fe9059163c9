"""Configuration read once from the environment; every variable is declared in template.yaml."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Settings:
    table_name: str
    idempotency_table: str
    dev_mode: bool


@lru_cache(maxsize=1)
def settings() -> Settings:
    return Settings(
        table_name=os.environ.get("TABLE_NAME", "GameTable"),
        idempotency_table=os.environ.get("IDEMPOTENCY_TABLE", "IdempotencyTable"),
        dev_mode=os.environ.get("DEV_MODE", "false").strip().lower() == "true",
    )
