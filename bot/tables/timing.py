"""Timers of :class:`bot.tables.service.TableService`: persisted deadlines, claimed by one process at a time and
fired once (the protocol: :mod:`bot.db.repos.timers`); the timer loop (:mod:`bot.timers`) runs them. Timers of the
``superseded`` kinds a move has moved past are never claimed, waited for or listed
(:func:`bot.db.repos.timers.standing`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, Timer
from bot.db.repos import outbox, timers
from bot.tables.model import TableError, TimerInfo
from bot.tables.outbox import Deliverer


def _timer_info(timer: Timer, taken_from: str | None = None) -> TimerInfo:
    return TimerInfo(id=timer.id, game_id=timer.game_id, kind=timer.kind, due_at=timer.due_at,
                     payload=dict(timer.payload), version_at_schedule=timer.version_at_schedule,
                     fired_at=timer.fired_at, taken_from=taken_from)


class TimersMixin:
    """The timer operations of :class:`bot.tables.service.TableService` (which provides the attributes below)."""

    _sessions: async_sessionmaker[AsyncSession]
    _clock: Callable[[], datetime]
    _superseded: frozenset[str]
    owner: str
    deliverer: Deliverer

    async def schedule_timer(self, game_id: int, kind: str, due_at: datetime,
                             payload: dict[str, Any] | None = None) -> TimerInfo:
        """Persist a timer stamped with the game's current version. Raises ``table.not_found``."""
        async with self._sessions() as session, session.begin():
            version = await session.scalar(select(Game.version).where(Game.id == game_id))
            if version is None:
                raise TableError("table.not_found", game_id=game_id)
            return _timer_info(await timers.schedule(session, game_id, kind, due_at, payload or {}, version))

    async def pending_timers(self, game_id: int) -> list[TimerInfo]:
        async with self._sessions() as session:
            return [_timer_info(t) for t in await timers.pending_of(session, game_id, self._superseded)]

    async def lobby_expired(self, game_id: int) -> bool:
        """Whether the lobby ``game_id`` was closed by its expiry (see :func:`bot.db.repos.timers.lobby_expired`)."""
        async with self._sessions() as session:
            return await timers.lobby_expired(session, game_id)

    async def next_timer_due(self) -> datetime | None:
        """When the earliest unfired timer can be claimed: it falls due, or the lease of the process running it
        runs out (None when there is none)."""
        async with self._sessions() as session:
            return await timers.next_due(session, self._superseded)

    async def claim_timers(self, now: datetime, lease: timedelta, limit: int = 50) -> list[TimerInfo]:
        """Claim for this process the due timers nobody runs (see :func:`bot.db.repos.timers.claim_due`): run
        each one's handler within ``lease``, then :meth:`fire_timer` it."""
        async with self._sessions() as session, session.begin():
            return [_timer_info(t, taken_from) for t, taken_from in
                    await timers.claim_due(session, now, self.owner, lease, limit, superseded=self._superseded)]

    async def hand_back(self) -> None:
        """Give back every timer claim and delivery lease this process still holds (it is stopping), in one
        transaction: other processes take them at once instead of when they run out."""
        await self.deliverer.marks.close()
        held = self.deliverer.marks.take()  # (the marks held for a next move: written now, with the hand-back)
        try:
            async with self._sessions() as session, session.begin():
                await self.deliverer.marks.write(session, held, release=False)
                await timers.release_owner(session, self.owner)
                await outbox.release_owner(session, self.owner, self._clock())
        except BaseException:
            self.deliverer.marks.restore(held)
            raise
        await self.deliverer.marks.committed(held, again=False)
        self.deliverer.gave_back()

    async def release_timers(self, timer_ids: Sequence[int]) -> None:
        """Give back this process's claims it will not run (it is stopping)."""
        async with self._sessions() as session, session.begin():
            await timers.release(session, timer_ids, self.owner)

    async def renew_timers(self, timer_ids: Sequence[int], lease: timedelta) -> set[int]:
        """Extend this process's claims of ``timer_ids`` to ``lease`` from now (their handlers still run); the ids
        it still holds (see :func:`bot.db.repos.timers.renew`)."""
        async with self._sessions() as session, session.begin():
            return await timers.renew(session, timer_ids, self.owner, self._clock() + lease)

    async def fire_timer(self, timer_id: int) -> bool:
        """Mark a timer fired. True for exactly one caller, even across processes; False afterwards."""
        async with self._sessions() as session, session.begin():
            return await timers.mark_fired(session, timer_id, self._clock())
