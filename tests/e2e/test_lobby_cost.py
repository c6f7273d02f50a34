"""What the lobby and the social mode's private panel cost the database, counted (a count, not a timing), through
the real client and the double on the bot's own engine (the test's polling goes through another): a join reads the
lobby once (the refresh after its answer, which would see another process's change), the start once, and a night
action made from "My actions" (the panel, then its target select: controls valid at any version) and the clock's day
end read nothing (issue 20)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import OutboxEntry, Timer
from bot.tables import TableService
from tests.e2e.conftest import World, flush_marks, held, stored, until_delivered
from tests.e2e.social import SEED, cast, pick, seat, six_players, start_game, statuses
from tests.support.newgame import newgame
from tests.support.sql_count import SqlCount

#: a join: bump the lobby's version (guarded), insert the seat, read the lobby after the answer (the refresh)
JOIN = 3


async def test_a_join_reads_the_lobby_once_and_the_start_reads_it_once(world: World, potato: None) -> None:
    """After the first two joins (the first may land while the lobby's message is being recorded, whose refresh
    then reads the lobby too), each join costs 3 statements, one of them a read of the lobby, and the start reads
    the lobby once."""
    extra = [world.double.add_user(name, display_name=name.title()) for name in ("frank", "grace")]
    for user in extra:
        world.guild.add_member(user)
    bot = world.bot()
    async with world.running(bot):
        handle = await newgame(world.players[0], world.games, "potato", "classic", passes=5)
        await handle.response()
        lobby = await handle.wait_original()
        assert lobby is not None
        for user in world.players[1:3]:
            await (await user.click(lobby, label="Join")).response()
            await world.double.wait_for(lambda u=user: f"<@{u.id}>" in str(lobby.embeds), what="the join shown")
        count = SqlCount(bot.db_engine)
        costs = []
        for user in [*world.players[3:], *extra]:
            before, kinds = count.statements, dict(count.kinds)
            await (await user.click(lobby, label="Join")).response()
            await world.double.wait_for(lambda k=kinds: count.kinds["SELECT games"] > k.get("SELECT games", 0),
                                        what="the refresh's read of the lobby")
            assert f"<@{user.id}>" in str(lobby.embeds)  # (the answer showed the join)
            costs.append((count.statements - before, count.kinds["SELECT games"] - kinds.get("SELECT games", 0)))
        assert costs == [(JOIN, 1)] * 4, count.kinds
        reads = count.kinds["SELECT games"]
        await (await world.players[0].click(lobby, label="Start")).response()
        await stored(world, lambda: _started(world), "the game started")
        await until_delivered(world)
        assert count.kinds["SELECT games"] - reads == 1, count.kinds


async def _started(world: World) -> bool:
    table = await world.tables.table_in_channel(world.games.id)
    return table is not None and table.status == "active"


async def test_a_night_action_from_my_actions_reads_no_table(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Doctor's protection made from My actions (a button, then a select on the private panel) reads the game
    neither for the panel nor for the move, and costs at most 8 statements in 2 commits."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))
    players = await six_players(world)
    bot = world.bot()
    async with world.running(bot):
        table = await start_game(world, players)
        roles = cast(table, players)
        await flush_marks()  # (the deal's mark, held for the first move: the deal's cost, not the action's)
        count = SqlCount(bot.db_engine)
        await pick(world, roles["doctor"], "protect", seat(table, roles["killer"]))
        await stored(world, lambda: _delivered(world, table.id, table.version + 1), "the protection shown")
        assert count.kinds["SELECT games"] == 0, count.kinds
        assert count.statements <= 8 and count.commits <= 2, (count.statements, count.commits, count.kinds)
        assert statuses(world)


async def test_a_day_s_end_reads_no_table(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock's day end (its timer's handler) is applied to the game as this process committed it (no older than
    the step that armed the timer), without reading the game."""
    monkeypatch.setattr(TableService, "new_seed", staticmethod(lambda: SEED))
    players = await six_players(world)
    bot = world.bot()
    async with world.running(bot):
        table = await start_game(world, players)
        world.clock.advance(hours=2)  # the lobby's expiry timer (still armed at the start today) is over first
        await stored(world, lambda: _no_timer_due(world, table.id), "the lobby's expiry handled")
        count = SqlCount(bot.db_engine)
        world.clock.advance(hours=23)
        await stored(world, lambda: _delivered(world, table.id, table.version + 1), "day 1's end shown")
        assert count.kinds["SELECT games"] == 0, count.kinds


async def _no_timer_due(world: World, game_id: int) -> bool:
    async with world.sessions() as session:
        return not await session.scalar(select(Timer.id).where(
            Timer.game_id == game_id, Timer.fired_at.is_(None), Timer.due_at <= world.clock.now()))


async def _delivered(world: World, game_id: int, version: int) -> bool:
    if held(game_id, version):  # (its mark is written with the next move: counted there)
        return True
    async with world.sessions() as session:
        return await session.scalar(select(OutboxEntry.delivered_at).where(
            OutboxEntry.game_id == game_id, OutboxEntry.version == version)) is not None
