"""A simultaneous decision at the table (a Let's Kill! response window, LK-19): every answer to the same still-open
decision counts, whichever arrived first; only an answer to a decision that has closed is stale. The check is made
inside the game's lock against the decision (``Table.stands``), not the raw version. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.repos import games
from bot.tables import Table, TableError, TableService
from games.core import IllegalAction
from tests.tables.helpers import GUILD, HOST

SEED = 13  # Bob (seat 1) places the first Victim: Alice and Carol answer its window


async def window_table(service: TableService, channel: int) -> Table:
    table = await service.open_lobby(GUILD, channel, HOST, "lets_kill", "classic", {})
    for user, name in ((HOST, "Alice"), (HOST + 1, "Bob"), (HOST + 2, "Carol")):
        await service.join(table.id, user, [name])
    table = await service.start(table.id, HOST, seed=SEED)
    assert table.state.pending.kind == "window"
    assert set(table.engine.waiting(table.state).seats) == {0, 2}
    return table


@pytest.mark.parametrize("together", [False, True])
async def test_two_passes_drawn_at_the_same_version_are_both_stored(
        service: TableService, sessions: async_sessionmaker[AsyncSession], together: bool) -> None:
    """Alice and Carol both press the Pass drawn when the window opened: the second arrives after the first
    answer made a new version, yet it answers the same open window, so both are stored and the window closes."""
    table = await window_table(service, 40 + together)
    drawn = table.version
    passes = [service.act(table.id, user, {"type": "respond"}, expected_version=drawn)
              for user in (HOST, HOST + 2)]
    if together:
        await asyncio.gather(*passes)
    else:
        for answer in passes:
            await answer
    after = await service.load(table.id)
    assert after.version == drawn + 2
    assert after.state.pending.kind == "play" and after.state.active == 1  # the window closed: Bob plays
    async with sessions() as session:
        logged = await games.actions_of(session, table.id)
    assert [(row.seat, row.user_id, row.action["type"]) for row in logged] == [
        (0, HOST, "respond"), (2, HOST + 2, "respond")]


async def test_an_answer_to_a_closed_window_is_stale(service: TableService) -> None:
    """Once the window closed, a control drawn while it was open stands for nothing: refused as stale, and
    nothing changes; the same seat answering again in an open window is told it already answered."""
    table = await window_table(service, 42)
    drawn = table.version
    await service.act(table.id, HOST, {"type": "respond"}, expected_version=drawn)
    with pytest.raises(IllegalAction) as again:
        await service.act(table.id, HOST, {"type": "respond"}, expected_version=drawn)
    assert again.value.code == "lets_kill.already_answered"
    await service.act(table.id, HOST + 2, {"type": "respond"}, expected_version=drawn + 1)
    closed = await service.load(table.id)
    with pytest.raises(TableError) as stale:
        await service.act(table.id, HOST + 1, {"type": "discard_hand"}, expected_version=drawn)
    assert stale.value.code == "table.stale"
    assert (await service.load(table.id)).version == closed.version
