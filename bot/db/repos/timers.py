"""Timers: deadlines persisted so they survive a restart; each fires at most once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Timer


async def schedule(session: AsyncSession, game_id: int, kind: str, due_at: datetime, payload: dict[str, Any],
                   version: int) -> Timer:
    """Persist a timer; ``version`` is the game's version now (``version_at_schedule``)."""
    timer = Timer(game_id=game_id, kind=kind, due_at=due_at, payload=payload, version_at_schedule=version)
    session.add(timer)
    await session.flush()
    return timer


async def due(session: AsyncSession, now: datetime) -> Sequence[Timer]:
    """Unfired timers due at or before ``now``, earliest first."""
    stmt = select(Timer).where(Timer.fired_at.is_(None), Timer.due_at <= now).order_by(Timer.due_at, Timer.id)
    return (await session.scalars(stmt)).all()


async def pending_of(session: AsyncSession, game_id: int) -> Sequence[Timer]:
    """Unfired timers of one game, earliest first (to re-arm them after a restart)."""
    stmt = select(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None)).order_by(Timer.due_at)
    return (await session.scalars(stmt)).all()


async def mark_fired(session: AsyncSession, timer_id: int, now: datetime) -> bool:
    """Set ``fired_at`` if still unset. True only for the one caller that fired it (idempotent, race-safe)."""
    stmt = (update(Timer).where(Timer.id == timer_id, Timer.fired_at.is_(None)).values(fired_at=now)
            .execution_options(synchronize_session=False))
    return (await session.execute(stmt)).rowcount == 1  # type: ignore[attr-defined]


async def disarm_superseded(session: AsyncSession, game_id: int, kinds: Iterable[str], version: int,
                            now: datetime) -> None:
    """Mark fired the pending timers of ``kinds`` armed before the game reached ``version``."""
    stmt = (update(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None), Timer.kind.in_(list(kinds)),
                                Timer.version_at_schedule < version).values(fired_at=now)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def disarm_game(session: AsyncSession, game_id: int, now: datetime) -> None:
    """Mark every pending timer of a game fired (the game finished or was cancelled)."""
    stmt = (update(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None)).values(fired_at=now)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)
