"""A process's memory does not grow with the games it has played: per-game locks live while they are used."""

from __future__ import annotations

import asyncio
import gc

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.locks import KeyedLocks
from bot.tables import TableService
from tests.tables.conftest import NOW, Outbox
from tests.tables.helpers import CHANNEL, pass_on, started


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the locks are the same on every backend
async def test_playing_many_games_to_the_end_leaves_no_per_game_lock(
        sessions: async_sessionmaker[AsyncSession]) -> None:
    """Twelve games played to the end, six at a time: the service's and the deliverer's lock maps are empty after,
    and never held more locks than games in play."""
    service = TableService(sessions, deliver=Outbox(), clock=lambda: NOW)
    most = 0

    async def play(channel: int) -> None:
        nonlocal most
        table = await started(service, 2, passes=2, channel=channel)
        while table.status == "active":
            user, action = pass_on(table)
            table = (await service.act(table.id, user, action)).table
            most = max(most, len(service.locks), len(service.deliverer.locks))

    for batch in range(2):
        await asyncio.gather(*(play(CHANNEL + 10 * batch + n) for n in range(6)))
    gc.collect()
    assert (len(service.locks), len(service.deliverer.locks)) == (0, 0)
    assert 0 < most <= 6


async def test_a_held_lock_is_the_same_lock_for_every_waiter() -> None:
    """While a key's lock is held (even with no other reference to it), every caller gets that same lock, so it
    still excludes; once released and dropped, the entry goes."""
    locks = KeyedLocks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks(7):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"), hold("c"))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert len(locks) == 0
