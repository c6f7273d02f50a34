"""Crash safety of held "delivered" marks (:mod:`bot.tables.marks`, issue 20): a step is shown (its DMs sent, the
table drawn) and the bot dies before the step's held mark is written (no graceful stop: nothing of it reaches the
database); the next bot shows the step again, idempotently: no DM twice, the table shows the step, the game goes
on."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import OutboxEntry
from tests.e2e.conftest import World, held, until_delivered
from tests.e2e.test_durable import holder_of, start_three, versions_on
from tests.e2e.test_foundation import pass_button, status_messages

pytestmark = pytest.mark.usefixtures("potato")


async def marked(world: World, game_id: int) -> dict[int, bool]:
    """Per version of the game's outbox rows, whether it is marked delivered."""
    async with world.sessions() as session:
        rows = (await session.scalars(select(OutboxEntry).where(OutboxEntry.game_id == game_id)
                                      .order_by(OutboxEntry.version))).all()
    return {row.version: row.delivered_at is not None for row in rows}


async def test_a_bot_dying_with_a_held_mark_shows_the_step_again_without_sending_a_dm_twice(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    players = world.players[:3]
    bot = world.bot()
    async with world.running(bot):
        first = await start_three(world)
        dealt = await world.tables.table_in_channel(world.games.id)
        assert dealt is not None
        await until_delivered(world)  # (the deal, its mark written)
        before = [len(u.dms()) for u in players]
        await (await holder_of(world, dealt).click(first, custom_id=pass_button(first))).response()
        # the pass shown (the new holder's DM, the table), its mark waiting for a next move (the injected clock
        # stands still: no flush)
        version = dealt.version + 1
        await world.double.wait_for(lambda: held(dealt.id, version), what="the pass's mark held")
        table = await world.tables.load(dealt.id)
        assert table.version == version
        assert versions_on(first) == {table.version}
        assert sum(len(u.dms()) for u in players) == sum(before) + 1
        assert (await marked(world, table.id))[table.version] is False

        async def dies() -> None:  # no graceful stop: the held mark is lost with the process, the lease kept
            await bot.tables.deliverer.marks.close()

        monkeypatch.setattr(bot.tables, "hand_back", dies)
    assert (await marked(world, table.id))[table.version] is False  # the mark died with the bot
    sent = [[m.id for m in u.dms()] for u in players]
    tables = [m.id for m in status_messages(world)]

    async with world.running():
        await until_delivered(world)
        assert all((await marked(world, table.id)).values())
        assert [[m.id for m in u.dms()] for u in players] == sent  # no DM sent again
        assert [m.id for m in status_messages(world)] == tables  # the same table message, not posted again
        assert versions_on(first) == {table.version}  # showing the step
        await (await holder_of(world, table).click(first, custom_id=pass_button(first))).response()
        await world.double.wait_for(lambda: versions_on(first) == {table.version + 1}, what="the next move")
        await until_delivered(world)
        now = [[m.id for m in u.dms()] for u in players]
        assert [ids[:len(old)] for ids, old in zip(now, sent, strict=True)] == sent  # (the move's own DM after)
        assert sum(map(len, now)) == sum(map(len, sent)) + 1
        assert max(await marked(world, table.id)) == table.version + 1
        assert all((await marked(world, table.id)).values())
    world.double.assert_clean()
