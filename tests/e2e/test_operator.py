"""What the operator sees when the bot starts against the loopback Discord: one line saying what started (no
password) and the invite URL."""

from __future__ import annotations

import logging

import pytest

from tests.discord_double.server import TOKEN
from tests.e2e.conftest import World, refusal
from tests.support.newgame import newgame


async def test_dev_guild_the_bot_is_not_in_is_one_line(world: World) -> None:
    """DEV_GUILD_ID naming a server that refuses the commands (403): the start fails with one line naming it."""
    from bot.bot import CoronerBot
    from bot.settings import Settings, StartupError

    world.double.fail_once("PUT", r"/guilds/\d+/commands$", status=403)
    settings = Settings(_env_file=None, discord_token=TOKEN, database_url=world.db_url,
                        discord_api_base=world.double.api_base, dev_guild_id=123)
    with pytest.raises(StartupError) as err:
        async with world.running(CoronerBot(settings, clock=world.clock, guild_ready_timeout=0.05)):
            pass
    assert str(err.value) == ("Discord refused to register the commands in DEV_GUILD_ID 123 (403 Forbidden); invite "
                              "the bot to that server with the applications.commands scope, or unset DEV_GUILD_ID")


async def test_start_says_what_it_did_in_one_line(world: World, caplog: pytest.LogCaptureFixture) -> None:
    """One "ready" line (version, database without password, shards, servers, commands synced), then the invite."""
    with caplog.at_level(logging.INFO, logger="coroner"):
        async with world.running():
            await world.double.wait_for(lambda: len([r for r in caplog.records if r.name == "coroner"]) >= 2,
                                        what="the ready line and the invite")
            lines = [r.getMessage() for r in caplog.records if r.name == "coroner"]
    ready, invite = lines[:2]
    assert ready.startswith("coroner 0.")
    assert " ready as " in ready
    database = world.db_url.split("@")[-1]
    assert f"/{database.split('/')[-1]}, shards 0 of 1, servers 1, " in ready
    assert ready.endswith(" commands synced globally")
    assert int(ready.split(", ")[-1].split()[0]) >= 10
    assert invite.startswith("invite: https://discord.com/oauth2/authorize?client_id=")
    assert invite.endswith("&scope=bot+applications.commands&permissions=117760")
    assert sum("ready as" in line for line in lines) == 1


def _option(command: dict, *path: str) -> dict:
    """The option (or subcommand) at ``path`` of a registered command payload."""
    node = command
    for name in path:
        node = next(o for o in node["options"] if o["name"] == name)
    return node


async def test_config_is_guild_only_for_managers_with_declared_ranges(world: World) -> None:
    """/config is registered guild-only with Manage Server as default permission; its option ranges are the
    declaration's, so Discord never sends a value outside them (the double refuses it as Discord's client does;
    the bot's own refusal of one, in the server's language, is tested with the declaration,
    ``tests/db/test_guild_config.py``)."""
    from bot.guild_config import limits

    async with world.running():
        spanish = await (await world.admin.slash(world.games, "config language", language="es")).response()
        assert "Guardado." in str(spanish.embeds)
        with pytest.raises(ValueError, match="above its max_value 604800"):
            await world.admin.slash(world.games, "config timeouts", response_window_seconds=10**9)
    config = next(c for c in world.double.commands_registered() if c["name"] == "config")
    assert config["default_member_permissions"] == "32"  # MANAGE_GUILD
    assert config.get("contexts") == [0] or config.get("dm_permission") is False
    window = _option(config, "timeouts", "response_window_seconds")
    assert (window["min_value"], window["max_value"]) == limits("response_window_seconds") == (10, 604800)


async def test_time_zone_is_offered_by_autocomplete(world: World) -> None:
    """Typing part of a city in /config days timezone suggests the matching IANA names."""
    async with world.running():
        handle = await world.admin.autocomplete(world.games, "config days", "timezone", timezone="madr")
        suggested = (await handle.response()).choices
    assert suggested == [{"name": "Europe/Madrid", "value": "Europe/Madrid"}]


async def test_gamechannel_add_remove_clear_say_what_changed(world: World) -> None:
    """/config gamechannel add lists a channel, add again and removing an unlisted one are refused, clear
    allows every channel again."""
    async with world.running():
        added = await (await world.admin.slash(world.games, "config gamechannel add", channel=world.games)).response()
        assert world.games.mention in str(added.embeds)
        again = await world.admin.slash(world.games, "config gamechannel add", channel=world.games)
        assert f"{world.games.mention} is already a game channel; nothing changed." in await refusal(again)
        unlisted = await world.admin.slash(world.games, "config gamechannel remove", channel=world.medium)
        assert "is not in the list of game channels" in await refusal(unlisted)
        cleared = await (await world.admin.slash(world.games, "config gamechannel clear")).response()
        assert "any channel" in str(cleared.embeds)
        assert world.games.mention not in str(cleared.embeds)
        refused = await world.players[0].slash(world.games, "config gamechannel clear")
        assert "Manage Server" in await refusal(refused)


@pytest.mark.usefixtures("potato")
async def test_leave_command_unseats_the_player(world: World) -> None:
    """/leave in a lobby's channel unseats the player (same as the Leave button) and says so privately."""
    alice, bob = world.players[:2]
    async with world.running():
        lobby = await (await newgame(alice, world.games, "potato", "classic")).response()
        await (await bob.slash(world.games, "join")).response()
        left = await (await bob.slash(world.games, "leave")).response()
        assert left.ephemeral and left.content == "You left the game."
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None and [s.user_id for s in table.seats] == [alice.id]
        again = await bob.slash(world.games, "leave")
        assert "⛔" in await refusal(again)
    assert lobby.embeds
