"""SIGTERM (``docker stop``) during a move, with two ``coroner run`` processes over one PostgreSQL database: the
stopping process finishes the move (applied once, its click answered with the table) and exits 0 quickly,
leaving no timer claim or delivery lease behind, and the other process serves the game's next timer at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, Timer
from bot.tables import TableService
from tests.db.backends import pg_database, pg_sessions, pg_url  # noqa: F401 - the processes share one PostgreSQL database
from tests.discord_double import DiscordDouble
from tests.e2e.conftest import mark
from tests.e2e.scale import WAIT, actions_of, custom_id, games_on, next_status, routed_game, statuses, stored
from tests.support.processes import Cluster

pytestmark = pytest.mark.postgres



async def test_sigterm_during_a_move_finishes_it_and_hands_the_game_over(
        pg_url: str, tmp_path: Path, pg_sessions: async_sessionmaker[AsyncSession]) -> None:  # noqa: F811
    """Shard 1's process is sent SIGTERM right after it committed the Detective's placement, while the table's
    edit (the click's answer) is still on its way (every REST call takes 0.4 s): the click is answered with the
    table, the move is stored once, the process exits 0 within a few seconds and holds no lease any more; the
    Detective's turn timer, made due, is then fired by shard 0's process within about a second."""
    tables = TableService(pg_sessions)
    double = await DiscordDouble(shard_count=2).start()
    try:
        channels, players = games_on(double, (1,))
        async with Cluster(double.api_base, pg_url, tmp_path, [[0], [1]],
                           env={"TIMER_POLL_SECONDS": "0.3"}) as cluster:
            try:
                routed, table = await routed_game(double, tables, channels, players)
                game_id, detective = routed.id, players[0][1]

                double.latency = 0.4  # the move's REST calls are slow: its answer is in flight at the SIGTERM
                before = mark(statuses(double, channels[0]))
                handle = await detective.select(table, custom_id(table, "place"), ["7"])
                assert handle.shard_id == 1
                await stored(tables, game_id, lambda t: t.version > routed.version, "the placement committed")
                code = await cluster.holding(1).terminate(timeout=9.0)  # docker's stop timeout is 10 s
                double.latency = 0.0
                assert code == 0, cluster.logs()  # (None: it had to be killed)
                response = await handle.response()
                assert response.type in (6, 7), response  # the table's edit (deferred first if slow): not a failure
                await next_status(double, channels[0], before)
                assert "SIGTERM: finishing what is in flight" in cluster.holding(1).tail()

                now = datetime.now(UTC)
                async with pg_sessions() as session:  # nothing left to run out: leases given back at the stop
                    held = (await session.scalars(select(Game).where(Game.lease_until > now))).all()
                    claimed = (await session.scalars(select(Timer).where(Timer.fired_at.is_(None),
                                                                         Timer.claimed_by.is_not(None)))).all()
                assert (held, claimed) == ([], [])

                placed = await tables.load(game_id)
                async with pg_sessions.begin() as session:  # the Detective's time runs out now
                    await session.execute(update(Timer).where(Timer.game_id == game_id, Timer.kind == "turn_timeout",
                                                              Timer.fired_at.is_(None))
                                          .values(due_at=now - timedelta(seconds=1)))
                # shard 0's process looks every 0.3 s: at once, not when a lease ran out (30 s and more)
                await stored(tables, game_id, lambda t: t.version > placed.version, "the timeout, by shard 0",
                             timeout=5.0)
                await double.wait_for(lambda: "ran out of time" in double.messages(channels[0])[-1].text, WAIT,
                                      "the timeout shown by shard 0's process")
            except BaseException:
                print(cluster.logs())
                raise
        actions = await actions_of(pg_sessions, game_id)
        assert actions[:2] == [(1, 0, "killer_turn"), (2, 1, "place_detective")]  # the placement once
        assert len(actions) == 3
        double.assert_clean()
    finally:
        await double.stop()
