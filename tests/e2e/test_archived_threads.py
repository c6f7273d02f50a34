"""A game played in a thread stays listed to who may read about it after the thread is archived (:mod:`bot.members`
asks Discord for a channel its cache does not hold): Discord sends only active threads when the bot connects and
discord.py forgets a thread when it is archived, and Discord archives a quiet thread within a week, so a tester found
the game's own players no longer shown it in ``/history`` (only managers were, as for a deleted channel)."""

from __future__ import annotations

import pytest

from tests.discord_double import Channel
from tests.discord_double._ids import iso_now
from tests.discord_double.model import PUBLIC_THREAD
from tests.e2e.conftest import World
from tests.e2e.test_history import finished_games
from tests.e2e.test_private_channels import listed, private_thread

pytestmark = pytest.mark.usefixtures("potato")


async def test_a_finished_game_of_an_archived_private_thread_is_still_listed_to_the_threads_members(
        world: World) -> None:
    """alice and bob's game in their private thread, finished; the thread archived before the bot starts. Before:
    alice's /history lists nothing (the game shows to managers only, as if the thread were deleted)."""
    public = world.games
    thread = private_thread(world)
    world.games = thread
    (game_id,) = await finished_games(world, 1)
    world.games = public
    thread.archived = True  # (still there: a member may open it, Discord lists it among the archived threads)
    async with world.running():
        alices = await listed(world, world.players[0], public)
    assert f"**#{game_id}**" in alices, alices


async def test_a_finished_game_of_an_archived_public_thread_is_still_listed_to_who_views_its_channel(
        world: World) -> None:
    """The same in a public thread under #games, which everyone who views #games may open: dave (who did not
    play) and alice (who did) are shown nothing."""
    public = world.games
    alice = world.players[0]
    thread = Channel(id=world.double.ids.next(), name="our game", type=PUBLIC_THREAD, guild=world.guild,
                     parent_id=public.id, owner_id=alice.id)
    for user_id in (alice.id, world.players[1].id, world.double.bot_user.id):
        thread.thread_members[user_id] = iso_now()
    world.guild.channels[thread.id] = thread
    world.double.channels[thread.id] = thread
    world.games = thread
    (game_id,) = await finished_games(world, 1)
    world.games = public
    thread.archived = True
    async with world.running():
        alices = await listed(world, alice, public)
    assert f"**#{game_id}**" in alices, alices
