"""The double's clock: what its deadlines (the 3-second initial response, 15-minute follow-ups, heartbeats) are
measured on.

By default the double uses the real monotonic clock and holds Discord's exact 3 seconds: an answer sent later is
refused with 10062, as Discord refuses it. A test that knowingly does slow work before answering asks for a margin by
name (:meth:`~tests.discord_double.server.DiscordDouble.allow_margin`, e.g. ``REAL_TIME_MARGIN``). Tests of the
deadlines themselves inject a :class:`ManualClock` and move it: nothing there depends on real time.
"""

from __future__ import annotations

import time

#: a generous margin a test may ask for by name (:meth:`DiscordDouble.allow_margin`), never given by default
REAL_TIME_MARGIN = 7.0
#: seconds of real time :meth:`InteractionHandle.response` waits past the deadline for a refused answer to arrive
ANSWER_SLACK = 1.0


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
