"""Several bot processes started at once on one empty PostgreSQL database each upgrade it at start: the upgrades
are serialised (an advisory lock), so one builds the schema and the others find it up to date."""

from __future__ import annotations

import asyncio

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from bot.db.migrate import alembic_config, upgrade_to_head
from bot.db.session import create_engine
from tests.db.backends import pg_database, pg_url  # noqa: F401

pytestmark = pytest.mark.postgres


async def test_processes_starting_at_once_upgrade_an_empty_database_once(pg_url: str) -> None:  # noqa: F811
    """Three upgrades at once on an empty database all succeed and leave one schema at the newest revision."""
    engines = [create_engine(pg_url) for _ in range(3)]
    try:
        async with asyncio.timeout(30):  # unserialised, the upgrades wait on each other's tables for good
            await asyncio.gather(*(upgrade_to_head(engine) for engine in engines))
        async with engines[0].connect() as conn:
            versions = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
            tables = (await conn.execute(text("SELECT count(*) FROM games"))).scalar()
    finally:
        for engine in engines:
            await engine.dispose()
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert versions == [head] and tables == 0
