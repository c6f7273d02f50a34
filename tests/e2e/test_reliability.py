"""Faults of issue 22 that the stricter double shows: a refusal of a DM move that Discord does not deliver, slow
commands answered after Discord's 3 s, and a late lobby answer drawn over a started game."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models.live import LiveTableState
from bot.live_table import PING_TIMER
from tests.e2e.conftest import World, settled, stored, until_delivered, until_version
from tests.e2e.latency import SlowSql
from tests.e2e.test_cereal_killer import start
from tests.e2e.test_durable import open_lobby, start_three


async def test_a_refused_dm_route_the_killer_cannot_receive_falls_back_like_every_private_message(
        world: World) -> None:
    """The Killer's DMs close after the start; their illegal route by DM is refused, the refusal's DM gets 403:
    the failed DM is recorded like any private message's (the channel names the Killer with the next public step
    and My secrets shows their private information), and nothing changed."""
    alice, bob = world.players[:2]
    async with world.running():
        await start(world, [alice, bob])
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.seat_of(alice.id) == 0
        world.double.close_dms(alice)
        sent = await alice.dm_bot("3 9 8 7")
        dm_path = f"/channels/{sent.channel_id}/messages"
        await world.double.wait_for(lambda: any(r.path == dm_path and r.status == 403
                                                for r in world.double.requests), what="the refusal's DM refused")

        async def recorded() -> bool:
            return await world.tables.dm_notices_due(table.id) == [0]

        await stored(world, recorded, "the Killer's failed DM recorded for the channel's notice")
        after = await world.tables.load(table.id)
        assert after.version == table.version and not next(s for s in after.seats if s.seat == 0).dm_ok


SLOW = 1.5  # seconds per SQL statement: two statements already pass Discord's 3 s


async def slow_database(world: World, slow_sql: SlowSql, table_id: int) -> None:
    """Make every statement of the bot take :data:`SLOW` seconds and wait until the bot has run one (a message in
    the game channel is counted under the table: one slow statement at least), as a database slow for a while is."""
    async def counted() -> int:
        async with world.sessions() as session:
            return await session.scalar(select(LiveTableState.messages_after)
                                        .where(LiveTableState.game_id == table_id)) or 0

    before = await counted()
    slow_sql.delay = SLOW
    await world.players[3].say(world.games, "anyone there?")
    await stored(world, lambda: _more(counted, before), "the chat counted under the table", timeout=30)


async def _more(counted, before: int) -> bool:  # type: ignore[no-untyped-def]
    return await counted() > before


@pytest.mark.usefixtures("potato")
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the latency is injected: one backend is enough
@pytest.mark.parametrize(("command", "options", "ephemeral", "shows"), [
    ("status", {}, True, "Hot Potato"),
    ("hand", {}, True, "Your secrets"),
    ("leaderboard", {"game": "potato"}, False, "Hot Potato"),
    ("config show", {}, True, "Turn"),
])
async def test_a_command_on_a_slow_database_is_acknowledged_before_its_first_query(
        world: World, slow_sql: SlowSql, command: str, options: dict, ephemeral: bool, shows: str) -> None:
    """At 1.5 s per SQL statement (Discord's exact 3 s, no margin) a command is deferred before it reads anything
    and its answer fills the deferred message in; before, /status answered after 3 s and Discord refused it
    (10062)."""
    async with world.running():
        await start_three(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        await until_delivered(world)
        await slow_database(world, slow_sql, table.id)
        user = world.admin if command.startswith("config") else world.players[0]
        handle = await user.slash(world.games, command, **options)
        response = await handle.response()
        assert response.deferred and response.ephemeral is ephemeral
        answer = await handle.wait_original(timeout=60)
        slow_sql.reset()
        assert shows in answer.text and answer.ephemeral is ephemeral


CALLBACK = r"/interactions/\d+/[^/]+/callback"


@pytest.mark.usefixtures("potato")
async def test_a_join_answered_late_never_puts_the_lobby_back_on_a_started_game(world: World) -> None:
    """bob's Join is committed and answered, but its answer spends 1.5 s in the network; alice's Start, fast,
    turns the lobby message into the table meanwhile. The late answer, drawn from the older lobby, must not land
    over the table: the message ends as the started game's table (no Join/Leave/Start/Cancel/Add AI)."""
    alice, bob, carol = world.players[:3]
    async with world.running():
        lobby = await open_lobby(world, passes=10)
        await (await carol.click(lobby, label="Join")).response()
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        held = world.double.delay_once("POST", CALLBACK, 1.5)
        join = await bob.click(lobby, label="Join")
        await until_version(world, table.id, table.version + 1)  # bob seated; his answer is in the network
        await world.double.wait_for(lambda: held.hits == 1, what="bob's answer sent")
        start = await alice.click(lobby, label="Start")
        await join.response()
        await start.response()
        await until_version(world, table.id, table.version + 2)  # started
        await settled(world)
        labels = [b.get("label") for b in lobby.buttons()]
        assert not {"Join", "Leave", "Start", "Cancel", "Add AI"} & set(labels), labels
        assert lobby.embeds[0]["title"] == "Hot Potato"
        assert (await world.tables.load(table.id)).seat_of(bob.id) is not None


@pytest.mark.usefixtures("potato")
async def test_player_text_pings_nobody_and_a_turn_ping_pings_exactly_the_awaited_player(world: World) -> None:
    """A player named like a mass mention (``@everyone``, another player's ``<@id>``) joins and plays: no message
    of the bot in the channel pings anyone (Discord computes it from content and ``allowed_mentions``) except
    the turn ping, which pings the awaited player and nobody else."""
    alice = world.players[0]
    mallory = world.double.add_user("mallory", display_name=f"@everyone {alice.mention} @here")
    world.guild.add_member(mallory, nick=f"<@&{world.guild.id}> @everyone")
    async with world.running():
        lobby = await open_lobby(world, passes=10)
        for user in (mallory, world.players[1]):
            await (await user.click(lobby, label="Join")).response()
        await (await alice.click(lobby, label="Start")).response()

        async def dealt() -> bool:  # the Start's answer may come before or after the deal is stored
            found = await world.tables.table_in_channel(world.games.id)
            return found is not None and found.status == "active"

        await stored(world, dealt, "the started game")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        await until_delivered(world)

        async def ping_armed() -> bool:
            return any(t.kind == PING_TIMER for t in await world.tables.pending_timers(table.id))

        await stored(world, ping_armed, "the ping's timer")
        world.clock.advance(seconds=31)
        ping = await world.double.wait_for(
            lambda: next((m for m in world.bot_messages() if "Your move" in m.content), None), what="the ping")
        started = await world.tables.load(table.id)
        assert ping.pings == {started.user_of(started.state.holder)}
        loud = [(m.text[:60], m.pings) for m in world.double.messages(world.games, include_ephemeral=True)
                if m.author.bot and m.id != ping.id and m.pings]
        assert loud == []
