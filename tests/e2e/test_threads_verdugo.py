"""End to end, the thread of the dead in Verdugo (ruling in ``games/verdugo/README.md``): a prisoner chopped in a
round joins the watchers' thread and is refused every move; when the round is over they are back in play and out
of the thread; the thread is archived and locked when the host ends the match."""

from __future__ import annotations

import pytest

from tests.discord_double.permissions import PRIVATE_THREADS, README_MINIMAL
from tests.e2e.conftest import World, refusal
from tests.e2e.test_verdugo import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    action_phase,
    chop,
    control,
    current,
    start_table,
    use,
    verdugo_seed,  # noqa: F401 - the fixture, used by every test here
)

pytestmark = pytest.mark.usefixtures("verdugo_seed")


async def test_the_dead_of_a_round_share_the_thread_until_the_round_ends(world: World) -> None:
    """Round 2 of the known seed: bob chops erin, who is added to the thread an onlooker opened with Watch (and is
    refused the table's controls); once bob stops, erin is taken out again; the match ends and the thread is
    archived and locked."""
    alice, bob, carol, dave, erin = world.players
    onlooker = world.double.add_user("gwen", display_name="Gwen")
    world.guild.add_member(onlooker)
    world.double.set_bot_permissions(world.guild, README_MINIMAL | PRIVATE_THREADS)
    async with world.running():
        await start_table(world, [alice, bob, carol, dave, erin], match="open")
        await action_phase(world, alice, [BOB, CAROL, DAVE, ERIN])
        await chop(world, alice, DAVE)
        await use(world, dave, "chop", arg=str(ERIN))
        await use(world, alice, "successor", [str(BOB)])
        await action_phase(world, bob, [CAROL, DAVE, ERIN, ALICE])

        watch = next(m for m in reversed(world.bot_messages()) if any(b["label"] == "Watch" for b in m.buttons()))
        assert "You are watching" in await refusal(await onlooker.click(watch, label="Watch"))
        (thread,) = world.double.threads_of(world.games)
        others = lambda: world.double.thread_members(thread) - {world.double.bot_user.id}  # noqa: E731
        assert others() == {onlooker.id}
        await chop(world, bob, ERIN)
        await world.double.wait_for(lambda: others() == {onlooker.id, erin.id}, what="erin in the thread")
        message, ident = await control(world, "stop")
        assert "You are dead" in await refusal(await erin.click(message, ident))
        await use(world, bob, "stop")
        await world.double.wait_for(lambda: others() == {onlooker.id}, what="erin back in play, out of the thread")
        await use(world, alice, "end_match")
        assert (await current(world)).status == "finished"
        await world.double.wait_for(lambda: thread.archived and thread.locked, what="the thread archived")
    world.double.assert_clean()
