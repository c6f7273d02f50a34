"""The outbox: a committed step's events, version and timers are written with it and shown after, in order,
exactly once, even across a crash between commit and delivery."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxEntry, Timer
from bot.tables import Table, TableError, TableService, TimerPlan, current_step
from bot.tables.outbox import MAX_ATTEMPTS, PRUNE_EVERY, RETENTION, RETRY_FIRST, RETRY_TIMER
from games.core import Event
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import pass_on, started

Sessions = async_sessionmaker[AsyncSession]


async def turn_timers(table: Table) -> list[TimerPlan]:
    return [TimerPlan("turn_timeout", NOW + timedelta(minutes=5), {"version": table.version})]


async def entries(sessions: Sessions) -> list[OutboxEntry]:
    async with sessions() as session:
        return list((await session.scalars(select(OutboxEntry).order_by(OutboxEntry.id))).all())


async def test_a_step_is_recorded_with_its_version_events_and_timers(sessions: Sessions) -> None:
    """Start and each act write one outbox row (version, events, timers) with the step; delivered rows are marked."""
    outbox = Outbox()
    service = TableService(sessions, deliver=outbox, plan=turn_timers, clock=lambda: NOW)
    table = await started(service, 3)
    user, action = pass_on(table)
    await service.act(table.id, user, action)
    rows = await entries(sessions)
    assert [(r.version, r.delivered_at) for r in rows] == [(table.version, NOW), (table.version + 1, NOW)]
    assert rows[1].events[0]["key"] == "potato.passed"
    assert rows[1].timers == [{"kind": "turn_timeout", "due_at": (NOW + timedelta(minutes=5)).isoformat()}]
    async with sessions() as session:
        stored = (await session.scalars(select(Timer).order_by(Timer.id))).all()
    assert [(t.kind, t.version_at_schedule, t.payload) for t in stored] == [
        ("turn_timeout", v, {"version": v}) for v in (table.version, table.version + 1)]


async def test_a_crash_between_commit_and_delivery_is_caught_up_once_in_order(sessions: Sessions) -> None:
    """Steps committed by a process that died before showing them are shown by the next one, in order, once."""
    crashed = TableService(sessions, plan=turn_timers, clock=lambda: NOW)  # commits, never delivers
    table = await started(crashed, 3)
    user, action = pass_on(table)
    await crashed.act(table.id, user, action)
    outbox = Outbox()
    restarted = TableService(sessions, deliver=outbox, clock=lambda: NOW)
    assert await restarted.deliverer.catch_up() == 2
    assert [version for _, version, _ in outbox.sent] == [table.version + 1] * 2  # rendered from the latest
    assert outbox.keys[:4] == ["potato.dealt"] * 3 + ["potato.start"] and outbox.keys[-2] == "potato.passed"
    assert await restarted.deliverer.catch_up() == 0
    assert len(outbox.sent) == 2


async def test_a_step_discord_refuses_is_retried_with_backoff_then_given_up_so_later_ones_go_on(
        sessions: Sessions) -> None:
    """A step whose delivery fails (not for want of an answer from Discord) is retried before any later step, 5 s
    then 10 s later, and given up after a few attempts: the game's later steps are shown."""
    calls: list[int] = []

    async def flaky(table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        calls.append(step.entry_id)
        if step.entry_id == 1:
            raise RuntimeError("400 Bad Request")

    service = TableService(sessions, deliver=flaky, clock=lambda: NOW)
    table = await started(service, 3)
    for _ in range(MAX_ATTEMPTS - 1):
        user, action = pass_on(table)
        table = (await service.act(table.id, user, action)).table
    assert calls == [1] * MAX_ATTEMPTS + [2, 3]  # 2 waited for 1 to be given up
    async with sessions() as session:
        retries = (await session.scalars(select(Timer.due_at).where(Timer.kind == RETRY_TIMER)
                                         .order_by(Timer.due_at))).all()
    assert retries == [NOW + RETRY_FIRST, NOW + 2 * RETRY_FIRST]  # a failed step is tried again later
    assert [r.delivered_at is None for r in await entries(sessions)] == [False] * 3  # 1 given up, 2 and 3 shown


async def test_the_nonce_is_the_same_on_every_delivery_of_a_step(sessions: Sessions) -> None:
    """A step delivered twice asks for the same nonces in the same order; another step gets others."""
    seen: list[list[str]] = []

    async def record(table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        seen.append([step.nonce("s"), step.nonce("d1"), step.nonce("d1")])

    crashed = TableService(sessions, clock=lambda: NOW)
    await started(crashed, 3)
    first = TableService(sessions, deliver=record, clock=lambda: NOW)
    await first.deliverer.catch_up()
    async with sessions() as session, session.begin():  # as if the crash came after sending, before marking
        (row,) = (await session.scalars(select(OutboxEntry))).all()
        row.delivered_at = None
    await first.deliverer.catch_up()
    assert seen[0] == seen[1] == ["o1.s.0", "o1.d1.0", "o1.d1.1"]
    assert all(len(n) <= 25 for n in seen[0])


async def test_the_timeout_announcement_is_committed_with_its_move(service: TableService, outbox: Outbox) -> None:
    """A timed-out move's announcement is delivered with it; when the player's move won, neither happens."""
    table = await started(service, 3)
    holder = table.state.holder
    user, action = pass_on(table)
    await service.act(table.id, user, action)  # the player's late click lands first
    with pytest.raises(TableError, match="table.stale"):
        await service.act(table.id, None, action, seat=holder, expected_version=table.version, timed_out=True)
    assert "turn.auto" not in outbox.keys
    table = await service.load(table.id)
    holder = table.state.holder
    await service.act(table.id, None, pass_on(table)[1], seat=holder, expected_version=table.version,
                      timed_out=True)
    assert outbox.keys[-3:-1] == ["turn.auto", "potato.passed"]




async def test_a_deliver_that_acts_on_its_own_game_does_not_wait_for_itself(sessions: Sessions) -> None:
    """A step whose delivery makes the next move (an auto-move, say) is followed by that move's delivery."""
    shown: list[int] = []
    service: TableService

    async def auto(table: Table, events: list[Event]) -> None:
        shown.append(table.version)
        if table.status == "active" and len(shown) < 3:
            user, action = pass_on(table)
            await service.act(table.id, user, action)

    service = TableService(sessions, deliver=auto, clock=lambda: NOW)
    table = await started(service, 3)
    assert (await service.load(table.id)).version == table.version + 2
    assert len(shown) == 3 and [r.delivered_at is not None for r in await entries(sessions)] == [True] * 3


async def test_a_step_this_process_wrote_is_shown_as_never_tried_by_whichever_drain_shows_it(
        sessions: Sessions) -> None:
    """A step written by this process, whose delivery nobody began, creates its messages without looking for them
    first, also when a drain other than the one it was handed to shows it (here: the drain of the step whose
    delivery made this move). Looking would take an older message of the same words for it (found by the Cereal
    Killer benchmark: a second game's deal DMs were never sent)."""
    maybe_sent: list[int | None] = []
    service: TableService

    async def auto(table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        maybe_sent.append(step.created(step.nonce("s")))
        if table.status == "active" and len(maybe_sent) < 3:
            user, action = pass_on(table)
            await service.act(table.id, user, action)

    service = TableService(sessions, deliver=auto, clock=lambda: NOW)
    await started(service, 3)
    assert maybe_sent == [None, None, None]


async def test_delivered_steps_are_pruned_after_the_retention_and_undelivered_ones_kept(sessions: Sessions) -> None:
    """At start (``catch_up``) and then at most hourly (the timer loop's ``sweep``), steps delivered more than
    RETENTION ago are deleted; younger and undelivered steps stay."""
    now = [NOW]
    service = TableService(sessions, deliver=Outbox(), clock=lambda: now[0])
    table = await started(service, 3)  # step 1, delivered at NOW
    now[0] = NOW + RETENTION / 2
    user, action = pass_on(table)
    table = (await service.act(table.id, user, action)).table  # step 2, delivered at NOW + RETENTION / 2
    crashed = TableService(sessions, clock=lambda: now[0])  # commits step 3, never delivers it
    user, action = pass_on(table)
    await crashed.act(table.id, user, action)
    now[0] = NOW + RETENTION + timedelta(seconds=1)
    assert await crashed.deliverer.prune() == 1
    assert [(r.id, r.delivered_at is None) for r in await entries(sessions)] == [(2, False), (3, True)]
    now[0] = NOW + RETENTION * 2
    restarted = TableService(sessions, deliver=Outbox(), clock=lambda: now[0])
    assert await restarted.deliverer.catch_up() == 1  # step 3 shown, then step 2 pruned
    assert [r.id for r in await entries(sessions)] == [3]
    shown_at = now[0]
    now[0] = pruned_at = shown_at + RETENTION + timedelta(seconds=1)
    await restarted.deliverer.sweep()  # an hour after the start's prune: step 3 goes
    assert await entries(sessions) == []
    now[0] = shown_at
    user, action = pass_on(await restarted.load(table.id))
    await restarted.act(table.id, user, action)  # step 4, delivered at shown_at (past retention below)
    now[0] = pruned_at + PRUNE_EVERY / 2
    await restarted.deliverer.sweep()  # within the hour of the last prune: nothing pruned
    assert [r.delivered_at for r in await entries(sessions)] == [shown_at]
    now[0] = pruned_at + PRUNE_EVERY
    await restarted.deliverer.sweep()
    assert await entries(sessions) == []


async def test_a_step_disarms_the_superseded_timers_of_older_versions(sessions: Sessions) -> None:
    """Timers of a ``superseded`` kind armed at an older version are disarmed by the next step (they would only
    find the game moved on); the step's own and other kinds stay armed."""
    service = TableService(sessions, plan=turn_timers, clock=lambda: NOW, superseded=frozenset({"turn_timeout"}))
    table = await started(service, 3)
    await service.schedule_timer(table.id, "day_end", NOW + timedelta(days=1))
    user, action = pass_on(table)
    await service.act(table.id, user, action)
    pending = await service.pending_timers(table.id)
    assert sorted((t.kind, t.payload.get("version")) for t in pending) == [
        ("day_end", None), ("turn_timeout", table.version + 1)]
