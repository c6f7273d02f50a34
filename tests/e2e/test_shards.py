"""Two bot processes (two CoronerBots, one shard each, on one database) serve one bot: a DM reaches only the
process holding shard 0 (as Discord does), which applies the Killer's route of a game whose channel lives on shard
1 and shows it in that channel without having the channel in its cache."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import func, select

from bot.bot import CoronerBot
from bot.db.models import GameAction
from bot.settings import Settings
from tests.discord_double.server import TOKEN
from tests.e2e.conftest import World, mark, stored
from tests.e2e.test_cereal_killer import ROUTE, click, custom_id, next_status, start, statuses

#: several processes on one database is the PostgreSQL set-up (SQLite serves one process)
pytestmark = pytest.mark.parametrize("db_url", [pytest.param("postgres", marks=pytest.mark.postgres)],
                                     indirect=True)


def shard_bot(world: World, shard: int) -> CoronerBot:
    """A bot process holding ``shard`` of two, on the world's database and clock."""
    settings = Settings(_env_file=None, discord_token=TOKEN, database_url=world.db_url,
                        discord_api_base=world.double.api_base, shard_count=2, shard_ids=[shard])
    return CoronerBot(settings, clock=world.clock, guild_ready_timeout=0.05)


async def test_the_killers_dm_route_and_dm_button_for_a_game_on_another_shard_are_applied_once_and_shown(
        world: World) -> None:
    """The game runs in a server on shard 1; the Killer's route DM and its click on a DM answer button arrive at
    the shard-0 process only, which applies each once, answers in the DM and edits the living table in the shard-1
    channel (no channel cache, no channel lookup)."""
    double = world.double
    double.shard_count = 2
    guild = double.add_guild("Shard One", shard=1)
    channel = guild.add_text_channel("games")
    alice, bob = world.players[:2]
    for user in (alice, bob):
        guild.add_member(user)
    world = dataclasses.replace(world, guild=guild, games=channel)
    zero, one = shard_bot(world, 0), shard_bot(world, 1)
    async with world.running(zero), world.running(one):
        await start(world, [alice, bob])  # the lobby, the clicks and the start: all on shard 1
        assert zero.get_channel(channel.id) is None and one.get_channel(channel.id) is not None
        table = await world.tables.table_in_channel(channel.id)
        assert table is not None
        actions = await _actions(world, table.id)
        before = mark(statuses(world))
        lookups = _channel_lookups(world, channel.id)
        await alice.dm_bot(ROUTE)  # accepted: the table shows it, no DM comes back (issue 8)
        status = await next_status(world, before)
        assert "A victim was found in the House on 3" in status.text
        await stored(world, lambda: _has(world, table.id, actions + 1), "the route in the log")
        assert await _actions(world, table.id) == actions + 1
        assert _channel_lookups(world, channel.id) == lookups

        status = await click(world, bob, status, "place", ["7"])  # the Detective's moves: on shard 1
        move = await bob.click(status, custom_id(status, "move"))
        assert (await move.response()).modal is not None
        count = mark(statuses(world))
        await (await bob.submit_modal(move, {"path": "2"})).response()
        status = await click(world, bob, await next_status(world, count), "ask", ["direction"])
        prompt = await double.wait_for(lambda: alice.dms()[-1] if alice.dms()[-1].buttons() else None)
        count = mark(statuses(world))
        answer = await alice.click(prompt, label="South")
        assert answer.shard_id == 0
        await answer.response()
        status = await next_status(world, count)
        assert "(Which way are you from the Witness?): South" in status.text
        await stored(world, lambda: _has(world, table.id, actions + 5), "the answer in the log")
        assert await _actions(world, table.id) == actions + 5  # route, place, move, ask, answer: each once
        assert _channel_lookups(world, channel.id) == lookups


def _channel_lookups(world: World, channel_id: int) -> int:
    """How many times a bot asked the double for the channel itself (``GET /channels/{id}``)."""
    return sum(1 for r in world.double.requests if r.method == "GET" and r.path.endswith(f"/channels/{channel_id}"))


async def _actions(world: World, game_id: int) -> int:
    async with world.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(GameAction)
                                        .where(GameAction.game_id == game_id)) or 0)


async def _has(world: World, game_id: int, count: int) -> bool:
    return await _actions(world, game_id) >= count
