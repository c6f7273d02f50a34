"""The living table's bookkeeping: the "last moves" log keeps the last steps, fits a field and never repeats a step
shown again; its state lives in the database (one row per running game), where messages after the table are
counted per channel, a new table message starts its count at zero, and the turn ping is swapped atomically."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.budget import fit_embeds, size
from bot.clock import FakeClock
from bot.db.models import Game
from bot.db.repos import live
from bot.live_table import QUIET_FOR, LiveTable
from bot.table_log import LOG_CHARS, LOG_STEPS, appended, shown
from tests.db.backends import db_url, engine, pg_database, sessions  # noqa: F401 - SQLite and PostgreSQL
from tests.support.sql_count import SqlCount

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BOT_ID = 1
Sessions = async_sessionmaker[AsyncSession]


def test_the_log_keeps_the_last_steps_oldest_first_and_a_step_once() -> None:
    """Each step's lines stay together; only the last LOG_STEPS steps are shown; a step shown again (after a
    crash) is not added twice; a step with no public line keeps the log as it was."""
    steps: list[Any] = []
    for step in range(LOG_STEPS + 2):
        steps = appended(steps, step, [f"step {step} a", f"step {step} b"])
    assert shown(steps) == [f"step {s} {x}" for s in range(2, LOG_STEPS + 2) for x in "ab"]
    assert appended(steps, LOG_STEPS + 1, ["step again"]) == steps
    assert appended(steps, None, []) == steps
    assert shown(appended(steps, None, ["cancelled"]))[-1] == "cancelled"  # no step: always added


def test_a_long_log_is_cut_at_the_oldest_end_and_a_fresh_message_starts_anew() -> None:
    """The log fits a field value: older lines go first, the cut is shown; a new table message starts with its
    own step only."""
    steps = appended(appended([], 1, ["x" * 600]), 2, ["y" * 600])
    assert shown(steps) == ["…", "y" * 600] and sum(len(line) + 1 for line in shown(steps)) <= LOG_CHARS
    assert shown(appended(steps, 3, ["z" * 2000]))[0] == "z" * (LOG_CHARS - 1) + "…"
    assert shown(appended(steps, 4, ["new day"], anew=True)) == ["new day"]


def test_a_log_of_emoji_names_keeps_its_newest_moves_within_the_field() -> None:
    """The log is measured as Discord measures it (UTF-16 units: an emoji counts 2), so the one budget never cuts
    the newest moves off the end of a log of emoji-heavy names; the oldest are dropped instead."""
    steps: list[Any] = []
    for n in range(LOG_STEPS):
        steps = appended(steps, n, [f"{'🎲' * 150} step {n}"])  # 300 units, 157 characters
    lines = shown(steps)
    assert lines[-1].endswith(f"step {LOG_STEPS - 1}") and lines[0] == "…"
    assert size("\n".join(lines)) <= LOG_CHARS
    assert fit_embeds([{"fields": [{"name": "Last moves", "value": "\n".join(lines)}]}], "en")[0][
        "fields"][0]["value"] == "\n".join(lines)


async def _game(sessions: Sessions, channel_id: int, status: str = "active") -> int:  # noqa: F811
    async with sessions() as session, session.begin():
        game = Game(game="potato", mode="classic", guild_id=10, channel_id=channel_id, host_id=1, status=status,
                    options={}, language="en", created_at=NOW, updated_at=NOW)
        session.add(game)
        await session.flush()
        return game.id


async def _row(sessions: Sessions, game_id: int) -> Any:  # noqa: F811
    async with sessions() as session:
        return await live.get(session, game_id)


async def test_messages_after_the_table_are_counted_per_channel_and_a_new_table_starts_at_zero(
        sessions: Sessions) -> None:  # noqa: F811
    """Only newer messages of the table's own channel count; posting the table anew resets the count and records
    the message as the game's table; the same message keeps its count and takes the new log."""
    game_id = await _game(sessions, channel_id=5)
    async with sessions() as session, session.begin():
        await live.show(session, game_id, 5, 100, [{"step": 1, "lines": ["a"]}], NOW)
    async with sessions() as session, session.begin():
        counted = [await live.count_message(session, channel, message) for channel, message in
                   ((5, 90), (5, 101), (5, 102), (6, 103))]
    assert counted == [0, 1, 1, 0]
    async with sessions() as session, session.begin():
        await live.show(session, game_id, 5, 100, [{"step": 2, "lines": ["b"]}], NOW)
    row = await _row(sessions, game_id)
    assert (row.message_id, row.messages_after, row.log) == (100, 2, [{"step": 2, "lines": ["b"]}])
    async with sessions() as session, session.begin():
        await live.show(session, game_id, 5, 104, [], NOW)
    assert (await _row(sessions, game_id)).messages_after == 0
    async with sessions() as session:
        assert (await session.get(Game, game_id)).table_message_id == 104  # type: ignore[union-attr]


async def test_the_ping_is_swapped_and_a_game_without_a_table_records_none(sessions: Sessions) -> None:  # noqa: F811
    """Recording a ping returns the one it replaces (to delete); taking it returns it once; a game whose table
    was never shown records nothing; the row goes with the game's end."""
    game_id = await _game(sessions, channel_id=5)
    async with sessions() as session, session.begin():
        assert await live.set_ping(session, game_id, 7) is None  # no table row yet
        await live.show(session, game_id, 5, 100, [], NOW)
        assert await live.set_ping(session, game_id, 7) is None
        assert await live.set_ping(session, game_id, 8) == 7
        assert await live.set_ping(session, game_id, None) == 8
        assert await live.set_ping(session, game_id, None) is None
        await live.forget(session, game_id)
    assert await _row(sessions, game_id) is None


def _bot(sessions: Sessions, clock: FakeClock) -> Any:  # noqa: F811
    return SimpleNamespace(sessions=sessions, clock=clock, user=SimpleNamespace(id=BOT_ID),
                           add_listener=lambda *args: None)


def _message(channel_id: int, message_id: int, author: int = 2) -> Any:
    return SimpleNamespace(id=message_id, guild=SimpleNamespace(id=10), channel=SimpleNamespace(id=channel_id),
                           author=SimpleNamespace(id=author))


async def test_the_count_survives_a_restart_and_quiet_channels_are_skipped_until_the_bot_posts(
        sessions: Sessions) -> None:  # noqa: F811
    """A second process (a restart) goes on counting where the first stopped; a channel without a game is
    remembered as quiet (bounded, expiring), until the bot posts there or the memory expires."""
    clock = FakeClock(NOW)
    game_id = await _game(sessions, channel_id=5)
    async with sessions() as session, session.begin():
        await live.show(session, game_id, 5, 100, [], NOW)
    first = LiveTable(_bot(sessions, clock))
    await first.on_message(_message(5, 101))
    await LiveTable(_bot(sessions, clock)).on_message(_message(5, 102))
    assert (await _row(sessions, game_id)).messages_after == 2
    await first.on_message(SimpleNamespace(id=103, guild=None, channel=SimpleNamespace(id=5)))  # a DM: not counted
    assert (await _row(sessions, game_id)).messages_after == 2

    await first.on_message(_message(9, 200))
    assert 9 in first._quiet
    lobby = await _game(sessions, channel_id=9, status="lobby")
    await first.on_message(_message(9, 201, author=BOT_ID))  # the bot posts (a lobby): the channel is looked at
    assert 9 not in first._quiet
    await first.on_message(_message(9, 202))
    assert 9 not in first._quiet  # a lobby: its table will be counted once shown
    async with sessions() as session, session.begin():
        await live.show(session, lobby, 9, 201, [], NOW)
        await session.delete(await session.get(Game, game_id))
    await first.on_message(_message(5, 104))
    assert 5 in first._quiet
    clock.advance(QUIET_FOR)
    assert 5 not in first._quiet  # forgotten after a while: a game that started unseen is counted again


async def test_the_bot_s_own_message_is_counted_without_looking_for_a_game(
        sessions: Sessions, engine: AsyncEngine) -> None:  # noqa: F811
    """A message the bot posts (a lobby just opened, say) costs the count alone: no look for the channel's game,
    and the channel is not marked quiet; someone else's message there then looks, and marks it."""
    table = LiveTable(_bot(sessions, FakeClock(NOW)))
    count = SqlCount(engine)
    await table.on_message(_message(9, 300, author=BOT_ID))
    assert (count.statements, 9 in table._quiet) == (1, False)
    await table.on_message(_message(9, 301))
    assert (count.statements, 9 in table._quiet) == (3, True)


async def test_a_table_recorded_on_a_message_it_was_not_read_on_takes_the_ping_away_reading_the_row_once(
        sessions: Sessions, engine: AsyncEngine) -> None:  # noqa: F811
    """The table moves to a message with no row read before (the row as :func:`bot.db.repos.live.show` locks
    it): the ping it had is returned to delete and none is left, with one read of the row."""
    game_id = await _game(sessions, channel_id=5)
    async with sessions() as session, session.begin():
        await live.show(session, game_id, 5, 100, [], NOW)
        await live.set_ping(session, game_id, 7)
    shown = LiveTable(_bot(sessions, FakeClock(NOW)))
    count = SqlCount(engine)
    async with sessions() as session, session.begin():
        written = await shown._write(session, SimpleNamespace(id=game_id, channel_id=5, version=1), 104, [], None,
                                     None, 0)
    assert written == (7, True) and count.kinds["SELECT live_tables"] == 1
    row = await _row(sessions, game_id)
    assert (row.message_id, row.ping_message_id) == (104, None)
