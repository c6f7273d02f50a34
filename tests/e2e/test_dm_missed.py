"""DMs sent while the bot was down are read back when it is ready again (:mod:`bot.cogs.dm.missed`): Discord does
not replay them, so a Killer's route sent during a restart would be lost without a word."""

from __future__ import annotations

from tests.e2e.conftest import World, settled
from tests.e2e.test_cereal_killer import ROUTE, start, statuses

TAKEN = "A victim was found in the House on 3"


async def test_a_route_sent_while_the_bot_was_down_is_taken_after_the_restart(world: World) -> None:
    """alice (the Killer) DMs her route while nobody listens: after the restart it is taken, once; a second
    restart reads nothing again (the bot answered her since)."""
    alice, bob = world.players[:2]
    async with world.running():
        await start(world, [alice, bob])  # alice is the Killer; her route is due first
        await settled(world)
    dms = len(alice.dms())
    await alice.dm_bot(ROUTE)  # nobody is listening
    async with world.running():
        await world.double.wait_for(
            lambda: "A victim was found in the House on 3" in statuses(world)[-1].text or len(alice.dms()) > dms,
            timeout=15, what="the route taken, or an answer to it")
        await world.double.wait_for(lambda: TAKEN in statuses(world)[-1].text, timeout=15, what="the route taken")
        await settled(world)
    answered = len(alice.dms())
    taken = sum(TAKEN in m.text for m in statuses(world))
    async with world.running():
        await settled(world)
    assert len(alice.dms()) == answered  # nothing read back twice
    assert sum(TAKEN in m.text for m in statuses(world)) == taken
