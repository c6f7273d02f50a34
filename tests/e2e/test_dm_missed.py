"""DMs sent while the bot was down are read back when it is ready again (:mod:`bot.cogs.dm.missed`): Discord does
not replay them, so a Killer's route sent during a restart would be lost without a word."""

from __future__ import annotations

import asyncio

from tests.discord_double import User
from tests.e2e.conftest import World, settled
from tests.e2e.test_cereal_killer import ROUTE, click, routed, start, statuses

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


def history_reads(world: World, user: User) -> int:
    """How many times the bot read ``user``'s DM channel (``GET /channels/{id}/messages``)."""
    return sum(1 for r in world.double.requests
               if r.method == "GET" and r.path.endswith(f"/channels/{user.dm_channel_id}/messages"))


def reading_back() -> bool:
    """Whether an ``on_ready`` listener (the read-back among them) is still running."""
    return any(not t.done() and t.get_name() == "discord.py: on_ready" for t in asyncio.all_tasks())


async def test_a_route_taken_before_the_restart_is_not_handled_again(world: World) -> None:
    """alice's day-1 route is taken (acknowledged by the table alone, so it stays the newest message of her DM
    channel); bob ends the day; day 2 waits on alice; the bot restarts with nothing sent meanwhile: her DMs are read
    back and nothing happens (a tester found her old route handled again: "⛔ You are on 12, not on 3.")."""
    alice, bob = world.players[:2]
    async with world.running():
        status = await routed(world, [alice, bob])
        status = await click(world, bob, status, "place", ["7"])
        status = await click(world, bob, status, "end")
        assert "Day 2 begins" in status.text
        await settled(world)
        table = await world.tables.table_in_channel(world.games.id)
        assert table is not None
    dms, version, reads = len(alice.dms()), table.version, history_reads(world, alice)
    async with world.running():
        await world.double.wait_for(lambda: history_reads(world, alice) > reads, what="alice's DMs read back")
        await world.double.wait_for(lambda: not reading_back(), what="the read-back to end")
        await settled(world)
        after = await world.tables.load(table.id)
    assert [m.text for m in alice.dms()[dms:]] == []  # no answer to a DM she did not send
    assert after.version == version  # and no move made for her
