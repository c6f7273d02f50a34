"""The 3-second rule whatever the database does, and a lobby and its message as one unit (issue 9): a slow
database, an interaction answer Discord refuses, and a late Join answer racing the Start."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.util import await_only

import bot.db.session as session_module
from bot.tables import TableService
from tests.discord_double import StoredMessage
from tests.e2e.conftest import World
from tests.e2e.test_durable import until_version
from tests.support.newgame import newgame

pytestmark = pytest.mark.usefixtures("potato")
CALLBACK = r"/interactions/\d+/[^/]+/callback"


@dataclass
class SlowSql:
    """Seconds every SQL statement of the bot waits before it runs (0: no delay). The wait is an asyncio sleep
    inside SQLAlchemy's greenlet, so the event loop (and the Discord double) keeps running meanwhile."""

    delay: float = 0.0


@pytest.fixture
def slow_sql(monkeypatch: pytest.MonkeyPatch) -> SlowSql:
    """Injects :class:`SlowSql` latency into every engine the bot creates from now on."""
    latency = SlowSql()
    real = session_module.create_engine

    def slow_engine(url: str = session_module.DEFAULT_URL, **kwargs: Any) -> Any:
        engine = real(url, **kwargs)

        def wait(*_: Any) -> None:
            if latency.delay:
                await_only(asyncio.sleep(latency.delay))

        event.listen(engine.sync_engine, "before_cursor_execute", wait)
        return engine

    monkeypatch.setattr(session_module, "create_engine", slow_engine)
    return latency


def lobbies(world: World) -> list[StoredMessage]:
    return [m for m in world.bot_messages() if any(b.get("label") == "Join" for b in m.buttons())]


async def test_newgame_and_join_answer_in_time_on_a_slow_database(world: World, slow_sql: SlowSql) -> None:
    """With 150 ms per SQL statement (and Discord's 3 s scaled down to 1.5 s), /newgame and Join still answer in
    time, and the lobby ends up showing every seat."""
    alice, bob = world.players[:2]
    bot = world.bot()
    bot.defer_after = 0.3  # type: ignore[attr-defined]
    world.double.interaction_timeout = 1.5
    async with world.running(bot):
        slow_sql.delay = 0.15
        handle = await newgame(alice, world.games, "potato", "classic")
        await handle.response()
        lobby = await handle.wait_original()
        assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel", "Add AI", "Remove AI"]
        assert alice.mention in lobby.text
        await (await bob.click(lobby, label="Join")).response()
        await world.double.wait_for(lambda: bob.mention in lobby.text, what="bob in the lobby")
        slow_sql.delay = 0.0


async def test_a_refused_newgame_answer_still_shows_the_lobby(world: World) -> None:
    """Discord refuses the answer to /newgame (the interaction expired): the lobby is posted in the channel all the
    same, so no lobby without a message blocks the channel."""
    async with world.running():
        world.double.fail_once("POST", CALLBACK, status=404)
        await newgame(world.players[0], world.games, "potato", "classic")
        lobby = await world.double.wait_for(lambda: lobbies(world) and lobbies(world)[-1], what="the lobby message")
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and table.lobby_message_id == lobby.id
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
        for _ in range(10):  # let every pending edit land
            await asyncio.sleep(0.02)
        assert lobby.embeds[0]["title"] == "Hot Potato" and "Join" not in [b.get("label") for b in lobby.buttons()]
