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

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake whose guild shard ``(id >> 22) % shard_count`` is ``shard_id`` (its timestamp part is
        moved up to ``shard_count - 1`` ms forward), always larger than the previous one."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of the {shard_count} shards")
        ident = self.next()
        ms = ident >> 22
        if ms % shard_count != shard_id:
            ident = self._last = (ms + (shard_id - ms) % shard_count) << 22
        return ident


def iso_now() -> str:
    """The current UTC time as an ISO-8601 string, the way Discord writes timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()
