"""An early route is refused with a promise the bot keeps: no DM starts the Killer's later days (Cereal Killer
ruling 1), so the refusal says the table shows the turn and the channel's ping follows, and neither more nor less
comes (found by a tester: the refusal used to promise a DM that never came)."""

from __future__ import annotations

from tests.e2e.conftest import World, settled
from tests.e2e.test_cereal_killer import click, killer_dm, routed


async def test_an_early_route_is_told_how_the_turn_will_be_shown_and_it_is(world: World) -> None:
    """alice's second route comes while bob plays: refused, saying the table shows her turn; bob ends day 1, the
    table waits on alice, no DM comes, and past the grace the channel mentions her."""
    alice, bob = world.players[:2]
    async with world.running():
        status = await routed(world, [alice, bob])
        early = await killer_dm(world, alice, "13 14 9")
        assert early.text.startswith("⛔ Your route is not due yet: the hunters are playing. The table shows when it "
                                     "is your turn; if you take a while, I mention you in the channel."), early.text
        dms = len(alice.dms())
        status = await click(world, bob, status, "place", ["7"])
        status = await click(world, bob, status, "end")
        assert "Day 2 begins" in status.text and f"Waiting on <@{alice.id}>" in status.text
        await settled(world)
        world.clock.advance(seconds=60)  # past the turn ping's grace: the channel mentions her
        await world.double.wait_for(lambda: any(f"<@{alice.id}>" in m.text and "Cereal Killer" not in m.text
                                                for m in world.bot_messages()[-2:]), what="the turn ping")
        await settled(world)
    assert alice.dms()[dms:] == []
