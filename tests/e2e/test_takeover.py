"""A process SIGKILLed in the middle of showing a move, with two ``coroner run`` processes over one PostgreSQL
database (issue 22): its delivery lease of the game runs out within 4 s of its last renewal, and the survivor, which
fires the game's next timer on time, shows the game as soon as the lease ran out (it looks again then) instead of
when a 30 s lease ran out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, OutboxEntry, Timer
from bot.tables import TableService
from bot.tables.leases import LEASE
from tests.discord_double import DiscordDouble
from tests.e2e.scale import custom_id, games_on, routed_game, stored
from tests.support.processes import Cluster

pytestmark = pytest.mark.postgres
CALLBACK = r"/interactions/\d+/[^/]+/callback"
#: the old delivery lease: a takeover after it would have come this long after the death
OLD_LEASE = 30.0



async def _all_shown(sessions: async_sessionmaker[AsyncSession], game_id: int) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while True:
        async with sessions() as session:
            if not await session.scalar(select(func.count()).select_from(OutboxEntry).where(
                    OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None))):
                return
        assert loop.time() < deadline, "the route was never marked shown"
        await asyncio.sleep(0.02)


async def test_a_killed_process_game_is_shown_by_the_survivor_once_its_short_lease_ran_out(
        pg_url: str, tmp_path: Path, pg_sessions: async_sessionmaker[AsyncSession]) -> None:
    """Shard 1's process commits the Detective's placement and is showing it (the click's answer held in the
    network) when it is SIGKILLed: it holds the game's delivery lease. The Detective's turn timer is made due at
    once; shard 0's process fires it and shows the placement and the timeout, in order, well before the old 30 s
    lease would have run out, and logs the takeover."""
    tables = TableService(pg_sessions)
    double = await DiscordDouble(shard_count=2).start()
    try:
        channels, players = games_on(double, (1,))
        async with Cluster(double.api_base, pg_url, tmp_path, [[0], [1]],
                           env={"TIMER_POLL_SECONDS": "0.3"}) as cluster:
            try:
                routed, table = await routed_game(double, tables, channels, players)
                game_id, detective = routed.id, players[0][1]
                # the route shown by shard 0's process, its delivery lease given back (the table lands in the double
                # a moment before): only then is the placement's step shard 1's to show
                await _all_shown(pg_sessions, game_id)

                held = double.delay_once("POST", CALLBACK, 2 * LEASE.total_seconds())  # the answer: in the network
                handle = await detective.select(table, custom_id(table, "place"), ["7"])
                assert handle.shard_id == 1
                placed = await stored(tables, game_id, lambda t: t.version > routed.version, "the placement")
                await double.wait_for(lambda: held.hits == 1, what="the placement being shown")
                await cluster.holding(1).kill()
                now = datetime.now(UTC)
                async with pg_sessions() as session:  # it died showing the game: its lease still holds
                    lease = await session.get(Game, game_id)
                assert lease is not None and lease.lease_until is not None
                assert lease.lease_until > now and not lease.lease_given_back
                assert lease.lease_until - now <= LEASE  # renewed while it worked, never 30 s ahead

                async with pg_sessions.begin() as session:  # the Detective's time runs out now
                    await session.execute(update(Timer).where(Timer.game_id == game_id, Timer.kind == "turn_timeout",
                                                              Timer.fired_at.is_(None))
                                          .values(due_at=now - timedelta(seconds=1)))
                await stored(tables, game_id, lambda t: t.version > placed.version, "the timeout, by shard 0")
                # shown once the dead lease ran out (at most 4 s): the guard is far below the old 30 s
                await double.wait_for(lambda: "ran out of time" in double.messages(channels[0])[-1].text,
                                      OLD_LEASE / 2, "the timeout shown by shard 0's process")
                assert f"took game {game_id} over from" in cluster.holding(0).tail()
            except BaseException:
                print(cluster.logs())
                raise
        double.assert_clean()
    finally:
        await double.stop()
