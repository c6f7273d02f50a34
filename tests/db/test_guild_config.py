"""Guild settings: declared defaults, validation, unknown keys refused, stored one column per setting."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GuildSettings
from bot.guild_config import GuildConfig, get_config, update_config

Sessions = async_sessionmaker[AsyncSession]


def test_defaults_are_declared() -> None:
    """A guild that configured nothing plays in English, daily days at 09:00 UTC, in any channel."""
    config = GuildConfig()
    assert config.model_dump() == {
        "language": "en", "medium_channel_id": None, "game_channel_ids": [], "day_length_minutes": 1440,
        "day_boundary": "09:00", "timezone": "UTC", "turn_timeout_seconds": 300, "response_window_seconds": 900,
        "lobby_timeout_minutes": 30, "prompt_timeout_seconds": 180, "dead_role_id": None,
        "table_repost_after": 8, "turn_ping_seconds": 30, "social_max_days": 14,
    }
    assert config.allows_channel(123)


def test_every_setting_has_a_column() -> None:
    """The guild_settings table holds exactly the GuildConfig fields (plus its key and timestamp)."""
    columns = {c.key for c in inspect(GuildSettings).columns}
    assert columns == set(GuildConfig.model_fields) | {"guild_id", "updated_at"}


@pytest.mark.parametrize(("changes", "fragment"), [
    ({"colour": "red"}, "Extra inputs are not permitted"),
    ({"language": "fr"}, "language"),
    ({"timezone": "Mars/Olympus"}, "unknown time zone"),
    ({"day_boundary": "24:00"}, "HH:MM"),
    ({"day_boundary": "9:00"}, "HH:MM"),
    ({"day_length_minutes": 9}, "greater than or equal to 10"),
    ({"turn_timeout_seconds": "soon"}, "turn_timeout_seconds"),
])
async def test_bad_changes_are_refused_and_nothing_is_written(sessions: Sessions, changes: dict[str, object],
                                                              fragment: str) -> None:
    """Unknown keys and bad values raise a pydantic ValidationError (a ValueError) and leave no row."""
    async with sessions() as session:
        with pytest.raises(ValidationError, match=fragment) as err:
            await update_config(session, 1, **changes)
        assert isinstance(err.value, ValueError)
        await session.commit()
    async with sessions() as session:
        assert await session.get(GuildSettings, 1) is None


async def test_missing_guild_gets_the_defaults(sessions: Sessions) -> None:
    """get_config of a guild with no row is GuildConfig() and writes nothing."""
    async with sessions() as session:
        assert await get_config(session, 42) == GuildConfig()


async def test_updates_persist_and_accumulate(sessions: Sessions) -> None:
    """Successive updates keep earlier changes; other guilds are untouched."""
    async with sessions() as session, session.begin():
        await update_config(session, 1, language="es", timezone="Europe/Madrid", game_channel_ids=[5, 6])
    async with sessions() as session, session.begin():
        config = await update_config(session, 1, day_boundary="21:30", medium_channel_id=2**60)
    assert (config.language, config.timezone, config.day_boundary) == ("es", "Europe/Madrid", "21:30")
    async with sessions() as session:
        stored = await get_config(session, 1)
        assert stored == config
        assert stored.game_channel_ids == [5, 6] and not stored.allows_channel(7)
        assert stored.timezone == "Europe/Madrid"
        assert await get_config(session, 2) == GuildConfig()
