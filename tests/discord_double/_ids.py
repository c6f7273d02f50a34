"""Snowflake ids and timestamps shaped like Discord's."""

from __future__ import annotations

import datetime as dt
import time

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeGen:
    """Hands out strictly increasing snowflakes whose timestamp part is the wall clock (ms since 2015)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake id, always larger than the previous one."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last


def iso_now() -> str:
    """The current UTC time as an ISO-8601 string, the way Discord writes timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()
