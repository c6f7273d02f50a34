"""The turn ping across a pause: nobody is pinged while the game is paused; the resume arms the ping anew, due the
grace period (``turn_ping_seconds``, 30 s) after the resume, and gives the turn's warning and time limit the time
they had left (README), so the awaited player is pinged "▶ Your move" again."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.live_table import PING_TIMER
from tests.e2e.conftest import World, settled, until_version
from tests.e2e.test_host import start_game

pytestmark = pytest.mark.usefixtures("potato")

#: the default grace period before the ping and the time limit of ``start_game``'s turn (seconds)
PING, LIMIT = 30, 300


def pings(world: World) -> list[str]:
    return [m.content for m in world.bot_messages() if "Your move" in m.content and not m.deleted]


async def test_after_a_pause_and_resume_the_awaited_player_is_pinged_the_grace_period_after_the_resume(
        world: World) -> None:
    async with world.running():
        await start_game(world, "en")
        await settled(world)
        game = await world.tables.table_in_channel(world.games.id)
        assert game is not None
        world.clock.advance(seconds=10)
        await (await world.players[0].slash(world.games, "pause")).response()
        await until_version(world, game.id, game.version + 1)
        await settled(world)
        world.clock.advance(seconds=60)
        await (await world.players[0].slash(world.games, "resume")).response()
        await until_version(world, game.id, game.version + 2)
        await settled(world)
        resumed = world.clock.now()
        due = {(t.kind, t.payload.get("version")): t.due_at for t in await world.tables.pending_timers(game.id)}
        assert due[(PING_TIMER, game.version + 2)] == resumed + timedelta(seconds=PING)  # armed by the resume
        assert due[("turn_timeout", game.version)] == resumed + timedelta(seconds=LIMIT - 10)  # the time left
        assert not pings(world)
        world.clock.advance(seconds=PING + 1)
        await world.double.wait_for(lambda: pings(world), what="the turn ping after the resume")
        assert (await world.tables.load(game.id)).version == game.version + 2  # nobody moved
