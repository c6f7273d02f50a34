"""The table service keeps a game's whole record: when it started, every action with its seat, player, time and
whether the bot played it after a time limit, and the outcome; the export carries all of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.history.record import replay_steps
from bot.history.store import load_record, recent
from bot.history.timeline import NotFinished, timeline
from bot.tables import TableService
from games.core import register
from tests.support.tiny_game import ENGINE

START = datetime(2026, 11, 30, 21, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        return self.at


async def test_the_service_keeps_start_times_players_and_timeouts(sessions: async_sessionmaker[AsyncSession]) -> None:
    """A game with a player's move and a timed-out one: the record has them in order with their times; the replay
    announces the timed-out move as players saw it; the JSON export names every part."""
    register(ENGINE)
    clock = Clock()
    service = TableService(sessions, clock=clock)
    table = await service.open_lobby(5, 6, 1, "potato", "classic", {"passes": 2}, host_names=["Ana"])
    await service.join(table.id, 2, ["Bruno", "bruno"])
    clock.at = START + timedelta(minutes=1)
    table = await service.start(table.id, 1, seed=4)
    first = table.state.holder
    with pytest.raises(NotFinished):  # its secrets are still in play
        timeline(await load_record(sessions, table.id), "en")
    clock.at = START + timedelta(minutes=2)
    await service.act(table.id, table.user_of(first), {"type": "pass", "to": 1 - first})
    clock.at = START + timedelta(minutes=7)
    await service.act(table.id, None, {"type": "pass", "to": first}, seat=1 - first, timed_out=True)

    record = await load_record(sessions, table.id)
    assert record.started_at == START + timedelta(minutes=1)
    assert record.table.status == "finished" and record.table.finished_at == START + timedelta(minutes=7)
    assert [(a.seq, a.seat, a.user_id, a.timed_out, a.at) for a in record.actions] == [
        (1, first, table.user_of(first), False, START + timedelta(minutes=2)),
        (2, 1 - first, None, True, START + timedelta(minutes=7))]
    steps = replay_steps(record)
    assert [e.key for e in steps[2].events][:2] == ["turn.auto", "potato.passed"]
    assert steps[2].events[0].params == {"seat": 1 - first}
    data = json.loads(json.dumps(record.to_json()))
    assert data["seed"] == 4 and data["options"] == {"passes": 2}
    assert data["started_at"] == "2026-11-30T21:01:00+00:00"
    assert data["seats"] == [{"seat": 0, "user_id": "1", "names": ["Ana"]},
                             {"seat": 1, "user_id": "2", "names": ["Bruno", "bruno"]}]
    assert [(a["timed_out"], a["user_id"]) for a in data["actions"]] == [(False, str(table.user_of(first))),
                                                                         (True, None)]
    assert data["outcome"]["winners"] == [1 - first]  # the potato came back: its first holder burns
    tables, total = await recent(sessions, 5, [6])
    assert ([t.id for t in tables], total) == ([table.id], 1)
    assert await recent(sessions, 99, [6]) == ([], 0)  # another server's list is empty
    assert await recent(sessions, 5, [7]) == ([], 0)  # and a channel the member cannot view lists nothing
