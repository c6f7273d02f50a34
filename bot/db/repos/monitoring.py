"""What ``/metrics`` reads from the database at each scrape (:mod:`bot.metrics`): three small reads, each by the
server of the game it concerns, so a process counts its own servers' share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, OutboxEntry, Timer


@dataclass(frozen=True)
class Snapshot:
    """``games``: ``(guild id, status)`` of every lobby and active game; ``pending_steps``: ``(guild id, commit
    time)`` of every step not shown yet; ``overdue_timers``: ``(guild id, due time)`` of every timer due at the
    snapshot's time and not fired."""

    games: list[tuple[int, str]]
    pending_steps: list[tuple[int, datetime]]
    overdue_timers: list[tuple[int, datetime]]


async def snapshot(session: AsyncSession, now: datetime) -> Snapshot:
    """The :class:`Snapshot` as of ``now``."""
    games = (await session.execute(select(Game.guild_id, Game.status)
                                   .where(Game.status.in_(("lobby", "active"))))).all()
    steps = (await session.execute(select(Game.guild_id, OutboxEntry.created_at)
                                   .join(Game, Game.id == OutboxEntry.game_id)
                                   .where(OutboxEntry.delivered_at.is_(None)))).all()
    timers = (await session.execute(select(Game.guild_id, Timer.due_at).join(Game, Game.id == Timer.game_id)
                                    .where(Timer.fired_at.is_(None), Timer.due_at <= now))).all()
    return Snapshot([(g, s) for g, s in games], [(g, c) for g, c in steps], [(g, d) for g, d in timers])
