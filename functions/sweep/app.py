"""Every minute (an EventBridge schedule): turns past 80 % of their time are reminded, turns
past their deadline are finished for the late player (on_timeout), through the same write path
and optimistic locking as a player's move."""

from typing import Any

from domino.api.entry import count, entry_point
from domino.api.wiring import service


def sweep(_event: dict[str, Any], _context: Any) -> dict[str, int]:
    report = service().sweeper.sweep()
    count("turns_reminded", report.reminded)
    count("turns_timed_out", report.timed_out)
    return report._asdict()


handler = entry_point(sweep, records_metrics=True)
