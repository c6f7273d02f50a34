"""Private threads through discord.py against the double: create, members, post, archive and lock, and Discord's
refusals (50013 without Create Private Threads / Send Messages in Threads / Manage Threads, 50083 once archived)."""

from __future__ import annotations

import discord
import pytest

from tests.discord_double.model import PRIVATE_THREAD
from tests.discord_double.permissions import (
    CREATE_PRIVATE_THREADS,
    MANAGE_THREADS,
    PRIVATE_THREADS,
    README_MINIMAL,
    SEND_MESSAGES_IN_THREADS,
)
from tests.discord_double_tests._bot import DoubleBot
from tests.discord_double_tests.conftest import World


async def _thread(world: World, bot: DoubleBot, deny: int = 0) -> discord.Thread:
    """A private thread in #games made by the bot, which holds the thread permissions but ``deny`` there."""
    world.double.set_bot_permissions(world.guild, README_MINIMAL | PRIVATE_THREADS)
    if deny:
        world.double.set_bot_channel_permissions(world.games, deny=deny)
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    return await channel.create_thread(name="the dead", type=discord.ChannelType.private_thread, invitable=False)


async def test_private_thread_is_created_with_the_bot_as_its_only_member(world: World, bot: DoubleBot) -> None:
    """POST /channels/{id}/threads with type 12 makes a private thread under the channel, the bot in it."""
    thread = await _thread(world, bot)
    stored = world.double.channels[thread.id]
    assert (stored.type, stored.parent_id, stored.name, stored.invitable) == (PRIVATE_THREAD, world.games.id,
                                                                              "the dead", False)
    assert world.double.thread_members(stored) == {world.double.bot_user.id}
    assert world.double.threads_of(world.games) == [stored]
    await world.double.wait_for(lambda: bot.get_channel(thread.id) is not None, what="THREAD_CREATE cached")
    world.double.assert_clean()


async def test_members_are_added_listed_and_removed(world: World, bot: DoubleBot) -> None:
    """add_user / remove_user / fetch_members change and list the thread's members."""
    thread = await _thread(world, bot)
    await thread.add_user(discord.Object(id=world.alice.id))
    await thread.add_user(discord.Object(id=world.bob.id))
    stored = world.double.channels[thread.id]
    assert world.double.thread_members(stored) == {world.double.bot_user.id, world.alice.id, world.bob.id}
    listed = {m.id for m in await thread.fetch_members()}
    assert listed == {world.double.bot_user.id, world.alice.id, world.bob.id}
    await thread.remove_user(discord.Object(id=world.bob.id))
    assert world.double.thread_members(stored) == {world.double.bot_user.id, world.alice.id}
    world.double.assert_clean()


async def test_posting_and_archiving_with_a_lock(world: World, bot: DoubleBot) -> None:
    """The bot posts in the thread, then archives and locks it: a locked archived thread refuses a message (50083)
    and a new member (50083)."""
    thread = await _thread(world, bot)
    await thread.send("welcome")
    stored = world.double.channels[thread.id]
    assert world.double.last_message(stored).content == "welcome"
    await thread.edit(archived=True, locked=True)
    assert (stored.archived, stored.locked) == (True, True)
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("too late")
    assert (refused.value.status, refused.value.code) == (400, 50083)
    with pytest.raises(discord.HTTPException) as late_member:
        await thread.add_user(discord.Object(id=world.alice.id))
    assert late_member.value.code == 50083
    world.double.assert_clean()


async def test_a_message_unarchives_an_unlocked_thread(world: World, bot: DoubleBot) -> None:
    """Posting in an archived thread that is not locked unarchives it, as Discord does."""
    thread = await _thread(world, bot)
    await thread.edit(archived=True)
    await thread.send("back")
    assert world.double.channels[thread.id].archived is False


@pytest.mark.parametrize(("missing", "step"), [
    (CREATE_PRIVATE_THREADS, "create"),
    (SEND_MESSAGES_IN_THREADS, "add"),
    (SEND_MESSAGES_IN_THREADS, "send"),
    (MANAGE_THREADS, "lock"),
])
async def test_a_missing_thread_permission_is_50013(world: World, bot: DoubleBot, missing: int, step: str) -> None:
    """Without Create Private Threads the thread is not made; without Send Messages in Threads nobody is added and
    nothing posted; without Manage Threads it is not locked: 403 / 50013 each time, nothing changed (the bit is
    denied in the channel: @everyone holds Send Messages in Threads by default)."""
    if step == "create":
        with pytest.raises(discord.Forbidden) as refused:
            await _thread(world, bot, missing)
        assert refused.value.code == 50013
        assert world.double.threads_of(world.games) == []
        return
    thread = await _thread(world, bot, missing)
    stored = world.double.channels[thread.id]
    with pytest.raises(discord.Forbidden) as refused:
        if step == "add":
            await thread.add_user(discord.Object(id=world.alice.id))
        elif step == "send":
            await thread.send("hello")
        else:
            await thread.edit(archived=True, locked=True)
    assert (refused.value.status, refused.value.code) == (403, 50013)
    assert world.double.thread_members(stored) == {world.double.bot_user.id}
    assert world.double.messages(stored) == [] and not stored.locked and not stored.archived


async def test_a_channel_overwrite_decides_the_bot_permissions_there(world: World, bot: DoubleBot) -> None:
    """Per channel, as Discord computes it: the bot holds the thread permissions server-wide but an overwrite
    denies Create Private Threads in one channel (50013 there), and a thread has its parent's permissions."""
    world.double.set_bot_permissions(world.guild, README_MINIMAL | PRIVATE_THREADS)
    world.double.set_bot_channel_permissions(world.medium, deny=CREATE_PRIVATE_THREADS)
    medium = bot.get_channel(world.medium.id)
    assert isinstance(medium, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as refused:
        await medium.create_thread(name="no", type=discord.ChannelType.private_thread)
    assert refused.value.code == 50013
    world.double.set_bot_permissions(world.guild, README_MINIMAL)
    world.double.set_bot_channel_permissions(world.games, allow=PRIVATE_THREADS)
    games = bot.get_channel(world.games.id)
    assert isinstance(games, discord.TextChannel)
    thread = await games.create_thread(name="yes", type=discord.ChannelType.private_thread)
    await thread.add_user(discord.Object(id=world.alice.id))
    assert world.alice.id in world.double.thread_members(world.double.channels[thread.id])


async def test_only_members_see_a_private_thread(world: World, bot: DoubleBot) -> None:
    """A scripted user outside a private thread cannot post in it; once added they can."""
    thread = await _thread(world, bot)
    stored = world.double.channels[thread.id]
    with pytest.raises(LookupError):
        await world.alice.say(stored, "let me in")
    await thread.add_user(discord.Object(id=world.alice.id))
    said = await world.alice.say(stored, "hello")
    assert world.double.last_message(stored) is said
