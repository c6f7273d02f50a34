"""Many processes on one PostgreSQL database: two table services, timer runners and deliverers (each on its own
engine, as two bot processes would be) over one private database. Timers fire once, a dead process's claims and
leases are taken over, one of two simultaneous moves is applied, a game's steps are shown once and in order."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from unittest.mock import ANY

import discord
import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import FakeClock
from bot.db.models import Game, GameAction, OutboxEntry
from bot.delivery import Delivery
from bot.metrics import Metrics, sample
from bot.tables import Table, TableError, TableService, current_step
from bot.tables.outbox import LEASE as DELIVERY_LEASE
from bot.timers import LEASE, TimerRunner
from games.core import Event
from tests.support import potato
from tests.tables.conftest import NOW
from tests.tables.helpers import CHANNEL, pass_on, started

Sessions = async_sessionmaker[AsyncSession]
pytestmark = pytest.mark.parametrize("db_url", [pytest.param("postgres", marks=pytest.mark.postgres)],
                                     indirect=True)


def runner(service: TableService, clock: FakeClock) -> TimerRunner:
    return TimerRunner(SimpleNamespace(tables=service, clock=clock, metrics=Metrics()))  # type: ignore[arg-type]


async def count(sessions: Sessions, model: Any, **where: Any) -> int:
    async with sessions() as session:
        stmt = select(func.count()).select_from(model).filter_by(**where)
        return int(await session.scalar(stmt) or 0)


async def test_two_runners_fire_each_due_timer_once(sessions: Sessions, other: Sessions) -> None:
    """Two processes running their timer loops at once run each of 45 due timers' handlers exactly once."""
    clock = FakeClock(NOW)
    a, b = TableService(sessions, clock=clock.now), TableService(other, clock=clock.now)
    table = await started(a, 3)
    ids = [(await a.schedule_timer(table.id, "tick", NOW - timedelta(seconds=n), {})).id for n in range(45)]
    ran: list[tuple[str, int]] = []

    async def tick(timer: Any) -> None:
        await asyncio.sleep(0)  # let the other process claim meanwhile
        ran.append((timer.claimed_by, timer.id))

    runners = [runner(a, clock), runner(b, clock)]
    for r, name in zip(runners, "ab", strict=True):
        r.on("tick", lambda timer, name=name: tick(SimpleNamespace(claimed_by=name, id=timer.id)))

    async def loop(r: TimerRunner) -> int:  # each process's timer loop, until no timer is left
        fired = 0
        while await a.next_timer_due() is not None:
            fired += await r.run_due()
            await asyncio.sleep(0)
        return fired

    fired = await asyncio.gather(*(loop(r) for r in runners))
    assert sorted(timer_id for _, timer_id in ran) == sorted(ids)  # each once
    assert sum(fired) == 45 and {name for name, _ in ran} == {"a", "b"}  # both took a share
    assert await a.next_timer_due() is None


async def test_a_dead_process_timers_are_taken_over_when_the_lease_runs_out(sessions: Sessions,
                                                                          other: Sessions) -> None:
    """Timers claimed by a process that died are left alone while its lease holds, then run by another, once."""
    clock = FakeClock(NOW)
    dead, alive = TableService(sessions, clock=clock.now), TableService(other, clock=clock.now)
    table = await started(dead, 3)
    timer = await dead.schedule_timer(table.id, "tick", NOW, {})
    assert [t.id for t in await dead.claim_timers(NOW, LEASE)] == [timer.id]  # ...and the process dies here
    ran: list[int] = []
    survivor = runner(alive, clock)
    survivor.on("tick", lambda t: asyncio.sleep(0, ran.append(t.id)))
    assert await survivor.run_due() == 0 and ran == []
    assert await alive.next_timer_due() == NOW + LEASE  # its loop wakes when the lease runs out
    clock.advance(LEASE)
    assert await survivor.run_due() == 1 and ran == [timer.id]
    clock.advance(LEASE)
    assert await survivor.run_due() == 0 and ran == [timer.id]
    metrics = survivor.bot.metrics  # counted: one takeover, started one lease after it was due
    assert sample(metrics, "coroner_lease_takeovers_total", kind="tick") == 1
    assert sample(metrics, "coroner_timer_lateness_seconds_count") == 1
    assert sample(metrics, "coroner_timer_lateness_seconds_sum") == LEASE.total_seconds()


async def test_a_stopping_runner_finishes_its_handler_and_gives_the_rest_back(sessions: Sessions,
                                                                             other: Sessions) -> None:
    """A graceful stop while a batch runs: the handler running finishes and its timer is fired; the claims not run
    yet are given back at once, so another process runs them without waiting for the lease."""
    clock = FakeClock(NOW)
    stopping, alive = TableService(sessions, clock=clock.now), TableService(other, clock=clock.now)
    table = await started(stopping, 3)
    first = await stopping.schedule_timer(table.id, "tick", NOW - timedelta(seconds=2), {})
    rest = [await stopping.schedule_timer(table.id, "tick", NOW - timedelta(seconds=1), {}) for _ in range(2)]
    entered, gate = asyncio.Event(), asyncio.Event()
    ran: list[tuple[str, int]] = []

    async def slow_tick(timer: Any) -> None:
        entered.set()
        await gate.wait()
        ran.append(("stopping", timer.id))

    leaving = runner(stopping, clock)
    leaving.on("tick", slow_tick)
    leaving._task = asyncio.create_task(leaving.run_due())  # its loop, in the middle of a batch
    await entered.wait()
    stop = asyncio.create_task(leaving.stop(grace=30))
    await asyncio.sleep(0)
    gate.set()
    await stop
    assert ran == [("stopping", first.id)]
    survivor = runner(alive, clock)
    survivor.on("tick", lambda t: asyncio.sleep(0, ran.append(("alive", t.id))))
    assert await survivor.run_due() == 2  # at once: the clock has not moved
    assert ran == [("stopping", first.id), ("alive", rest[0].id), ("alive", rest[1].id)]
    assert sample(survivor.bot.metrics, "coroner_lease_takeovers_total", kind="tick") == 0  # given, not taken


async def test_a_handler_running_past_the_lease_keeps_its_timer(sessions: Sessions, other: Sessions) -> None:
    """A handler still running two leases after its claim (a slow Discord): its process renews the claim every
    third of the lease, so another process never runs the timer too; once the handler returns the timer is fired
    and nobody holds it."""
    clock = FakeClock(NOW)
    slow, alive = TableService(sessions, clock=clock.now), TableService(other, clock=clock.now)
    table = await started(slow, 3)
    timer = await slow.schedule_timer(table.id, "tick", NOW, {})
    ran: list[str] = []
    entered, gate, renewed = asyncio.Event(), asyncio.Event(), asyncio.Queue[set[int]]()
    renew = slow.renew_timers

    async def renew_and_tell(timer_ids: Any, lease: timedelta) -> set[int]:
        kept = await renew(timer_ids, lease)
        renewed.put_nowait(kept)
        return kept

    slow.renew_timers = renew_and_tell  # type: ignore[method-assign]

    async def hang(_: Any) -> None:
        entered.set()
        await gate.wait()
        ran.append("slow")

    first, second = runner(slow, clock), runner(alive, clock)
    first.on("tick", hang)
    second.on("tick", lambda _: asyncio.sleep(0, ran.append("alive")))
    running = asyncio.create_task(first.run_due())
    await entered.wait()
    for beat in range(1, 7):  # two leases, a beat at a time
        clock.advance(LEASE / 3)
        assert await asyncio.wait_for(renewed.get(), 5) == {timer.id}  # fails, not hangs, without a beat
        assert await alive.next_timer_due() == NOW + beat * LEASE / 3 + LEASE
        assert await second.run_due() == 0
    gate.set()
    assert await running == 1 and ran == ["slow"]
    clock.advance(LEASE * 2)
    assert await second.run_due() == 0 and ran == ["slow"] and await alive.next_timer_due() is None


async def test_a_timeout_run_again_after_a_takeover_is_refused_as_stale(sessions: Sessions,
                                                                        other: Sessions) -> None:
    """A process that made the timeout's move but died before marking the timer fired: the process taking the
    timer over runs the handler again, the version check refuses it, and the move and its announcement count
    once."""
    clock = FakeClock(NOW)
    dead, alive = TableService(sessions, clock=clock.now), TableService(other, clock=clock.now)
    table = await started(dead, 3)
    await dead.schedule_timer(table.id, "turn_timeout", NOW, {"version": table.version})
    outcomes: list[str] = []

    async def expire(timer: Any, service: TableService) -> None:
        seat, action = table.engine.timeout_action(table.state)
        try:
            await service.act(timer.game_id, None, table.engine.dump_action(action), seat=seat,
                              expected_version=timer.payload["version"], timed_out=True)
        except TableError as exc:
            outcomes.append(exc.code)
        else:
            outcomes.append("applied")

    (claimed,) = await dead.claim_timers(NOW, LEASE)
    await expire(claimed, dead)  # the move is committed; the process dies before fire_timer
    survivor = runner(alive, clock)
    survivor.on("turn_timeout", lambda t: expire(t, alive))
    clock.advance(LEASE)
    assert await survivor.run_due() == 1
    assert outcomes == ["applied", "table.stale"]
    assert await count(sessions, GameAction, game_id=table.id) == 1
    async with sessions() as session:
        steps = (await session.scalars(select(OutboxEntry.events).where(OutboxEntry.game_id == table.id))).all()
    assert [e["key"] for events in steps for e in events].count("turn.auto") == 1


async def test_simultaneous_moves_from_two_processes_apply_exactly_one(sessions: Sessions, other: Sessions) -> None:
    """The same move sent to two processes at once (a double click on two shards): one applies, one is stale."""
    a, b = TableService(sessions, clock=lambda: NOW), TableService(other, clock=lambda: NOW)
    table = await started(a, 3, passes=6)
    for _ in range(5):
        user, action = pass_on(table)
        results = await asyncio.gather(a.act(table.id, user, action, expected_version=table.version),
                                       b.act(table.id, user, action, expected_version=table.version),
                                       return_exceptions=True)
        won = [r for r in results if not isinstance(r, BaseException)]
        assert len(won) == 1, results
        assert [r.code for r in results if isinstance(r, TableError)] == ["table.stale"]
        table = won[0].table
    assert await count(sessions, GameAction, game_id=table.id) == 5
    assert (await a.load(table.id)).version == table.version


class Recorder:
    """A deliver callback for one process: records (process, game, outbox entry) in a shared list, and can be
    held inside a delivery until ``gate`` is set."""

    def __init__(self, name: str, shown: list[tuple[str, int, int]], gate: asyncio.Event | None = None) -> None:
        self.name, self.shown, self.gate = name, shown, gate
        self.entered = asyncio.Event()

    async def __call__(self, table: Table, events: list[Event]) -> None:
        step = current_step()
        assert step is not None
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        await asyncio.sleep(0)
        self.shown.append((self.name, table.id, step.entry_id))


async def test_a_step_committed_elsewhere_is_shown_by_the_process_delivering_the_game(sessions: Sessions,
                                                                                     other: Sessions) -> None:
    """While process A shows a game's step, process B commits the next one: B leaves it to A (which holds the
    game's lease), and A shows it after its own, in commit order, each once."""
    shown: list[tuple[str, int, int]] = []
    gate = asyncio.Event()
    deliver_a = Recorder("a", shown, gate)
    a = TableService(sessions, deliver=deliver_a, clock=lambda: NOW)
    b = TableService(other, deliver=Recorder("b", shown), clock=lambda: NOW)
    table = await started(TableService(sessions, clock=lambda: NOW), 3)  # nobody shows the start
    user, action = pass_on(table)
    first = asyncio.create_task(a.act(table.id, user, action))
    await deliver_a.entered.wait()  # A holds the lease, showing the start
    table = await b.load(table.id)
    user, action = pass_on(table)
    await b.act(table.id, user, action)  # committed; B does not show it
    assert shown == []
    gate.set()
    await first
    async with sessions() as session:
        ids = list((await session.scalars(select(OutboxEntry.id).order_by(OutboxEntry.id))).all())
    assert shown == [("a", table.id, entry) for entry in ids]
    async with sessions() as session:
        lease = await session.get(Game, table.id)
    assert lease is not None and (lease.lease_owner, lease.lease_until) == (a.owner, NOW)  # given back


async def test_two_processes_playing_many_games_show_every_step_once_in_order(sessions: Sessions,
                                                                              other: Sessions) -> None:
    """Moves of six games alternate between two processes, all at once: every step of every game is shown once,
    in commit order per game."""
    shown: list[tuple[str, int, int]] = []
    services = [TableService(s, deliver=Recorder(n, shown), clock=lambda: NOW) for s, n in ((sessions, "a"),
                                                                                          (other, "b"))]
    tables = [await started(services[0], 2, passes=6, channel=CHANNEL + n) for n in range(6)]

    async def play(table: Table) -> None:
        for move in range(6):
            user, action = pass_on(table)
            table = (await services[(move + table.id) % 2].act(table.id, user, action)).table

    await asyncio.gather(*(play(t) for t in tables))
    async with sessions() as session:
        rows = (await session.execute(select(OutboxEntry.game_id, OutboxEntry.id).order_by(OutboxEntry.id))).all()
    for table in tables:
        entries = [entry for game, entry in rows if game == table.id]
        assert [entry for _, game, entry in shown if game == table.id] == entries
    assert {name for name, _, _ in shown} == {"a", "b"}


async def test_a_game_whose_deliverer_died_is_swept_by_another_after_the_lease(sessions: Sessions,
                                                                             other: Sessions) -> None:
    """A process that died holding a game's delivery lease (or before showing a step) blocks nobody for long: the
    sweep of another process shows the game's steps, in order, once the lease ran out."""
    now = [NOW]
    shown: list[tuple[str, int, int]] = []
    dead = TableService(sessions, clock=lambda: now[0])  # commits, never shows
    table = await started(dead, 3)
    user, action = pass_on(table)
    await dead.act(table.id, user, action)
    async with sessions() as session, session.begin():  # it had taken the game's lease when it died
        await session.execute(update(Game).where(Game.id == table.id).values(
            lease_owner=dead.owner, lease_until=NOW + DELIVERY_LEASE))
    alive = TableService(other, deliver=Recorder("b", shown), clock=lambda: now[0])
    assert await alive.deliverer.drain(table.id) == 0 and await alive.deliverer.sweep() == 0
    now[0] = NOW + DELIVERY_LEASE
    assert await alive.deliverer.sweep() == 2
    assert [entry for _, _, entry in shown] == sorted(entry for _, _, entry in shown)
    assert await alive.deliverer.sweep() == 0


async def test_what_the_table_shows_is_known_to_every_process(sessions: Sessions, other: Sessions) -> None:
    """A step shown by process B after one shown by process A knows what A's table showed: the same public view
    is "unchanged" (nothing to edit), a new one "changed", whichever process delivers."""
    seen: list[tuple[str, bool]] = []

    def deliver(name: str, view: dict[str, int]) -> Any:
        async def show(table: Table, events: list[Event]) -> None:
            step = current_step()
            assert step is not None
            seen.append((name, step.public_changed(view)))
        return show

    a = TableService(sessions, deliver=deliver("a", {"holder": 1}), clock=lambda: NOW)
    b = TableService(other, deliver=deliver("b", {"holder": 1}), clock=lambda: NOW)
    c = TableService(other, deliver=deliver("c", {"holder": 2}), clock=lambda: NOW)
    table = await started(a, 3, passes=6)
    for service in (b, c):
        user, action = pass_on(table)
        table = (await service.act(table.id, user, action)).table
    assert seen == [("a", True), ("b", False), ("c", True)]


class Process:
    """The Discord side of one bot process for :class:`~bot.delivery.Delivery`: DMs to ``closed`` users are
    refused (50007), other DMs and channel posts are recorded in ``sent`` as (process, where, content)."""

    def __init__(self, name: str, service: TableService, closed: set[int], sent: list[tuple[str, str, str]]) -> None:
        self.name, self.tables, self.closed, self.sent = name, service, closed, sent
        self.metrics = Metrics()

    def add_listener(self, *args: Any) -> None:
        pass

    def get_channel(self, channel_id: int) -> Any:
        return SimpleNamespace(send=self._sender(f"#{channel_id}"))

    async def create_dm(self, user: Any) -> Any:
        return SimpleNamespace(send=self._sender(f"@{user.id}"))

    def _sender(self, where: str) -> Any:
        async def send(content: str | None = None, **kwargs: Any) -> None:
            if where[1:] in {str(user) for user in self.closed}:
                raise discord.Forbidden(SimpleNamespace(status=403, reason="Forbidden"),
                                        {"code": 50007, "message": "Cannot send messages to this user"})
            self.sent.append((self.name, where, content or ""))
        return send


def delivery(process: Process, monkeypatch: pytest.MonkeyPatch) -> Delivery:
    shown = Delivery(process)  # type: ignore[arg-type]

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(shown.live, "show", nothing)  # the living table is not what this test looks at
    monkeypatch.setattr(shown.live, "ping_plan", nothing)
    monkeypatch.setattr(shown.threads, "after_step", nothing)  # nor the game's threads
    return shown


async def test_a_closed_dm_notice_is_said_by_the_process_showing_the_next_public_step(
        sessions: Sessions, other: Sessions, monkeypatch: pytest.MonkeyPatch) -> None:
    """Process A fails to DM seat 2 (closed DMs) in a step with no public line, so it says nothing in the channel;
    process B shows the next public step and names seat 2 there, once: a later refused DM to the same closed
    seat is not said again."""
    potato.install()
    a, b = TableService(sessions, clock=lambda: NOW), TableService(other, clock=lambda: NOW)
    table = await started(a, 3)
    closed_user = table.user_of(2)
    assert closed_user is not None
    sent: list[tuple[str, str, str]] = []
    process_a = delivery(Process("a", a, {closed_user}, sent), monkeypatch)
    process_b = delivery(Process("b", b, {closed_user}, sent), monkeypatch)
    intro = table.engine.intro(table.state)
    secret = [e for e in intro if e.audience.kind != "public"]
    public = [e for e in intro if e.audience.kind == "public"]
    await process_a(table, secret)  # the DMs of seats 0 and 1 go out; seat 2's are refused
    assert sent == [("a", f"@{table.user_of(0)}", ANY), ("a", f"@{table.user_of(1)}", ANY)]
    assert await b.dm_notices_due(table.id) == [2]
    sent.clear()
    await process_b(table, public)
    assert [(name, where) for name, where, _ in sent] == [("b", f"#{CHANNEL}")]
    assert f"<@{closed_user}>" in sent[0][2] and f"<@{table.user_of(0)}>" not in sent[0][2]
    sent.clear()
    await process_a(await a.load(table.id), secret + public)  # seat 2 still closed: already said
    assert [where for _, where, _ in sent] == [f"@{table.user_of(0)}", f"@{table.user_of(1)}"]
    assert [s.dm_ok for s in (await a.load(table.id)).seats] == [True, True, False]
