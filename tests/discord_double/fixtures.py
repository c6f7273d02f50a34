"""pytest helpers for the Discord double: import them in a conftest.py.

    from tests.discord_double.fixtures import double, running_bot  # noqa: F401

``double`` starts a :class:`DiscordDouble`, points discord.py at it, and at teardown fails the test if the bot
called an unknown route, sent a body the OpenAPI spec rejects (refused at request time too) or the double's own
replies broke the spec (set ``double.strict = False`` to opt out).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import discord
import pytest
import yarl

from tests.discord_double.server import TOKEN, DiscordDouble, DoubleTimeout


@contextlib.contextmanager
def pointed_at(double: DiscordDouble) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at ``double`` for the duration of the block."""
    route_base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = f"{double.api_base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(double.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = route_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    """A started double with discord.py pointed at it; fails at teardown on unknown routes or schema violations."""
    d = DiscordDouble()
    await d.start()
    try:
        with pointed_at(d):
            yield d
    finally:
        await d.stop()
    if d.strict:
        d.assert_clean()


#: the bots :func:`running_bot` runs now (a test's helper may look into them, e.g. to write the marks they hold)
RUNNING: list[discord.Client] = []


@contextlib.asynccontextmanager
async def running_bot(bot: discord.Client, *, timeout: float = 10.0, token: str = TOKEN) -> AsyncIterator[None]:
    """Run ``bot`` against the double (already pointed at) until the block ends; waits for ``on_ready``."""
    task = asyncio.create_task(bot.start(token), name="bot-under-test")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    RUNNING.append(bot)
    try:
        while not bot.is_ready():
            if task.done():
                task.result()
                raise RuntimeError("the bot stopped before it was ready")
            if loop.time() > deadline:
                raise DoubleTimeout(f"the bot was not ready within {timeout}s")
            await asyncio.wait({task}, timeout=0.02)
        yield
    finally:
        RUNNING.remove(bot)
        await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=5)
