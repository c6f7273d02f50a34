"""The lobby message across processes: an edit from a click (one process) and one from the lobby's expiry (another
process) may reach Discord in either order; the message ends on the latest committed lobby."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.cogs.lobby.cog import Lobby
from bot.cogs.lobby.render import lobby_embed
from bot.tables import TableService
from tests.db.backends import db_url, engine, other, pg_database, sessions
from tests.support import potato
from tests.tables.conftest import NOW
from tests.tables.helpers import CHANNEL, GUILD, HOST

__all__ = ["db_url", "engine", "other", "pg_database", "sessions"]
Sessions = async_sessionmaker[AsyncSession]
pytestmark = pytest.mark.parametrize("db_url", [pytest.param("postgres", marks=pytest.mark.postgres)],
                                     indirect=True)
MESSAGE = 2**60


class Message:
    """The lobby message as Discord keeps it: the edits in the order they land; an edit can be held in flight."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []
        self.held: asyncio.Event | None = None
        self.in_flight = asyncio.Event()

    async def edit(self, *, embed: discord.Embed, view: discord.ui.View | None, **_heading: str | None) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            self.in_flight.set()
            await held.wait()
        self.edits.append({"embed": embed.to_dict(), "buttons": view is not None})


def process(service: TableService, message: Message) -> Lobby:
    """The lobby cog of one process, over its table service; its channel's lobby message is ``message``."""
    channel = SimpleNamespace(get_partial_message=lambda message_id: message if message_id == MESSAGE else None)

    async def channel_of(channel_id: int) -> Any:
        return channel

    bot = SimpleNamespace(tables=service, timers=SimpleNamespace(on=lambda kind, handler: None),
                          delivery=SimpleNamespace(channel=channel_of))
    return Lobby(bot)  # type: ignore[arg-type]


async def test_an_edit_landing_after_the_expiry_is_followed_by_the_expired_lobby(sessions: Sessions,
                                                                               other: Sessions) -> None:
    """Process A renders the lobby after a join, but its edit lands only after process B expired the lobby and
    edited the message: A reads the lobby again after its edit and shows the expired lobby, so the message never
    stays an open lobby with buttons over a closed one."""
    potato.install()
    now = [NOW]
    a, b = TableService(sessions, clock=lambda: now[0]), TableService(other, clock=lambda: now[0])
    table = await a.open_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {"passes": 3},
                               host_names=["host"], expires_at=NOW + timedelta(hours=1))
    await a.set_lobby_message(table.id, MESSAGE)
    message = Message()
    clicks, expiry = process(a, message), process(b, message)
    joined = await a.join(table.id, HOST + 1, ["p1"])
    message.held = release = asyncio.Event()
    click = asyncio.create_task(clicks._refresh_lobby(joined))
    await message.in_flight.wait()  # A's edit (the open lobby with two players) is on its way
    now[0] = NOW + timedelta(hours=1)
    await expiry.on_lobby_expire(SimpleNamespace(game_id=table.id))
    release.set()
    await click
    closed = await a.load(table.id)
    assert closed.status == "cancelled" and await a.lobby_expired(table.id)
    expired = {"embed": lobby_embed(closed, "en", None, expired=True).to_dict(), "buttons": False}
    opened = lobby_embed(joined, "en", int((NOW + timedelta(hours=1)).timestamp()))
    assert message.edits == [expired, {"embed": opened.to_dict(), "buttons": True}, expired]


async def test_a_host_cancel_is_not_an_expiry(sessions: Sessions) -> None:
    """A lobby its host cancels before its deadline is shown cancelled, not expired."""
    potato.install()
    a = TableService(sessions, clock=lambda: NOW)
    table = await a.open_lobby(GUILD, CHANNEL, HOST, "potato", "classic", {"passes": 3},
                               host_names=["host"], expires_at=NOW + timedelta(hours=1))
    await a.set_lobby_message(table.id, MESSAGE)
    message = Message()
    cancelled = await a.cancel(table.id, HOST, is_manager=False)
    await process(a, message)._refresh_lobby(cancelled)
    assert not await a.lobby_expired(table.id)
    assert message.edits == [{"embed": lobby_embed(cancelled, "en", None).to_dict(), "buttons": False}]
