"""The outbox: steps committed but not yet shown (see :class:`bot.db.models.OutboxEntry`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OutboxEntry


async def add(session: AsyncSession, game_id: int, version: int, kind: str, events: list[dict[str, Any]],
              timers: list[dict[str, Any]], at: datetime) -> OutboxEntry:
    """Record a step to deliver (call in the step's own transaction); ``kind``: ``start`` or ``act``."""
    entry = OutboxEntry(game_id=game_id, version=version, kind=kind, events=events, timers=timers, created_at=at,
                        attempts=0)
    session.add(entry)
    await session.flush()
    return entry


async def pending_of(session: AsyncSession, game_id: int) -> Sequence[OutboxEntry]:
    """The undelivered steps of one game, in commit order."""
    stmt = (select(OutboxEntry).where(OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None))
            .order_by(OutboxEntry.id))
    return (await session.scalars(stmt)).all()


async def pending_games(session: AsyncSession) -> list[int]:
    """Games with an undelivered step, the one with the oldest such step first."""
    stmt = (select(OutboxEntry.game_id).where(OutboxEntry.delivered_at.is_(None))
            .group_by(OutboxEntry.game_id).order_by(func.min(OutboxEntry.id)))
    return list((await session.scalars(stmt)).all())


async def mark_delivered(session: AsyncSession, entry_id: int, at: datetime) -> None:
    stmt = (update(OutboxEntry).where(OutboxEntry.id == entry_id).values(delivered_at=at)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def mark_failed(session: AsyncSession, entry_id: int) -> int:
    """Count a failed delivery; returns the attempts so far."""
    await session.execute(update(OutboxEntry).where(OutboxEntry.id == entry_id)
                          .values(attempts=OutboxEntry.attempts + 1).execution_options(synchronize_session=False))
    return int(await session.scalar(select(OutboxEntry.attempts).where(OutboxEntry.id == entry_id)) or 0)


async def prune(session: AsyncSession, before: datetime) -> int:
    """Delete the steps delivered before ``before`` (undelivered ones always stay); returns how many went."""
    result = await session.execute(delete(OutboxEntry).where(OutboxEntry.delivered_at.is_not(None),
                                                             OutboxEntry.delivered_at < before)
                                   .execution_options(synchronize_session=False))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
