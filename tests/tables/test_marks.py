"""Held "delivered" marks (:mod:`bot.tables.marks`, issue 20): a delivered step's mark, what its delivery wrote and
the lease's giving back wait for the game's next move's transaction (no commit of their own), else for
:data:`~bot.tables.marks.FLUSH_AFTER` on the injected clock, and always for a graceful stop; a transaction that
took them and failed holds them again, so they are written later."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.clock import FakeClock
from bot.db.models import OutboxEntry
from bot.db.repos import outbox
from bot.tables import TableService
from bot.tables.leases import DeliveryHooks
from bot.tables.marks import FLUSH_AFTER
from games.core import IllegalAction
from tests.support.sql_count import SqlCount
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import pass_on, started

Sessions = async_sessionmaker[AsyncSession]


def holding(sessions: Sessions, clock: FakeClock, outbox_: Outbox) -> TableService:
    """A service that holds its delivered steps' marks (as the bot's), on ``clock``."""
    return TableService(sessions, deliver=outbox_, clock=clock.now,
                        delivery=DeliveryHooks(pause_until=clock.pause_until), hold_marks=True)


async def delivered(sessions: Sessions, game_id: int) -> dict[int, bool]:
    """Per version of ``game_id``'s outbox rows, whether it is marked delivered."""
    async with sessions() as session:
        rows = (await session.scalars(select(OutboxEntry).where(OutboxEntry.game_id == game_id)
                                      .order_by(OutboxEntry.version))).all()
    return {row.version: row.delivered_at is not None for row in rows}


async def lease_given_back(sessions: Sessions, game_id: int, clock: FakeClock) -> bool:
    async with sessions() as session:
        holder = await outbox.lease_of(session, game_id)
    return holder is None or holder.lease_until <= clock.now()


def flusher() -> asyncio.Task[None] | None:
    """The marks' delayed flush task (named ``coroner-marks``) running now, if any."""
    return next((t for t in asyncio.all_tasks() if t.get_name() == "coroner-marks" and not t.done()), None)


async def settle() -> None:
    """Let every ready task run (no time passes)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def test_a_held_mark_is_written_in_the_next_move_s_commit(sessions: Sessions, engine: AsyncEngine) -> None:
    """The start's step is shown, its mark held (not written); the first move's one commit writes it."""
    clock, shown = FakeClock(NOW), Outbox()
    service = holding(sessions, clock, shown)
    table = await started(service, 3)
    assert len(shown.sent) == 1
    assert service.deliverer.marks.held(table.id) == table.version
    assert await delivered(sessions, table.id) == {table.version: False}
    count = SqlCount(engine)
    user, action = pass_on(table)
    after = (await service.act(table.id, user, action)).table
    assert len(shown.sent) == 2  # the move is shown too
    assert count.commits == 1  # the move's own: the start's mark rode in it, the move's is held in turn
    assert count.kinds["UPDATE outbox"] == 1  # (the mark: one statement)
    assert await delivered(sessions, table.id) == {table.version: True, after.version: False}
    assert service.deliverer.marks.held(table.id) == after.version
    await service.hand_back()


async def test_a_held_mark_with_no_next_move_is_written_once_flush_after_passed(
        sessions: Sessions, engine: AsyncEngine) -> None:
    """No move comes: the mark is not written before FLUSH_AFTER on the injected clock, then in one commit, with
    the lease given back."""
    clock, shown = FakeClock(NOW), Outbox()
    service = holding(sessions, clock, shown)
    table = await started(service, 3)
    task = flusher()
    assert task is not None
    count = SqlCount(engine)
    clock.advance(FLUSH_AFTER - timedelta(milliseconds=1))
    await settle()
    assert not task.done() and count.commits == 0
    assert await delivered(sessions, table.id) == {table.version: False}
    assert not await lease_given_back(sessions, table.id, clock)
    clock.advance(milliseconds=1)
    await asyncio.wait_for(task, timeout=10)
    assert count.commits == 1
    assert await delivered(sessions, table.id) == {table.version: True}
    assert await lease_given_back(sessions, table.id, clock)
    assert service.deliverer.marks.held(table.id) is None
    assert len(shown.sent) == 1  # written, not shown again


async def test_a_graceful_stop_writes_the_held_marks(sessions: Sessions) -> None:
    """The stop's hand-back writes every held mark (two games) and gives their leases back, long before FLUSH_AFTER."""
    clock, shown = FakeClock(NOW), Outbox()
    service = holding(sessions, clock, shown)
    first = await started(service, 3)
    second = await started(service, 3, channel=21)
    assert service.deliverer.marks.held(first.id) == first.version
    assert service.deliverer.marks.held(second.id) == second.version
    await service.hand_back()
    assert flusher() is None
    for table in (first, second):
        assert await delivered(sessions, table.id) == {table.version: True}
        assert await lease_given_back(sessions, table.id, clock)
        assert service.deliverer.marks.held(table.id) is None
    assert not service.deliverer.marks.open
    user, action = pass_on(first)
    await service.act(first.id, user, action)  # after the stop began: its mark is written at once
    assert await delivered(sessions, first.id) == {first.version: True, first.version + 1: True}


async def test_a_failed_transaction_holds_the_mark_again_so_it_is_written_later(sessions: Sessions) -> None:
    """A move refused inside its transaction (after the held mark was written in it) rolls the mark back with it:
    the mark is held again (:meth:`bot.tables.marks.Marks.restore`), then written by the flush, and the next legal
    move goes on."""
    clock, shown = FakeClock(NOW), Outbox()
    service = holding(sessions, clock, shown)
    table = await started(service, 3)
    user, action = pass_on(table)
    with pytest.raises(IllegalAction):
        await service.act(table.id, user + 1, action)  # not the holder's turn: refused in the transaction
    assert service.deliverer.marks.held(table.id) == table.version
    assert await delivered(sessions, table.id) == {table.version: False}
    task = flusher()
    assert task is not None
    clock.advance(FLUSH_AFTER)
    await asyncio.wait_for(task, timeout=10)
    assert await delivered(sessions, table.id) == {table.version: True}
    assert service.deliverer.marks.held(table.id) is None
    after = (await service.act(table.id, user, action)).table
    assert after.version == table.version + 1
    assert len(shown.sent) == 2
    await service.hand_back()
