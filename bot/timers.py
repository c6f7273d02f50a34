"""Persisted timers: absolute UTC deadlines in the ``timers`` table, re-armed at start (a deadline missed while
the bot was down fires once, on start). Time comes from the injected :class:`~bot.clock.Clock`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.bot import CoronerBot

log = logging.getLogger(__name__)
Handler = Callable[[Any], Awaitable[None]]


class TimerRunner:
    """Runs due timers through the handler registered for their ``kind``; each timer fires at most once."""

    def __init__(self, bot: CoronerBot) -> None:
        self.bot = bot
        self.handlers: dict[str, Handler] = {}
        self._task: asyncio.Task[None] | None = None

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    async def schedule(self, game_id: int, kind: str, due_at: datetime, payload: dict[str, Any]) -> None:
        await self.bot.tables.schedule_timer(game_id, kind, due_at, payload)
        self.bot.clock.poke()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="coroner-timers")
        self._task.add_done_callback(self._done)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    def _done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("the timer loop died", exc_info=task.exception())

    async def run_due(self) -> int:
        """Fire every timer due now; returns how many fired. Safe to call from tests."""
        fired = 0
        for timer in await self.bot.tables.due_timers(self.bot.clock.now()):
            if not await self.bot.tables.fire_timer(timer.id):
                continue  # another process took it
            handler = self.handlers.get(timer.kind)
            fired += 1
            # a timer acts on what players have seen: the game's committed steps are shown first (the drain
            # already running for it, if any, finishes before this one returns)
            await self.bot.tables.deliverer.drain(timer.game_id)
            if handler is None:
                log.warning("no handler for timer kind %s", timer.kind)
                continue
            try:
                await handler(timer)
            except Exception:
                log.exception("timer %s (%s) failed", timer.id, timer.kind)
        return fired

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await self.run_due()
            await self.bot.clock.sleep_until(await self.bot.tables.next_timer_due())
