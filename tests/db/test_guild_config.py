"""Guild settings: declared defaults, validation, unknown keys refused, stored one column per setting."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import GuildSettings
from bot.guild_config import GuildConfig, SettingRefused, choices, get_config, limits, option_range, update_config
from bot.i18n.catalog import load_language

Sessions = async_sessionmaker[AsyncSession]


def test_defaults_are_declared() -> None:
    """A guild that configured nothing plays in English, daily days at 09:00 UTC, in any channel."""
    config = GuildConfig()
    assert config.model_dump() == {
        "language": "en", "medium_channel_id": None, "game_channel_ids": [], "day_length_minutes": 1440,
        "day_boundary": "09:00", "timezone": "UTC", "turn_timeout_seconds": 300, "response_window_seconds": 900,
        "lobby_timeout_minutes": 30, "prompt_timeout_seconds": 180, "dead_role_id": None, "lobby_role_id": None,
        "table_repost_after": 8, "turn_ping_seconds": 30, "social_max_days": 14,
        "timeouts_to_computer": 2,
    }
    assert config.allows_channel(123)


def test_every_setting_has_a_column() -> None:
    """The guild_settings table holds exactly the GuildConfig fields (plus its key and timestamp)."""
    columns = {c.key for c in inspect(GuildSettings).columns}
    assert columns == set(GuildConfig.model_fields) | {"guild_id", "updated_at"}


@pytest.mark.parametrize(("changes", "code", "params"), [
    ({"colour": "red"}, "config.refused.unknown", {}),
    ({"language": "fr"}, "config.refused.choice", {"choices": "en, es"}),
    ({"timezone": "Mars/Olympus"}, "config.refused.timezone", {"value": "Mars/Olympus"}),
    ({"day_boundary": "24:00"}, "config.refused.boundary", {}),
    ({"day_boundary": "9:00"}, "config.refused.boundary", {}),
    ({"day_length_minutes": 9}, "config.refused.range", {"min": 10, "max": 10080}),
    ({"turn_timeout_seconds": "soon"}, "config.refused.range", {"min": 10, "max": 604800}),
    ({"response_window_seconds": 5}, "config.refused.range", {"min": 10, "max": 604800}),
    ({"lobby_timeout_minutes": 7 * 1440 + 1}, "config.refused.range", {"min": 1, "max": 10080}),
    ({"game_channel_ids": "everywhere"}, "config.refused.invalid", {}),
])
async def test_bad_changes_are_refused_and_nothing_is_written(sessions: Sessions, changes: dict[str, object],
                                                              code: str, params: dict[str, object]) -> None:
    """Unknown keys and bad values raise SettingRefused (a ValueError) with a catalogue code, the setting and
    the declared limits, never pydantic's text; no row is left behind."""
    async with sessions() as session:
        with pytest.raises(SettingRefused) as err:
            await update_config(session, 1, **changes)
        assert isinstance(err.value, ValueError)
        assert (err.value.setting, err.value.code, err.value.params) == (next(iter(changes)), code, params)
        await session.commit()
    async with sessions() as session:
        assert await session.get(GuildSettings, 1) is None


@pytest.mark.parametrize("code", ["config.refused.range", "config.refused.choice", "config.refused.timezone",
                                  "config.refused.boundary", "config.refused.unknown", "config.refused.invalid"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_every_refusal_has_words_in_both_languages(code: str, language: str) -> None:
    """Each refusal code is a catalogue message in English and Spanish that names the setting."""
    messages = load_language(language)
    assert code in messages and "{setting}" in messages[code]


def test_limits_come_from_the_declaration() -> None:
    """limits() reads the declared bounds; option_range() turns them into the slash-command option range."""
    assert limits("response_window_seconds") == (10, 7 * 86400)
    assert limits("prompt_timeout_seconds") == (10, 86400)
    assert limits("language") is None
    bounds = option_range("turn_timeout_seconds")
    assert (bounds.min_value, bounds.max_value) == limits("turn_timeout_seconds")
    assert choices("language") == ("en", "es")


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


async def test_config_options_take_their_limits_from_the_declaration() -> None:
    """Every value option of /config names a declared setting and carries exactly its limits (min/max) and choices;
    every numeric setting can be changed by one of them."""
    from discord import app_commands

    from bot.bot import CoronerBot
    from bot.cogs.admin.cog import OPTION_SETTINGS
    from bot.settings import Settings

    bot = CoronerBot(Settings(_env_file=None, discord_token="x"))
    await bot.load_extension("bot.cogs.admin")
    config = bot.tree.get_command("config")
    assert isinstance(config, app_commands.Group)
    seen = set()
    for command in config.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            setting = OPTION_SETTINGS.get(parameter.name)
            if setting is None:
                continue
            seen.add(setting)
            bounds = limits(setting)
            assert (parameter.min_value, parameter.max_value) == (bounds or (None, None)), parameter.name
        if command.name == "language":
            assert [c.value for c in command.parameters[0].choices] == list(choices("language"))
    numeric = {name for name in GuildConfig.model_fields if limits(name) is not None}
    assert numeric <= seen == set(OPTION_SETTINGS.values())
