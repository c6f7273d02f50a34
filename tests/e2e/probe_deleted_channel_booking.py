"""Probe: a lobby booked (``starts_in``) in a channel a manager deletes before its time. At its time the bot cannot
post it; the booking must end (cancelled), not stay booked while its timer fails with NotFound (logged as an
error) each time it is tried."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import Game
from tests.e2e.conftest import World, settled
from tests.e2e.probe_deleted_channel import delete_channel
from tests.support.newgame import newgame


async def test_a_booking_in_a_deleted_channel_ends_at_its_time(world: World) -> None:
    alice = world.players[0]
    async with world.running():
        await (await newgame(alice, world.games, "asesino", "tabletop", starts_in=30)).response()
        await settled(world)
        delete_channel(world.double, world.games)
        await settled(world)
        for _ in range(4):
            world.clock.advance(minutes=31)
            await settled(world)
        async with world.sessions() as session:
            states = list((await session.scalars(select(Game.status))).all())
        assert states == ["cancelled"], states  # on main: still "scheduled"; its lobby_open timer raised NotFound
