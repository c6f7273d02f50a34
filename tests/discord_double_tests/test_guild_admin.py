"""Guild administration through discord.py against the double: channels, overwrites, roles, threads, history."""

from __future__ import annotations

import discord

from tests.discord_double.permissions import CREATE_PRIVATE_THREADS, MANAGE_CHANNELS, MANAGE_ROLES, README_MINIMAL
from tests.discord_double_tests._bot import DoubleBot
from tests.discord_double_tests.conftest import World


async def test_private_channel_with_overwrites_is_created(world: World, bot: DoubleBot) -> None:
    """create_text_channel with overwrites stores them and the bot's cache gets CHANNEL_CREATE."""
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_CHANNELS | MANAGE_ROLES)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    bob = await guild.fetch_member(world.bob.id)
    overwrites = {guild.default_role: discord.PermissionOverwrite(view_channel=False),
                  bob: discord.PermissionOverwrite(view_channel=True)}
    created = await guild.create_text_channel("secret", overwrites=overwrites)
    stored = world.double.channels[created.id]
    assert stored.name == "secret" and stored.guild is world.guild
    assert not world.guild.member(world.alice).permissions(stored) & (1 << 10)
    assert world.guild.member(world.bob).permissions(stored) & (1 << 10)
    await world.double.wait_for(lambda: guild.get_channel(created.id) is not None)


async def test_set_permissions_and_roles_are_applied(world: World, bot: DoubleBot) -> None:
    """set_permissions and add_roles/remove_roles change the double's state and reach the bot as updates."""
    world.double.set_bot_permissions(world.guild, README_MINIMAL | MANAGE_ROLES)
    guild = bot.get_guild(world.guild.id)
    channel = bot.get_channel(world.games.id)
    assert guild is not None and isinstance(channel, discord.TextChannel)
    alice = await guild.fetch_member(world.alice.id)
    await channel.set_permissions(alice, send_messages=False)
    assert world.games.overwrites == [{"id": str(world.alice.id), "type": 1, "allow": "0", "deny": str(1 << 11)}]
    role = await guild.create_role(name="alive")
    await alice.add_roles(role)
    assert role.id in world.guild.member(world.alice).role_ids
    await alice.remove_roles(role)
    assert role.id not in world.guild.member(world.alice).role_ids


async def test_thread_messages_and_history(world: World, bot: DoubleBot) -> None:
    """A private thread can be created (with Create Private Threads) and posted in; channel history comes back newest
    first."""
    world.double.set_bot_permissions(world.guild, README_MINIMAL | CREATE_PRIVATE_THREADS)
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="night", type=discord.ChannelType.private_thread)
    await thread.send("in the thread")
    assert world.double.last_message(world.double.channels[thread.id]).content == "in the thread"
    for text in ("one", "two", "three"):
        await channel.send(text)
    history = [m.content async for m in channel.history(limit=2)]
    assert history == ["three", "two"]
    fetched = await channel.fetch_message(world.double.messages(world.games)[0].id)
    await fetched.edit(content="uno")
    await fetched.delete()
    assert [m.content for m in world.double.messages(world.games)] == ["two", "three"]
    assert world.double.messages(world.games, include_deleted=True)[0].history[0]["content"] == "one"
