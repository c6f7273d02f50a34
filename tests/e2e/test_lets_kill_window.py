"""Two answers at once in a Let's Kill! response window (LK-19: one simultaneous decision): Alice and Carol press the
same Pass within milliseconds; both answers count, neither is told the game moved on (issue 22's first fault)."""

from __future__ import annotations

import asyncio

from bot.db.repos import games
from tests.e2e.conftest import World
from tests.e2e.test_lets_kill import seed, start_three, table_message, wait_version

__all__ = ["seed"]


async def test_two_near_simultaneous_passes_both_count(world: World, seed: None) -> None:
    alice, bob, carol = world.players[:3]
    async with world.running():
        await start_three(world)
        message, table = await table_message(world, 1)
        assert table.state.pending.kind == "window" and set(table.engine.waiting(table.state).seats) == {0, 2}
        clicks = await asyncio.gather(alice.click(message, label="Pass"), carol.click(message, label="Pass"))
        answers = await asyncio.gather(*(click.response() for click in clicks))
        for answer in answers:  # the table's edit or a deferral: never the "out of date" refusal
            assert answer.type in (6, 7), answer.content
        await wait_version(world, 1, table.version + 1)
        after = await world.tables.load(1)
        assert after.state.pending.kind == "play" and after.state.active == 1  # the window closed: Bob plays
        async with world.sessions() as session:
            logged = [(row.seat, row.action["type"]) for row in await games.actions_of(session, 1)]
        assert sorted(logged[-2:]) == [(0, "respond"), (2, "respond")]
