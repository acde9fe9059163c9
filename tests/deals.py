"""Fixed deals the tests share (dev mode's ``deal``): one copy, with the games events/ files
are about (``make invoke`` deals it too)."""

from __future__ import annotations

from typing import Any

from local.scenarios import DOS_DEAL as DOS_DEAL

#: ``DOS_DEAL`` with 5-6 dealt to seat 0 instead of 5-5: seat 1 must lead 6-6, and seat 0 can
#: answer it (the pre-move tests store "if seat 1 plays 6-6, I play 5-6")
PREMOVE_DEAL: dict[str, list[Any]] = {
    "hands": [
        [("5-6" if t == "5-5" else t) for t in DOS_DEAL["hands"][0]],
        list(DOS_DEAL["hands"][1]),
    ],
    "boneyard": [("5-5" if t == "5-6" else t) for t in DOS_DEAL["boneyard"]],
}
