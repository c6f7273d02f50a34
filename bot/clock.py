"""Injected time: the bot never reads the wall clock directly, so tests can run a three-day game in seconds."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


class Clock:
    """The real clock: aware UTC ``now()`` and ``sleep_until`` (wakes early when :meth:`poke` is called)."""

    def __init__(self) -> None:
        self._poked = asyncio.Event()

    def now(self) -> datetime:
        return datetime.now(UTC)

    def poke(self) -> None:
        """Wake every :meth:`sleep_until` so it re-reads its deadline (e.g. a nearer timer was scheduled)."""
        self._poked.set()

    @property
    def poked(self) -> bool:
        """Whether a :meth:`poke` is pending: no :meth:`sleep_until` has taken it yet (it returns at once then)."""
        return self._poked.is_set()

    async def sleep_until(self, when: datetime | None) -> None:
        """Return at ``when`` (``None``: only when poked) or as soon as :meth:`poke` is called. A poke that came
        while the caller was busy (e.g. reading its next deadline) is kept, so it is never lost."""
        delay = None if when is None else max(0.0, (when - self.now()).total_seconds())
        try:
            await asyncio.wait_for(self._poked.wait(), timeout=delay)
        except TimeoutError:
            pass
        self._poked.clear()

    async def pause_until(self, when: datetime) -> None:
        """Return at ``when``, whatever is poked meanwhile, and leave every poke to :meth:`sleep_until` (a heartbeat
        beside the timer loop must not take the loop's wake-up)."""
        await asyncio.sleep(max(0.0, (when - self.now()).total_seconds()))


class FakeClock(Clock):
    """A clock that only moves when a test calls :meth:`advance` or :meth:`set`. Sleepers wake on each move."""

    def __init__(self, start: datetime | None = None) -> None:
        super().__init__()
        self._now = start or datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
        self._pauses: list[tuple[datetime, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when
        waiting = self._pauses
        self._pauses = [(at, future) for at, future in waiting if at > when and not future.done()]
        for at, future in waiting:
            if at <= when and not future.done():
                future.set_result(None)
        self.poke()

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move time forward by ``delta`` (or ``timedelta(**kwargs)``) and wake sleepers. Returns the new now."""
        self.set(self._now + (delta if delta is not None else timedelta(**kwargs)))
        return self._now

    async def sleep_until(self, when: datetime | None) -> None:
        """Return at once when ``when`` has passed; otherwise at the next move of the clock or poke (the caller
        re-reads its deadline, as with the real clock)."""
        if when is not None and self._now >= when:
            return
        await self._poked.wait()
        self._poked.clear()

    async def pause_until(self, when: datetime) -> None:
        """Return once the clock was moved to ``when`` or past it (pokes neither wake nor are taken)."""
        if self._now >= when:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pauses.append((when, future))
        try:
            await future
        finally:  # (cancelled: forgotten at once, not at the next move)
            self._pauses = [(at, waiting) for at, waiting in self._pauses if waiting is not future]
