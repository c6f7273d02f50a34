"""A game's private threads (:class:`bot.db.models.GameThread`): one row per game and kind, written inside the
caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameThread


async def of_game(session: AsyncSession, game_id: int) -> list[GameThread]:
    """Every thread of ``game_id`` (archived ones included), oldest first."""
    stmt = select(GameThread).where(GameThread.game_id == game_id).order_by(GameThread.id)
    return list(await session.scalars(stmt))


async def add(session: AsyncSession, game_id: int, kind: str, thread_id: int, at: datetime) -> GameThread:
    """Record the new thread ``thread_id`` as the game's ``kind``, with no member yet. Raises ``IntegrityError``
    when the game already has one of that kind (another process made it first)."""
    row = GameThread(game_id=game_id, kind=kind, thread_id=thread_id, members=[], watchers=[], created_at=at)
    session.add(row)
    await session.flush()
    return row


async def set_members(session: AsyncSession, row_id: int, members: Sequence[int], watchers: Sequence[int]) -> None:
    await session.execute(update(GameThread).where(GameThread.id == row_id)
                          .values(members=sorted(members), watchers=sorted(watchers)))


async def archived(session: AsyncSession, row_id: int, at: datetime) -> None:
    await session.execute(update(GameThread).where(GameThread.id == row_id).values(archived_at=at))


async def forgotten(session: AsyncSession, row_id: int) -> None:
    """The game no longer has this thread (the bot deleted it): ``thread_id`` 0, as for one it never had."""
    await session.execute(update(GameThread).where(GameThread.id == row_id).values(thread_id=0))
