"""Engines, sessions and the shared column types."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import create_engine
from bot.db.models import Game, Timer


async def test_sqlite_file_database_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    """Every SQLite connection gets journal_mode=wal and foreign_keys=ON."""
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
    finally:
        await engine.dispose()


def _game(**values: object) -> Game:
    fields: dict[str, object] = dict(game="potato", mode="classic", guild_id=1, channel_id=2, host_id=3,
                                     options={}, language="en")
    return Game(**(fields | values))


@pytest.mark.parametrize("stored", [
    datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
    datetime(2026, 11, 29, 13, 0, tzinfo=timezone(timedelta(hours=1))),
    datetime(2026, 11, 29, 7, 0, tzinfo=timezone(timedelta(hours=-5))),
])
async def test_datetimes_come_back_aware_in_utc(sessions: async_sessionmaker[AsyncSession], stored: datetime) -> None:
    """Any aware datetime is stored as UTC and read back aware, equal to what was written (SQLite too)."""
    async with sessions() as session, session.begin():
        game = _game(created_at=stored)
        session.add(game)
    async with sessions() as session:
        loaded = await session.get(Game, game.id)
        assert loaded is not None
        assert loaded.created_at == stored
        assert loaded.created_at.tzinfo == UTC
        assert loaded.created_at.hour == 12


async def test_naive_datetimes_are_refused(sessions: async_sessionmaker[AsyncSession]) -> None:
    """Binding a naive datetime raises instead of guessing its time zone."""
    with pytest.raises(StatementError, match="naive datetime"):
        async with sessions() as session, session.begin():
            session.add(_game(created_at=datetime(2026, 11, 29, 12, 0)))


async def test_json_columns_round_trip(sessions: async_sessionmaker[AsyncSession]) -> None:
    """JSON columns keep nested dicts, lists, unicode and None."""
    payload = {"seats": [1, 2], "names": ["Ñandú", "Zoë"], "nested": {"x": None, "y": 1.5}}
    async with sessions() as session, session.begin():
        game = _game(options=payload, state=payload)
        session.add(game)
    async with sessions() as session:
        loaded = await session.get(Game, game.id)
        assert loaded is not None and loaded.options == payload and loaded.state == payload


async def test_foreign_keys_are_enforced(sessions: async_sessionmaker[AsyncSession]) -> None:
    """A timer for a game that does not exist is refused (SQLite included: foreign_keys=ON)."""
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        async with sessions() as session, session.begin():
            session.add(Timer(game_id=999, kind="turn", due_at=datetime.now(UTC), payload={}, version_at_schedule=0))


async def test_discord_ids_fit_in_bigint(sessions: async_sessionmaker[AsyncSession]) -> None:
    """Snowflakes above 2**32 survive a round trip."""
    snowflake = 1_234_567_890_123_456_789
    async with sessions() as session, session.begin():
        game = _game(guild_id=snowflake, channel_id=snowflake, host_id=snowflake, seed=2**62)
        session.add(game)
    async with sessions() as session:
        loaded = await session.get(Game, game.id)
        assert loaded is not None and (loaded.guild_id, loaded.seed) == (snowflake, 2**62)
