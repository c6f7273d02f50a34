"""The host's controls through the one door (``TableService.act``): a pause holds every timer of the game (across
a restart: a new service over the same database) and the resume gives each the time it had left (the clock is
injected); no move counts meanwhile; a cancel is an action of the game with no scores; the lobby's host removes a
player."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GameAction, Score
from bot.tables import TableError, TableService
from bot.tables.outbox import RETRY_TIMER
from games.core import HOST_SEAT, IllegalAction
from tests.tables.conftest import NOW
from tests.tables.helpers import HOST, lobby, pass_on, started

Sessions = async_sessionmaker[AsyncSession]


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def control(kind: str, at: datetime, by: str = "Host") -> dict[str, str]:
    return {"type": kind, "at": at.isoformat(), "by": by}


async def test_a_pause_holds_every_timer_across_a_restart_and_the_resume_gives_the_time_left(
        sessions: Sessions) -> None:
    """Paused 20 s into a 60 s turn limit (and a 10 min timer): nothing falls due however long the pause, even for
    a service started afresh; resumed an hour later, each timer is due at the resume plus what it had left. A
    delivery retry is never held."""
    clock = Clock()
    service = TableService(sessions, clock=clock)
    table = await started(service, 2)
    turn = await service.schedule_timer(table.id, "turn_timeout", NOW + timedelta(seconds=60), {"version": 1})
    later = await service.schedule_timer(table.id, "social_day_end", NOW + timedelta(minutes=10), {"day": 1})
    retry = await service.schedule_timer(table.id, RETRY_TIMER, NOW + timedelta(seconds=5), {})
    clock.now = NOW + timedelta(seconds=20)
    paused = (await service.act(table.id, HOST, control("pause", clock.now))).table
    assert paused.paused
    restarted = TableService(sessions, clock=clock)
    assert (await restarted.load(table.id)).paused
    assert [t.id for t in await restarted.claim_timers(NOW + timedelta(days=30), timedelta(minutes=1))] == [retry.id]
    clock.now = NOW + timedelta(hours=1, seconds=20)
    going = (await restarted.act(table.id, HOST, control("resume", clock.now))).table
    assert not going.paused
    held = [t for t in await restarted.pending_timers(table.id) if t.kind != RETRY_TIMER]
    assert {t.id: t.due_at for t in held} == {turn.id: clock.now + timedelta(seconds=40),
                                              later.id: clock.now + timedelta(minutes=9, seconds=40)}
    assert {t.id: t.payload for t in held} == {turn.id: {"version": 1}, later.id: {"day": 1}}


async def test_no_move_counts_while_paused_and_nothing_is_written(service: TableService, sessions: Sessions) -> None:
    """The holder's pass while paused is refused (``core.is_paused``, naming who paused) and not logged; a second
    pause is refused; after the resume the same pass counts, at a version the pause and resume moved by two."""
    table = await started(service, 2)
    await service.act(table.id, HOST, control("pause", NOW, by="Alice"))
    user, action = pass_on(table)
    with pytest.raises(IllegalAction) as caught:
        await service.act(table.id, user, action)
    assert (caught.value.code, caught.value.params) == ("core.is_paused", {"by": "Alice"})
    with pytest.raises(IllegalAction, match="core.already_paused"):
        await service.act(table.id, HOST, control("pause", NOW))
    async with sessions() as session:
        logged = (await session.scalars(select(GameAction.action).order_by(GameAction.seq))).all()
    assert [a["type"] for a in logged] == ["pause"]
    going = (await service.act(table.id, HOST, control("resume", NOW))).table
    assert going.version == table.version + 2 and going.decision_opened == table.version
    after = await service.act(table.id, user, action, expected_version=table.version)
    assert after.table.version == going.version + 1
    assert await service.replay_check(table.id)


async def test_only_the_host_or_a_manager_pauses(service: TableService) -> None:
    """A seated player's pause is theirs, not the host's: refused (``core.host_only``); a server manager who is not
    the host pauses as the host; someone not at the table and no manager is not a player."""
    table = await started(service, 2)
    with pytest.raises(IllegalAction, match="core.host_only"):
        await service.act(table.id, HOST + 1, control("pause", NOW))
    with pytest.raises(TableError, match="table.not_a_player"):
        await service.act(table.id, 999, control("pause", NOW))
    paused = await service.act(table.id, 999, control("pause", NOW, by="Mod"), manager=True)
    assert paused.table.engine.paused(paused.table.state).by == "Mod"
    assert paused.events[0].key == "core.paused"


async def test_a_cancel_is_an_action_of_the_game_with_no_scores(service: TableService, sessions: Sessions) -> None:
    """The host's cancel of a running game is logged as the game's ``close`` (it replays), ends the game
    ``cancelled`` with no outcome and no scores, and refuses any later move; a second cancel is refused."""
    table = await started(service, 3)
    await service.schedule_timer(table.id, "turn_timeout", NOW + timedelta(minutes=1), {})
    cancelled = await service.cancel(table.id, HOST, is_manager=False, by_name="Alice")
    assert cancelled.status == "cancelled" and cancelled.outcome is None and cancelled.finished_at == NOW
    assert cancelled.engine.closed(cancelled.state).by == "Alice"
    assert await service.next_timer_due() is None
    async with sessions() as session:
        logged = (await session.scalars(select(GameAction).order_by(GameAction.seq))).all()
        assert await session.scalar(select(func.count()).select_from(Score)) == 0
    assert [(a.seat, a.user_id, a.action["type"]) for a in logged] == [(HOST_SEAT, HOST, "close")]
    assert await service.replay_check(table.id)
    with pytest.raises(TableError, match="table.not_active"):
        await service.cancel(table.id, HOST, is_manager=False)
    with pytest.raises(TableError, match="table.host_or_manager"):
        await service.cancel((await started(service, 2, channel=21)).id, HOST + 1, is_manager=False)


async def test_the_lobby_host_removes_a_joined_player(service: TableService) -> None:
    """The host removes a joined player (later seats move up); anyone else, the host themself, someone not seated
    and a started game are refused, and nothing changes."""
    table = await lobby(service, 3)
    with pytest.raises(TableError, match="table.host_only"):
        await service.kick(table.id, HOST + 1, HOST + 2)
    with pytest.raises(TableError, match="table.kick_self"):
        await service.kick(table.id, HOST, HOST)
    with pytest.raises(TableError, match="table.not_a_player"):
        await service.kick(table.id, HOST, 999)
    assert (await service.load(table.id)).user_ids() == [HOST, HOST + 1, HOST + 2]
    kicked = await service.kick(table.id, HOST, HOST + 1)
    assert [(s.seat, s.user_id) for s in kicked.seats] == [(0, HOST), (1, HOST + 2)]
    await service.start(table.id, HOST)
    with pytest.raises(TableError, match="table.already_started"):
        await service.kick(table.id, HOST, HOST + 2)
