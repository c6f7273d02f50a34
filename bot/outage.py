"""Discord outages as the deliverer sees them (issue 22): which failures mean Discord did not answer, so the step is
tried again for as long as it is kept (:data:`bot.tables.outbox.RETENTION`), and the first REST answer after such
failures, which redraws at once every game whose last step was not fully shown instead of waiting for its retry's
backoff (up to :data:`bot.tables.outbox.RETRY_CAP`)."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable

import aiohttp
import discord

log = logging.getLogger(__name__)


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means Discord did not answer the request: a 5xx (``DiscordServerError``, after discord.py's
    own retries of 500, 502, 504 and 524), a 429 it did not wait out, a timeout or a connection that failed. Any
    other answer (a 4xx refusal) or error (a bug) would fail again: False."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (discord.RateLimited, aiohttp.ClientError, TimeoutError, OSError))


class Outage:
    """Watches this process's REST answers (:meth:`answered`, fed by :meth:`bot.metrics.Metrics.on_answer`): after
    one or more failures (a 5xx or no answer), the next answer Discord gives (any status below 500 but 429) starts
    ``redraw`` (:meth:`bot.tables.outbox.Deliverer.redraw_failed`) in a task of its own. Answers while it runs do
    not start another; a failure meanwhile makes the next answer after it start one again."""

    def __init__(self, redraw: Callable[[], Awaitable[int]]) -> None:
        self._redraw = redraw
        self.down = False  # a request failed since the last redraw began
        self._task: asyncio.Task[None] | None = None
        #: how many redraws were started (for tests and logs)
        self.redraws = 0

    def answered(self, status: int | None) -> None:
        """A REST request ended with ``status`` (None: no answer: a timeout, a connection error)."""
        if status is None or status >= 500:
            self.down = True
            return
        if status == 429 or not self.down or (self._task is not None and not self._task.done()):
            return
        self.down = False
        self.redraws += 1
        # a context of its own: the request that answered may run inside a step's delivery or an interaction's
        # answer, whose context variables the redraw must not inherit
        self._task = asyncio.get_running_loop().create_task(self._run(), name="coroner-redraw",
                                                            context=contextvars.Context())

    async def _run(self) -> None:
        log.info("Discord answers again: redrawing the games whose last step failed to show")
        try:
            shown = await self._redraw()
        except Exception:  # the database may be away too: the steps' retry timers still come
            log.exception("redrawing the games after Discord's outage failed")
            return
        log.info("redrew %d steps after Discord's outage", shown)

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
