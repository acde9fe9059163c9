"""Fixed deals the tests share (dev mode's ``deal``): one copy, with the games events/ files
are about (``make invoke`` deals it too)."""

from __future__ import annotations

from local.scenarios import DOS_DEAL as DOS_DEAL
