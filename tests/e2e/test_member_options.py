"""Member options through Discord: a user who is not in the server (a pasted id Discord resolves to a user
without member data) and a bot, named to ``/replace`` and ``/stats``, are refused privately in words and change
nothing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World, refusal, settled
from tests.e2e.test_seats import (
    seed,  # noqa: F401 - the fixed deal
    start,
)

pytestmark = pytest.mark.usefixtures("seed")

NOT_A_MEMBER = "⛔ That user is not a member of this server."


async def test_replace_and_stats_naming_someone_outside_the_server(world: World) -> None:
    """discord.py's Member transformer fails for a user who is not a member: that is the refusal, not "something
    went wrong on our side"; the game's seats and version stay as they were, the channel shows nothing new."""
    alice, bob = world.players[:2]
    stranger = world.double.add_user("stranger", display_name="Stranger")  # never added to the server
    async with world.running():
        table = await start(world, "en", [alice, bob])
        shown = len(world.double.messages(world.games))
        assert await refusal(await alice.slash(world.games, "replace", seat=1, member=stranger)) == NOT_A_MEMBER
        assert await refusal(await alice.slash(world.games, "stats", member=stranger)) == NOT_A_MEMBER
        await settled(world)
        after = await world.tables.load(table.id)
        assert (after.version, [s.user_id for s in after.seats]) == (table.version, [s.user_id for s in table.seats])
        assert [m for m in world.double.messages(world.games)[shown:] if not m.ephemeral] == []


async def test_stats_of_a_bot_is_refused_privately(world: World) -> None:
    """Bots never hold a seat, so ``/stats member:<a bot>`` says so privately (it showed a public, empty
    "Statistics: Robot" embed)."""
    alice = world.players[0]
    robot = world.double.add_user("robot", display_name="Robot", bot=True)
    world.guild.add_member(robot)
    async with world.running():
        shown = len(world.double.messages(world.games))
        assert await refusal(await alice.slash(world.games, "stats", member=robot)) == (
            "⛔ Bots do not play, so a bot has no statistics.")
        assert [m for m in world.double.messages(world.games)[shown:] if not m.ephemeral] == []
