"""Coroner as several OS processes (``python -m bot run``, each holding its own shards) over one PostgreSQL
database, through the Discord double serving every shard with Discord's routing: games in channels on different
shards played to the end, the Killer's DM route (DMs reach only shard 0) applied to a game another process holds,
two clicks on one game arriving at different processes at once, a timer falling due while the process holding
the game is killed, and every move stored exactly once. The REST traffic of all processes goes through one
``DISCORD_API_BASE`` (a forwarding proxy, as a shared rate-limit proxy would be)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Timer
from bot.tables import TableService
from tests.discord_double import DiscordDouble
from tests.e2e.conftest import mark, shown_lines
from tests.e2e.scale import (
    ROUTE,
    WAIT,
    actions_of,
    answer_prompt,
    games_on,
    my_secrets,
    next_status,
    refusal_or_none,
    start_all,
    statuses,
    stored,
    use,
)
from tests.support.processes import Cluster
from tests.support.rest_proxy import RestProxy

pytestmark = pytest.mark.postgres



@pytest.fixture
def tables(pg_sessions: async_sessionmaker[AsyncSession]) -> TableService:
    return TableService(pg_sessions)


async def test_two_processes_play_games_on_both_shards_to_the_end(pg_url: str, tmp_path: Path,
                                                                 tables: TableService,
                                                                 pg_sessions: async_sessionmaker[AsyncSession]) -> None:
    """Shard 0 and shard 1 in two processes whose REST goes through one proxy. A game in each shard's channel is
    played to an arrest at once. Both Killers' routes arrive by DM at shard 0's process, which applies the one of
    shard 1's game and shows it in a channel it does not hold; the Killer of that game answers a question by DM
    button (shard 0) and under My secrets in the channel (shard 1) at the same moment: one answer is applied, the
    other refused as out of date. Every move is stored exactly once, and every REST call went through the proxy."""
    double = await DiscordDouble(shard_count=2).start()
    try:
        channels, players = games_on(double, (0, 1))
        async with RestProxy(double.api_base) as proxy, Cluster(proxy.base, pg_url, tmp_path, [[0], [1]]) as cluster:
            try:
                ids = await start_all(double, tables, channels, players)

                # an accepted route gets no DM back (issue 8): the table in its channel shows it
                await asyncio.gather(*(p[0].dm_bot(ROUTE) for p in players))
                for game_id in ids:
                    await stored(tables, game_id, lambda t: t.state.killer == 12, "the Killer's route")
                for channel in channels:
                    await double.wait_for(lambda c=channel: "A victim was found in the House on 3" in
                                          double.messages(c)[-1].text, WAIT, "the route's step on the table")
                    assert not [m for m in double.messages(channel) if "8 → 13" in m.text]  # the route stays secret

                killer, detective = players[1]
                await use(double, channels[1], detective, "place", ["7"])
                await use(double, channels[1], detective, "step", ["2"])
                seen = len(killer.dms())
                await use(double, channels[1], detective, "ask", ["direction"])
                asked = await stored(tables, ids[1], lambda t: t.state.pending is not None, "the question")
                prompt = await answer_prompt(double, killer, seen)
                _, panel = await my_secrets(double, channels[1], killer)
                by_dm, in_channel = await asyncio.gather(killer.click(prompt, label="South"),
                                                         killer.click(panel, label="South"))
                assert (by_dm.shard_id, in_channel.shard_id) == (0, 1)
                refusals = [await refusal_or_none(h) for h in (by_dm, in_channel)]
                assert sorted(refusals, key=str) == [None, "⛔ That message is out of date: the game has moved on. "
                                                           "Look at the latest one."], refusals
                answered = await stored(tables, ids[1], lambda t: t.state.pending is None, "the answer")
                assert answered.version == asked.version + 1 and answered.state.answers[-1].answer == "south"

                await use(double, channels[1], detective, "step", ["7"])
                await use(double, channels[1], detective, "arrest", ["12"])
                await use(double, channels[0], players[0][1], "place", ["7"])
                await use(double, channels[0], players[0][1], "arrest", ["12"])
                for game_id in ids:
                    await stored(tables, game_id, lambda t: t.status == "finished", "its end")
                for channel in channels:
                    assert "Arrested on 12" in double.messages(channel)[-1].text
                lines = shown_lines(double.messages(channels[1]))  # shown by two processes, in commit order
                marks = ["A victim was found in the House on 3", "asks the Witness on 2", "Arrested on 12"]
                at = [next(i for i, line in enumerate(lines) if m in line) for m in marks]
                assert at == sorted(at), lines
            except BaseException:
                print(cluster.logs())
                raise
        assert await actions_of(pg_sessions, ids[0]) == [(1, 0, "killer_turn"), (2, 1, "place_detective"),
                                                               (3, 1, "arrest")]
        assert await actions_of(pg_sessions, ids[1]) == [
            (1, 0, "killer_turn"), (2, 1, "place_detective"), (3, 1, "move"), (4, 1, "ask"), (5, 0, "choose_answer"),
            (6, 1, "move"), (7, 1, "arrest")]
        assert proxy.forwarded and len(proxy.forwarded) == len(double.requests)
        for channel in channels:  # the tables were edited through it
            assert any(m == "PATCH" and p.startswith(f"/api/v10/channels/{channel.id}/messages/")
                       for m, p, _ in proxy.forwarded)
        double.assert_clean()
    finally:
        await double.stop()


async def test_three_processes_a_timer_due_while_its_shard_is_down_fires_once_elsewhere(
        pg_url: str, tmp_path: Path, tables: TableService,
        pg_sessions: async_sessionmaker[AsyncSession]) -> None:
    """Three processes, one shard each. While the process of shard 2 is SIGKILLed, the Killer's turn timer of the
    game in shard 2's channel falls due: another process fires it once (the Killer is walked, the channel told
    once that its time ran out); meanwhile a game on shard 1 takes its Killer's route by DM (shard 0's process)
    and is played to an arrest. Shard 2's process restarts, fires nothing again and serves the next click."""
    double = await DiscordDouble(shard_count=3).start()
    try:
        channels, players = games_on(double, (1, 2))
        async with Cluster(double.api_base, pg_url, tmp_path, [[0], [1], [2]],
                           env={"TIMER_POLL_SECONDS": "0.3"}) as cluster:
            try:
                ids = await start_all(double, tables, channels, players)
                armed = await stored(tables, ids[1], lambda t: True, "its start")
                assert any(t.kind == "turn_timeout" and t.payload["version"] == armed.version
                           for t in await tables.pending_timers(ids[1]))

                await cluster.holding(2).kill()
                async with pg_sessions.begin() as session:  # the Killer's time runs out while shard 2 is down
                    await session.execute(update(Timer).where(Timer.game_id == ids[1], Timer.kind == "turn_timeout",
                                                              Timer.fired_at.is_(None))
                                          .values(due_at=datetime.now(UTC) - timedelta(seconds=1)))
                walked = await stored(tables, ids[1], lambda t: t.version > armed.version, "the timed-out turn")
                assert walked.state.phase == "detective" and len(walked.state.routes) == 1
                await double.wait_for(lambda: "ran out of time" in double.messages(channels[1])[-1].text, WAIT,
                                      "the timeout shown in shard 2's channel by another process")

                restarting = asyncio.create_task(cluster.holding(2).start())  # meanwhile, shard 1's game goes on
                killer, detective = players[0]
                before = mark(statuses(double, channels[0]))
                await killer.dm_bot(ROUTE)
                await stored(tables, ids[0], lambda t: t.state.killer == 12, "the Killer's route")
                await next_status(double, channels[0], before)  # shown (an accepted route gets no DM back)
                await use(double, channels[0], detective, "place", ["7"])
                await use(double, channels[0], detective, "arrest", ["12"])
                await stored(tables, ids[0], lambda t: t.status == "finished", "its end")

                await restarting
                await use(double, channels[1], players[1][1], "place", ["7"])
                await stored(tables, ids[1], lambda t: t.version == walked.version + 1, "the Detective's placement")
            except BaseException:
                print(cluster.logs())
                raise
        assert await actions_of(pg_sessions, ids[0]) == [(1, 0, "killer_turn"), (2, 1, "place_detective"),
                                                               (3, 1, "arrest")]
        assert await actions_of(pg_sessions, ids[1]) == [(1, 0, "killer_turn"), (2, 1, "place_detective")]
        timeouts = [line for line in shown_lines(double.messages(channels[1])) if "ran out of time" in line]
        assert timeouts == ["🤖 Alice2 ran out of time, so the bot moved for them."]
        double.assert_clean()
    finally:
        await double.stop()
