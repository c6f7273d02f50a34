"""The 3-second rule whatever the database does, and a lobby and its message as one unit (issue 9): a slow
database, an interaction answer Discord refuses, and a late Join answer racing the Start."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.tables import TableService
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World, settled, stored, until_delivered, until_version
from tests.e2e.latency import SlowSql
from tests.e2e.test_durable import holder_of, start_three, versions_on
from tests.e2e.test_foundation import pass_button
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("potato")
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def lobbies(world: World) -> list[StoredMessage]:
    return [m for m in world.bot_messages() if any(b.get("label") == "Join" for b in m.buttons())]


async def test_newgame_and_join_answer_in_time_on_a_slow_database(world: World, slow_sql: SlowSql) -> None:
    """With 150 ms per SQL statement (and Discord's 3 s scaled down to 1.5 s, no margin), /newgame and Join still
    answer in time, and the lobby ends up showing every seat."""
    alice, bob = world.players[:2]
    bot = world.bot()
    bot.defer_after = 0.3  # type: ignore[attr-defined]
    world.double.initial_response_deadline = 1.5  # refused (10062) after 1.5 s of real time
    async with world.running(bot):
        slow_sql.delay = 0.15
        handle = await newgame(alice, world.games, "potato", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel", "Add AI", "Remove AI",
                                                        "Options"]
        assert alice.mention in lobby.text
        await (await bob.click(lobby, label="Join")).response()
        await world.double.wait_for(lambda: bob.mention in lobby.text, what="bob in the lobby")
        slow_sql.reset()


async def test_a_refused_newgame_answer_still_shows_the_lobby(world: World) -> None:
    """Discord refuses the answer to /newgame (the interaction expired): the lobby is posted in the channel all the
    same, so no lobby without a message blocks the channel."""
    async with world.running():
        world.double.fail_once("POST", CALLBACK, status=404)
        await newgame(world.players[0], world.games, "potato", "classic")
        lobby = await world.double.wait_for(lambda: lobbies(world) and lobbies(world)[-1], what="the lobby message")

        async def lobby_stored() -> bool:  # the bot stores the message's id after Discord created it
            table = await world.tables.table_in_channel(world.games.id)
            return table is not None and table.lobby_message_id == lobby.id

        await stored(world, lobby_stored, "the lobby message's id stored")
        await (await world.players[1].click(lobby, label="Join")).response()
        assert world.players[1].mention in lobby.text


async def test_a_refused_join_answer_still_shows_the_seat(world: World) -> None:
    """Discord refuses the answer to a Join click: the player is seated and the lobby message lists them."""
    alice, bob = world.players[:2]
    async with world.running():
        handle = await newgame(alice, world.games, "potato", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        world.double.fail_once("POST", CALLBACK, status=404)
        await bob.click(lobby, label="Join")
        await world.double.wait_for(lambda: bob.mention in lobby.text, what="bob in the lobby")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.seat_of(bob.id) == 1


async def test_a_late_join_answer_never_reopens_a_started_game(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """bob's Join commits, the host starts before bob's answer is sent: the lobby message stays the game's table
    (it became the table at the start), not the open lobby."""
    alice, bob = world.players[:2]
    joined, release = asyncio.Event(), asyncio.Event()
    join = TableService.join

    async def late(self: TableService, *args: Any, **kwargs: Any) -> Any:
        result = await join(self, *args, **kwargs)
        if args[1] == bob.id:
            joined.set()
            await release.wait()
        return result

    monkeypatch.setattr(TableService, "join", late)
    async with world.running():
        handle = await newgame(alice, world.games, "potato", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        await bob.click(lobby, label="Join")
        await asyncio.wait_for(joined.wait(), 5)
        await (await alice.click(lobby, label="Start")).response()
        await until_version(world, table.id, table.version + 2)
        release.set()
        await world.double.wait_for(lambda: any(":pass:" in b["custom_id"] for b in lobby.buttons()),
                                    what="the lobby become the table")
        await settled(world)  # bob's late answer, if any, has landed
        assert lobby.embeds[0]["title"] == "Hot Potato" and "Join" not in [b.get("label") for b in lobby.buttons()]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the latency is injected: one backend is enough
async def test_a_slow_move_on_the_table_is_deferred_then_the_table_edited(world: World, slow_sql: SlowSql) -> None:
    """With 100 ms per SQL statement (and Discord's 3 s scaled down to 1 s, no margin), a move made with the
    table's button is acknowledged in time with a deferred update (callback type 6), and the table is edited after
    to the new version (the deferred answer's edit, not a new message)."""
    bot = world.bot()
    bot.defer_after = 0.2  # type: ignore[attr-defined]
    world.double.initial_response_deadline = 1.0  # refused (10062) after 1 s of real time
    async with world.running(bot):
        first = await start_three(world)
        await until_delivered(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
        slow_sql.delay = 0.1
        handle = await holder_of(world, table).click(first, custom_id=pass_button(first))
        assert (await handle.response()).type == 6
        await world.double.wait_for(lambda: versions_on(first) == {table.version + 1}, timeout=10,
                                    what="the table's edit")
        slow_sql.reset()
        assert (await world.tables.load(table.id)).version == table.version + 1
        assert [m.id for m in world.bot_messages() if versions_on(m)] == [first.id]
