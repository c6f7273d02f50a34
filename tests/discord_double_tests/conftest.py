from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.discord_double import Channel, DiscordDouble, Guild, User
from tests.discord_double.fixtures import double, running_bot  # noqa: F401
from tests.discord_double_tests._bot import DoubleBot


@dataclass
class World:
    double: DiscordDouble
    guild: Guild
    games: Channel
    medium: Channel
    alice: User
    bob: User
    admin: User


@pytest.fixture
def world(double: DiscordDouble) -> World:  # noqa: F811
    guild = double.add_guild("Test Server", locale="en-US")
    games, medium = guild.add_text_channel("games"), guild.add_text_channel("medium")
    alice = double.add_user("alice", display_name="Alice")
    bob = double.add_user("bob", display_name="Bob", locale="es-ES")
    admin = double.add_user("admin", display_name="Admin")
    guild.add_member(alice)
    guild.add_member(bob, nick="Bobby")
    guild.add_member(admin, manage_guild=True)
    return World(double, guild, games, medium, alice, bob, admin)


@pytest.fixture
async def bot(world: World) -> AsyncIterator[DoubleBot]:
    instance = DoubleBot()
    async with running_bot(instance):
        yield instance
