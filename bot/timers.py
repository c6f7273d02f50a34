"""Persisted timers: absolute UTC deadlines in the ``timers`` table, re-armed at start (a deadline missed while
the bot was down fires once, on start). Time comes from the injected :class:`~bot.clock.Clock`. The loop also
shows the games whose delivery lease another process held when it ran out (:meth:`~bot.tables.outbox.Deliverer.
take_over_due`, woken then) and, every poll, those nobody shows (:meth:`~bot.tables.outbox.Deliverer.sweep`).

Any number of processes may run timers on one database: each claims the due timers in the database before running
them (see :mod:`bot.db.repos.timers` for the claim and lease protocol), runs the handler, then marks the timer
fired, so a process dying mid-handler leaves the timer to another once its lease runs out. While its handlers
run, a process renews its claims every third of the lease (a heartbeat), so a handler slower than the lease (a
slow Discord, a long drain) is never run a second time by another process while the first still runs. Handlers
act through the table's version check and commit their announcements with their move, so a re-run (after a
process died mid-handler) is refused as stale rather than applied or announced twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.settings import POLL

if TYPE_CHECKING:
    from bot.app import Coroner

log = logging.getLogger(__name__)
Handler = Callable[[Any], Awaitable[None]]
#: how long a claimed timer's handler may run before another process may take the timer over
LEASE = timedelta(seconds=60)
#: timers claimed at once (a stopping process gives back those it has not run)
BATCH = 20


class TimerRunner:
    """Runs due timers through the handler registered for their ``kind``; each timer fires once across
    processes."""

    def __init__(self, bot: Coroner, *, lease: timedelta = LEASE, poll: timedelta = POLL) -> None:
        self.bot = bot
        self.handlers: dict[str, Handler] = {}
        self.lease = lease
        self.poll = poll
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._running: set[int] = set()  # the timers this process is running now (a claim may come back to it)
        #: when the loop, asleep, wakes next (None: it is awake, or not started): :meth:`wake` pokes only before it
        self._wake_at: datetime | None = None

    @property
    def asleep(self) -> bool:
        """Whether the loop sleeps until its next deadline with no wake-up pending (no :meth:`wake` or clock move
        since it last read the timers): it touches the database again only when that deadline comes or something
        wakes it. False while it is awake or not started."""
        return self._wake_at is not None and not self.bot.clock.poked

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    async def schedule(self, game_id: int, kind: str, due_at: datetime, payload: dict[str, Any]) -> None:
        await self.bot.tables.schedule_timer(game_id, kind, due_at, payload)
        self.wake(due_at)

    def wake(self, due_at: datetime) -> None:
        """A timer due at ``due_at`` was committed: wake the loop when it would otherwise sleep past it (a move that
        arms a turn limit minutes away costs the loop nothing; a computer player's move due now wakes it). While the
        loop is awake it reads the next due time after its batch, so nothing is lost; a poke meanwhile is kept."""
        if self._wake_at is None or due_at < self._wake_at:
            self.bot.clock.poke()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="coroner-timers")
        self._task.add_done_callback(self._done)

    async def stop(self, grace: float = 0.0) -> None:
        """Stop the loop: with ``grace`` (seconds), the handler running finishes first (its move applied and shown)
        and the claims not run yet are given back, then it is cancelled if still running (giving back the rest)."""
        if self._task is not None:
            self._stopping = True
            if grace > 0:
                self.bot.clock.poke()  # wake a loop waiting for the next due time
                await asyncio.wait({self._task}, timeout=grace)
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
        """Claim the timers due now (at most :data:`BATCH`) and run them; returns how many this process fired.
        Safe to call from tests. Cancelled midway, it gives back the claims it has not run."""
        tables = self.bot.tables
        claimed = [t for t in await tables.claim_timers(self.bot.clock.now(), self.lease, BATCH)
                   if t.id not in self._running]
        self._running.update(t.id for t in claimed)
        held = {t.id for t in claimed}  # claims still to run or finishing: the heartbeat renews them
        heartbeat = asyncio.create_task(self._heartbeat(held), name="coroner-timer-heartbeat") if claimed else None
        fired = 0
        try:
            for index, timer in enumerate(claimed):
                if self._stopping:  # stopping: the claims not run yet go back to the other processes at once
                    await tables.release_timers([t.id for t in claimed[index:]])
                    break
                try:
                    await self._handle(timer)
                except asyncio.CancelledError:
                    await asyncio.shield(tables.release_timers([t.id for t in claimed[index + 1:]]))
                    raise
                # after the handler: a process dying before this line leaves the timer to be taken over
                held.discard(timer.id)
                if await tables.fire_timer(timer.id):
                    fired += 1
        finally:
            if heartbeat is not None:
                heartbeat.cancel()
                await asyncio.gather(heartbeat, return_exceptions=True)
            self._running.difference_update(t.id for t in claimed)
        return fired

    async def _heartbeat(self, held: set[int]) -> None:
        """Renew this process's claims of ``held`` (shrinking as timers fire) every third of the lease until
        cancelled; a renewal that fails is tried again at the next beat, within the lease."""
        clock = self.bot.clock
        beat = clock.now() + self.lease / 3
        while True:
            while clock.now() < beat:
                await clock.sleep_until(beat)  # may wake early (a poke): sleep again until the beat
            beat = clock.now() + self.lease / 3
            asked = set(held)
            try:
                kept = await self.bot.tables.renew_timers(sorted(asked), self.lease)
            except Exception:  # the database may be away for a moment
                log.exception("renewing the claims of timers %s failed", sorted(asked))
                continue
            if lost := (asked & held) - kept:  # not those fired meanwhile
                log.warning("timers %s were taken over by another process while this one ran them", sorted(lost))

    async def _handle(self, timer: Any) -> None:
        metrics = self.bot.metrics
        metrics.timer_started((self.bot.clock.now() - timer.due_at).total_seconds())
        if getattr(timer, "taken_from", None):
            metrics.taken_over(timer.kind)
        # a timer acts on what players have seen: the game's committed steps are shown first (the drain already
        # running for it, if any, finishes before this one returns; another process's drain is left to it)
        await self.bot.tables.deliverer.drain(timer.game_id)
        handler = self.handlers.get(timer.kind)
        if handler is None:
            log.warning("no handler for timer kind %s", timer.kind)
            return
        try:
            await handler(timer)
        except Exception:  # a failing handler's timer is spent all the same: it would fail again
            log.exception("timer %s (%s) failed", timer.id, timer.kind)

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        swept = self.bot.clock.now()
        while not self._stopping:
            try:
                swept = await self._round(swept)
            except Exception:  # the database may be away for a moment: a claim lapses, the next round tries again
                log.exception("a round of the timer loop failed; trying again at the next poll")
                self._wake_at = None  # a timer committed meanwhile pokes
                await self.bot.clock.sleep_until(self.bot.clock.now() + self.poll)

    async def _round(self, swept: datetime) -> datetime:
        """Run the due timers, take over and sweep what dead processes left, then sleep until the next timer, watch
        or poll; returns when the outbox was last swept (``swept``, or now when this round swept it)."""
        deliverer = self.bot.tables.deliverer
        await self.run_due()
        try:  # a game another process's lease kept, now that the lease ran out (it died): shown at once
            await deliverer.take_over_due()
        except Exception:  # the database may be away for a moment: the next poll's sweep finds it
            log.exception("taking over the games of a process whose delivery lease ran out failed")
        now = self.bot.clock.now()
        if now - swept >= self.poll:
            swept = now
            try:
                await deliverer.sweep()
            except Exception:  # the database may be away for a moment: the next poll tries again
                log.exception("sweeping the outbox failed")
        self._wake_at = None  # a timer committed from now on pokes (kept until the sleep below)
        due = await self.bot.tables.next_timer_due()
        self._wake_at = min([now + self.poll, *(at for at in (due, deliverer.next_watch()) if at is not None)])
        await self.bot.clock.sleep_until(self._wake_at)
        self._wake_at = None
        return swept
