"""Delivery through faults (issue 22), on the injected clock: a Discord outage is waited out with backoff for as long
as the step is kept and the failed games are redrawn as soon as Discord answers again; a delivery lease is renewed
while its process works and taken over within 5 s once its process died (counted, issue 23)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import FakeClock
from bot.db.models import Game, OutboxEntry, Timer
from bot.db.repos import outbox
from bot.metrics import Metrics, sample
from bot.tables import Table, TableService, current_step
from bot.tables.leases import LEASE, DeliveryHooks
from bot.tables.outbox import MAX_ATTEMPTS, RETENTION, RETRY_CAP, RETRY_TIMER, retry_after
from games.core import Event
from tests.tables.conftest import NOW
from tests.tables.helpers import CHANNEL, pass_on, started

Sessions = async_sessionmaker[AsyncSession]


class Outage(ConnectionError):
    """What the test's Discord raises while it is down."""


class Discord:
    """A deliver callback that fails with :class:`Outage` while ``down``; records every step it showed."""

    def __init__(self) -> None:
        self.down = False
        self.tries: list[int] = []
        self.shown: list[tuple[int, int]] = []

    async def __call__(self, table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        self.tries.append(step.entry_id)
        if self.down:
            raise Outage("503 Service Unavailable")
        self.shown.append((table.id, step.entry_id))


def hooks(clock: FakeClock, metrics: Metrics | None = None) -> DeliveryHooks:
    """As the bot's: an :class:`Outage` is Discord not answering; takeovers counted in ``metrics``."""
    return DeliveryHooks(unavailable=lambda exc: isinstance(exc, Outage), pause_until=clock.pause_until,
                         taken_over=None if metrics is None else lambda: metrics.taken_over("delivery"))


async def retry_timers(sessions: Sessions) -> list[tuple[int, object]]:
    async with sessions() as session:
        rows = (await session.execute(select(Timer.id, Timer.due_at).where(Timer.kind == RETRY_TIMER,
                                                                          Timer.fired_at.is_(None))
                                      .order_by(Timer.due_at))).all()
    return [(row.id, row.due_at) for row in rows]


async def fire_retries(service: TableService, sessions: Sessions, clock: FakeClock) -> None:
    """Move the clock to the next retry timer and run it as the bot's handler does (a drain of its game)."""
    (timer_id, due), *_ = await retry_timers(sessions)
    clock.set(due)
    async with sessions() as session, session.begin():
        timer = await session.get(Timer, timer_id)
        assert timer is not None
        timer.fired_at = due
    await service.deliverer.drain(timer.game_id)


async def attempts(sessions: Sessions) -> list[tuple[int, int, bool]]:
    async with sessions() as session:
        rows = (await session.scalars(select(OutboxEntry).order_by(OutboxEntry.id))).all()
    return [(row.id, row.attempts, row.delivered_at is not None) for row in rows]


async def started_in_an_outage(sessions: Sessions) -> tuple[FakeClock, Discord, TableService, Table]:
    """A game started while Discord is down (its start's step failed once, its retry armed)."""
    clock = FakeClock(NOW)
    discord = Discord()
    service = TableService(sessions, deliver=discord, clock=clock.now, delivery=hooks(clock))
    discord.down = True
    return clock, discord, service, await started(service, 3)


def test_the_backoff_doubles_from_5_seconds_up_to_5_minutes() -> None:
    assert [retry_after(n).total_seconds() for n in range(1, 10)] == [5, 10, 20, 40, 80, 160, 300, 300, 300]
    assert retry_after(10_000) == RETRY_CAP


async def test_an_outage_is_waited_out_with_backoff_and_never_gives_the_step_up(sessions: Sessions) -> None:
    """Discord is down for 10 minutes: the start's step is tried at 0, 5, 15, 35, 75 s ... (not given up after 3
    tries 30 s apart as before), the game's next move waits behind it, and both are shown in order, once each,
    when Discord answers."""
    clock, discord, service, table = await started_in_an_outage(sessions)
    tried = [0.0]
    while clock.now() - NOW < timedelta(minutes=10):
        await fire_retries(service, sessions, clock)
        tried.append((clock.now() - NOW).total_seconds())
    assert tried == [0, 5, 15, 35, 75, 155, 315, 615]
    assert [(a, done) for _, a, done in await attempts(sessions)] == [(8, False)]  # 8 tries, still kept
    user, action = pass_on(table)
    await service.act(table.id, user, action)  # a move during the outage: its step waits behind the first
    assert discord.shown == [] and discord.tries == [1] * 9
    assert [(due - clock.now()).total_seconds() for _, due in await retry_timers(sessions)] == [300]  # one
    discord.down = False
    await fire_retries(service, sessions, clock)
    assert discord.shown == [(table.id, 1), (table.id, 2)]  # in order, nothing given up
    assert [done for _, _, done in await attempts(sessions)] == [True, True]


async def test_a_step_discord_never_answers_for_is_given_up_once_it_is_older_than_the_retention(
        sessions: Sessions) -> None:
    """The one limit of an outage's retries: a step older than :data:`RETENTION` is given up, and the game's later
    steps go on."""
    clock, discord, service, table = await started_in_an_outage(sessions)
    clock.set(NOW + RETENTION)
    discord.down = False
    user, action = pass_on(table)
    discord.down = True
    await service.act(table.id, user, action)  # step 1 is a week old: this failure gives it up; 2 fails, kept
    assert [(a, done) for _, a, done in await attempts(sessions)] == [(2, True), (1, False)]
    discord.down = False
    await fire_retries(service, sessions, clock)
    assert discord.shown == [(table.id, 2)]


async def test_a_refused_step_is_given_up_after_its_tries_even_when_discord_answers(sessions: Sessions) -> None:
    """A failure that is not an outage (Discord refused the request, or it failed to render) would fail again: it
    is given up after :data:`MAX_ATTEMPTS` tries, 5 s then 10 s apart, so the game's later steps are not blocked."""
    clock = FakeClock(NOW)
    tries: list[int] = []

    async def refuses(table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        tries.append(step.entry_id)
        raise ValueError("400 Bad Request: Invalid Form Body")

    service = TableService(sessions, deliver=refuses, clock=clock.now, delivery=hooks(clock))
    await started(service, 3)
    for _ in range(MAX_ATTEMPTS - 1):
        await fire_retries(service, sessions, clock)
    assert (clock.now() - NOW).total_seconds() == 15 and tries == [1] * MAX_ATTEMPTS
    assert await attempts(sessions) == [(1, MAX_ATTEMPTS, True)] and await retry_timers(sessions) == []


async def test_discord_answering_again_redraws_every_game_whose_step_failed(sessions: Sessions) -> None:
    """Two games' steps failed in an outage and a third game is shown: ``redraw_failed`` (Discord answered again)
    shows the two failed games at once, long before their retry timers are due, and touches nothing else."""
    clock = FakeClock(NOW)
    discord = Discord()
    service = TableService(sessions, deliver=discord, clock=clock.now, delivery=hooks(clock))
    fine = await started(service, 3, channel=CHANNEL + 2)
    discord.down = True
    failed = [await started(service, 3, channel=CHANNEL + n) for n in (0, 1)]
    assert len(await retry_timers(sessions)) == 2
    discord.down = False
    shown = len(discord.shown)
    assert await service.deliverer.redraw_failed() == 2
    assert sorted(game for game, _ in discord.shown[shown:]) == sorted(t.id for t in failed)
    assert await service.deliverer.redraw_failed() == 0
    assert fine.id not in [game for game, _ in discord.shown[shown:]]


async def until_lease(sessions: Sessions, game_id: int, until: object) -> None:
    """Wait (the heartbeat writes in a task of its own) until the game's lease runs until ``until``."""
    for _ in range(500):
        async with sessions() as session:
            lease = await outbox.lease_of(session, game_id)
        if lease is not None and lease.lease_until == until:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the lease never ran until {until}")


async def test_a_slow_delivery_renews_its_lease_so_nobody_takes_the_game_meanwhile(sessions: Sessions,
                                                                                  other: Sessions) -> None:
    """Process A's delivery is held for 3 leases (a slow Discord): its heartbeat renews the lease every third of it,
    so process B's sweep never takes the game; A shows it once it is let go."""
    clock = FakeClock(NOW)
    gate, entered = asyncio.Event(), asyncio.Event()
    shown: list[str] = []

    async def slow(table: Table, events: list[Event]) -> None:
        entered.set()
        await gate.wait()
        shown.append("a")

    async def other_shows(table: Table, events: list[Event]) -> None:
        shown.append("b")

    a = TableService(sessions, deliver=slow, clock=clock.now, delivery=hooks(clock))
    b = TableService(other, deliver=other_shows, clock=clock.now, delivery=hooks(clock))
    table = await started(TableService(sessions, clock=clock.now), 3)  # committed, shown by nobody yet
    drain = asyncio.create_task(a.deliverer.drain(table.id))
    await entered.wait()
    for _ in range(9):
        clock.advance(LEASE / 3)
        await until_lease(sessions, table.id, clock.now() + LEASE)
        assert await b.deliverer.sweep() == 0
    gate.set()
    assert await drain == 1 and shown == ["a"]


async def test_a_dead_process_game_is_shown_by_the_survivor_within_5_seconds_and_counted(sessions: Sessions,
                                                                                        other: Sessions) -> None:
    """Process A died holding a game's delivery lease (renewed a moment before). B's timer moves in the game: its
    step cannot be shown while A's lease holds, so B looks again when it runs out (its loop is woken then) and
    shows both steps, in order, within :data:`LEASE` (4 s) of A's last renewal, not at the next sweep or after
    30 s; the takeover is counted once. A lease given back (a process that stopped) is taken without a count."""
    clock = FakeClock(NOW)
    dead = TableService(sessions, clock=clock.now)  # commits, never shows
    table = await started(dead, 3)
    async with sessions() as session, session.begin():  # it had taken the game's lease and renewed it, then died
        await session.execute(update(Game).where(Game.id == table.id).values(
            lease_owner=dead.owner, lease_until=NOW + LEASE, lease_given_back=False))
    discord, metrics, woken = Discord(), Metrics(), []
    alive = TableService(other, deliver=discord, clock=clock.now, delivery=hooks(clock, metrics),
                         on_timers=woken.append)
    clock.advance(seconds=1)
    user, action = pass_on(table)
    await alive.act(table.id, user, action)  # e.g. the turn timeout B's timer loop fired on time
    assert discord.shown == [] and alive.deliverer.next_watch() == NOW + LEASE and woken[-1] == NOW + LEASE
    assert await alive.deliverer.take_over_due() == 0  # not yet: A's lease holds
    clock.set(NOW + LEASE)
    assert await alive.deliverer.take_over_due() == 2
    assert [entry for _, entry in discord.shown] == [1, 2] and clock.now() - NOW <= timedelta(seconds=5)
    assert sample(metrics, "coroner_lease_takeovers_total", kind="delivery") == 1
    assert alive.deliverer.next_watch() is None

    user, action = pass_on(await alive.load(table.id))
    async with sessions() as session, session.begin():  # now a process that stops gives the lease back
        row = await session.get(Game, table.id)
        assert row is not None
        row.lease_owner, row.lease_until, row.lease_given_back = dead.owner, clock.now(), True
    await alive.act(table.id, user, action)
    assert [entry for _, entry in discord.shown] == [1, 2, 3]
    assert sample(metrics, "coroner_lease_takeovers_total", kind="delivery") == 1  # given back: not counted
