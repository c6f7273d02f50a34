"""A Discord outage (issue 22), on the injected clock: every REST call answers 503 for more than five minutes while
a turn times out; the bot waits it out with backoff (it no longer gives the step up after 3 tries 30 s apart) and
redraws the table as soon as Discord answers again, without waiting for the next retry or move."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import OutboxEntry, Timer
from bot.tables.outbox import RETRY_TIMER
from tests.e2e.conftest import World, settled, stored, until_version
from tests.e2e.test_durable import holder_of, pass_button, start_three, versions_on


async def tries(world: World) -> tuple[int, int]:
    """(the most tries of a step not shown yet, how many steps are not shown yet)."""
    async with world.sessions() as session:
        row = (await session.execute(select(func.max(OutboxEntry.attempts), func.count())
                                     .where(OutboxEntry.delivered_at.is_(None)))).one()
    return int(row[0] or 0), int(row[1])


async def next_retry(world: World) -> object:
    async with world.sessions() as session:
        return await session.scalar(select(func.min(Timer.due_at)).where(Timer.kind == RETRY_TIMER,
                                                                           Timer.fired_at.is_(None)))


async def nothing_due(world: World) -> bool:
    async with world.sessions() as session:
        return await session.scalar(select(Timer.id).where(Timer.fired_at.is_(None),
                                                           Timer.due_at <= world.clock.now())) is None


@pytest.mark.usefixtures("potato")
async def test_an_outage_is_waited_out_and_the_table_redrawn_as_soon_as_discord_answers(world: World) -> None:
    """The turn time runs out while Discord answers every request with 503: the bot's move is stored but cannot be
    shown. It is tried at 5, 15, 35, 75 and 155 s (more than the old 3 tries 30 s apart, and never given up; the
    next turn's time has not run out yet); when
    Discord answers again, one answer (a player's /rules) redraws the table at once, the clock standing still,
    and the game goes on."""
    async with world.running():
        table_message = await start_three(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        await settled(world)
        outage = world.double.fail_once("*", r".*", status=503, times=1_000_000)
        world.clock.advance(minutes=6)  # past the 5-minute turn time: the bot moves for the holder
        await until_version(world, table.id, table.version + 1)

        async def failed(n: int) -> bool:
            return (await tries(world))[0] >= n

        await stored(world, lambda: failed(1), "the timed-out move's step failing to show")
        for n in range(2, 7):
            due = await next_retry(world)
            assert due is not None
            world.clock.set(due)  # type: ignore[arg-type]
            await stored(world, lambda n=n: failed(n), f"try {n} of the step")
        await stored(world, lambda: nothing_due(world), "every timer due fired (the turn warning's among them)")
        assert (await tries(world))[1] >= 1  # still kept, not given up
        assert versions_on(table_message) == {table.version}  # the channel still shows the old table

        outage.remaining = 0  # Discord is back; the next retry is 160 s away
        before = world.clock.now()
        rules = await (await world.players[3].slash(world.games, "rules", game="asesino")).response()
        assert not rules.deferred or rules.ephemeral is not None
        await world.double.wait_for(lambda: versions_on(table_message) == {table.version + 1},
                                    what="the table redrawn when Discord answered")
        assert world.clock.now() == before
        await settled(world)
        assert await tries(world) == (0, 0)

        moved = await world.tables.load(table.id)  # the game's later steps are not blocked
        await (await holder_of(world, moved).click(table_message, custom_id=pass_button(table_message))).response()
        await world.double.wait_for(lambda: versions_on(table_message) == {table.version + 2}, what="the next move")
