"""A server's settings cached by one bot process follow a ``/config`` handled by another within ``CONFIG_TTL``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import CONFIG_TTL
from bot.bot import CoronerBot
from bot.clock import FakeClock
from bot.guild_config import update_config
from bot.settings import Settings


async def test_another_process_config_change_is_seen_after_the_ttl_and_the_cache_stays_bounded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cached language holds until CONFIG_TTL has passed since it was read, then the other process's change
    shows; the cache keeps at most CONFIG_CACHE servers, dropping the least recently read."""
    clock = FakeClock()
    settings = Settings(_env_file=None, database_url=f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    bot = CoronerBot(settings, clock=clock)
    await bot.open_database()
    try:
        assert (await bot.config(1)).language == "en"
        async with bot.sessions() as session, session.begin():  # /config in another process
            await update_config(session, 1, language="es")
        clock.advance(CONFIG_TTL / 2)
        assert (await bot.config(1)).language == "en"
        clock.advance(CONFIG_TTL / 2)
        assert (await bot.config(1)).language == "es"
        monkeypatch.setattr("bot.app.CONFIG_CACHE", 3)
        for guild in (2, 3, 1, 4):
            await bot.config(guild)
        assert list(bot._configs) == [3, 1, 4]
    finally:
        await bot.db_engine.dispose()
