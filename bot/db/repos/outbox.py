"""The outbox: steps committed but not yet shown (see :class:`bot.db.models.OutboxEntry`), and the per-game
delivery lease (:class:`bot.db.models.DeliveryLease`) that lets one process at a time show a game's steps."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, literal, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.db.models import DeliveryLease, OutboxEntry
from bot.db.repos import live


async def add(session: AsyncSession, game_id: int, version: int, kind: str, events: list[dict[str, Any]],
              timers: list[dict[str, Any]], at: datetime) -> OutboxEntry:
    """Record a step to deliver (call in the step's own transaction); ``kind``: ``start`` or ``act``."""
    entry = OutboxEntry(game_id=game_id, version=version, kind=kind, events=events, timers=timers, created_at=at,
                        attempts=0)
    session.add(entry)
    await session.flush()
    return entry


async def pending_of(session: AsyncSession, game_id: int, *, limit: int | None = None) -> Sequence[OutboxEntry]:
    """The undelivered steps of one game, in commit order (the first ``limit`` of them)."""
    stmt = (select(OutboxEntry).where(OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None))
            .order_by(OutboxEntry.id).limit(limit))
    return (await session.scalars(stmt)).all()


async def pending_games(session: AsyncSession, *, stranded_before: datetime | None = None) -> list[int]:
    """Games with an undelivered step, the one with the oldest such step first. ``stranded_before``: only steps
    committed before then that never failed (a failed step has its retry timer): those a process that died did
    not show (a game another process is showing now is left to it by its lease)."""
    stmt = select(OutboxEntry.game_id).where(OutboxEntry.delivered_at.is_(None))
    if stranded_before is not None:
        stmt = stmt.where(OutboxEntry.created_at <= stranded_before, OutboxEntry.attempts == 0)
    stmt = stmt.group_by(OutboxEntry.game_id).order_by(func.min(OutboxEntry.id))
    return list((await session.scalars(stmt)).all())


async def claim_game(session: AsyncSession, game_id: int, owner: str, now: datetime,
                     until: datetime) -> tuple[bool, str | None, int | None, live.Snapshot | None]:
    """Take (or renew) the delivery lease of ``game_id`` for ``owner`` until ``until`` when the game has a step to
    show: ``(True, shown, first, table)`` unless another owner holds a lease that runs past ``now`` or nothing is
    pending (``(False, None, None, None)``); ``shown`` is the digest of the public view the table last showed,
    ``first`` the id of the game's oldest undelivered step (the one just added, when no earlier one waits),
    ``table`` the game's living table row (:class:`bot.db.repos.live.Snapshot`, None before its table was first
    shown) as the lease holder finds it: only the holder writes its log. One
    ``INSERT ... SELECT ... WHERE EXISTS ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING`` statement, so two
    processes claiming at once never both win (commit at once, or with the step that made it pending)."""
    insert = postgresql.insert if session.bind.dialect.name == "postgresql" else sqlite.insert
    pending = (select(OutboxEntry.id).where(OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None))
               .exists())
    row = select(literal(game_id, DeliveryLease.game_id.type), literal(owner, DeliveryLease.owner.type),
                 literal(until, DeliveryLease.lease_until.type)).where(pending)
    stmt = insert(DeliveryLease).from_select(["game_id", "owner", "lease_until"], row)
    stmt = stmt.on_conflict_do_update(
        index_elements=[DeliveryLease.game_id], set_={"owner": owner, "lease_until": until},
        where=or_(DeliveryLease.lease_until <= now, DeliveryLease.owner == owner))
    first = (select(func.min(OutboxEntry.id))
             .where(OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None)).scalar_subquery())
    won = (await session.execute(stmt.returning(DeliveryLease.shown, first, *live.snapshot_columns(game_id)))).first()
    if won is None:
        return False, None, None, None
    return True, won[0], won[1], live.snapshot(game_id, won[2:])


async def lease_of(session: AsyncSession, game_id: int) -> DeliveryLease | None:
    """The delivery lease row of ``game_id`` (None: never delivered)."""
    return await session.get(DeliveryLease, game_id, populate_existing=True)


async def release_game(session: AsyncSession, game_id: int, owner: str, now: datetime,
                       shown: str | None = None) -> None:
    """End ``owner``'s delivery lease of ``game_id`` at ``now`` (nothing when it no longer holds it); ``shown``:
    record with it the digest of the public view the table shows now (as :func:`set_shown`, in the same
    statement)."""
    values: dict[str, Any] = {"lease_until": now} | ({"shown": shown} if shown is not None else {})
    await session.execute(update(DeliveryLease).where(DeliveryLease.game_id == game_id, DeliveryLease.owner == owner)
                          .values(**values).execution_options(synchronize_session=False))


async def release_owner(session: AsyncSession, owner: str, now: datetime) -> None:
    """End every delivery lease ``owner`` holds at ``now`` (it is stopping): others may take its games at once."""
    await session.execute(update(DeliveryLease).where(DeliveryLease.owner == owner, DeliveryLease.lease_until > now)
                          .values(lease_until=now).execution_options(synchronize_session=False))


async def set_shown(session: AsyncSession, game_id: int, owner: str, shown: str) -> None:
    """Record the digest of the public view the table of ``game_id`` shows now (by the lease's ``owner``)."""
    await session.execute(update(DeliveryLease).where(DeliveryLease.game_id == game_id, DeliveryLease.owner == owner)
                          .values(shown=shown).execution_options(synchronize_session=False))


async def mark_delivered(session: AsyncSession, entry_id: int, at: datetime) -> None:
    stmt = (update(OutboxEntry).where(OutboxEntry.id == entry_id).values(delivered_at=at)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def mark_delivered_and_look(session: AsyncSession, game_id: int, entry_id: int, at: datetime) -> bool:
    """Mark the step ``entry_id`` of ``game_id`` delivered and say whether a later step of the game still waits,
    in one ``UPDATE ... RETURNING`` statement. Run it after :func:`release_game` in the same transaction: on
    PostgreSQL that UPDATE waits for a claim of the lease in flight (its row lock) and this statement's snapshot
    is taken after, so a step another process committed while this one held the lease is seen here or that process
    wins the lease (SQLite runs one writer at a time)."""
    other = aliased(OutboxEntry)  # (not correlated with the row being updated)
    later = (select(other.id).where(other.game_id == game_id, other.delivered_at.is_(None), other.id > entry_id)
             .exists())
    stmt = (update(OutboxEntry).where(OutboxEntry.id == entry_id).values(delivered_at=at)
            .returning(later).execution_options(synchronize_session=False))
    return bool((await session.execute(stmt)).scalar())


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
