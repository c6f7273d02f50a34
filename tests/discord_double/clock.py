"""The double's clock: what its deadlines (the 3-second initial response, 15-minute follow-ups, heartbeats) are
measured on.

By default the double uses the real monotonic clock and measures the 3-second deadline with a generous margin
(:data:`REAL_TIME_MARGIN`): a loaded 2-core CI machine can stall the event loop for seconds, and a correct bot must
never fail a test because of that. Tests of the deadlines themselves inject a :class:`ManualClock` and move it:
there the deadline is Discord's exact 3 seconds and nothing depends on real time.
"""

from __future__ import annotations

import time

#: seconds added to Discord's 3-second deadline when the double runs on the real clock (see the module docstring)
REAL_TIME_MARGIN = 7.0


class ManualClock:
    """A clock that moves only when told: ``clock()`` is the time in seconds, ``clock.advance(s)`` moves it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def real_clock() -> float:
    return time.monotonic()
