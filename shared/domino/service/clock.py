"""What tells the use cases the time: a ``Clock`` is called for epoch seconds. Lambda's is the
system's; the local runtime's can be advanced (dev mode), so tests reach deadlines at once."""

from __future__ import annotations

import time
from collections.abc import Callable

#: a clock: epoch seconds when called
Clock = Callable[[], float]


def system_clock() -> float:
    return time.time()
