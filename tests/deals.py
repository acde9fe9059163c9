"""Fixed deals the tests share (dev mode's ``deal``)."""

from __future__ import annotations

from typing import Any

# hand 1 of dos-jugadores: bob holds 6-6 and leads it
DOS_DEAL: dict[str, list[Any]] = {
    "hands": [
        ["0-0", "0-1", "1-1", "2-3", "3-4", "4-5", "5-5"],
        ["6-6", "0-6", "1-6", "2-6", "3-6", "2-2", "3-3"],
    ],
    "boneyard": [
        "4-6",
        "5-6",
        "0-2",
        "0-3",
        "0-4",
        "0-5",
        "1-2",
        "1-3",
        "1-4",
        "1-5",
        "2-4",
        "2-5",
        "3-5",
        "4-4",
    ],
}
