"""Database fixtures shared by ``tests/db`` and ``tests/tables``: every store test runs on SQLite and, when the
server at 127.0.0.1:5432 answers (trust auth, user ``postgres`` or ``root``), on PostgreSQL too.

PostgreSQL runs use a private database created for the test session (dropped at the end) whose ``public``
schema is recreated before each test, so runs are repeatable and never touch anyone else's tables; the end-to-end
tests instead find it migrated once and emptied (:class:`MigratedPostgres`), as their SQLite runs copy a migrated
template.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.db import Base, create_engine, make_sessionmaker
from bot.db.check import open_database

PG_HOST, PG_PORT, PG_DATABASE = "127.0.0.1", 5432, "test"
PG_USERS = ("postgres", "root")


async def _pg_user() -> str | None:
    import asyncpg

    for user in PG_USERS:
        try:
            conn = await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=user, database=PG_DATABASE, timeout=3)
        except (TimeoutError, OSError, asyncpg.PostgresError):
            continue
        await conn.close()
        return user
    return None


async def _admin(user: str, sql: str, database: str = PG_DATABASE) -> None:
    import asyncpg

    conn = await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=user, database=database, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[tuple[str, str] | str]:
    """``(user, database)`` of a private PostgreSQL database for this session, or why there is none."""
    import asyncpg

    user = asyncio.run(_pg_user())
    if user is None:
        yield f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}/{PG_DATABASE} as {' or '.join(PG_USERS)}"
        return
    name = f"coroner_test_{uuid.uuid4().hex[:12]}"
    try:
        asyncio.run(_admin(user, f'CREATE DATABASE "{name}"'))
    except asyncpg.PostgresError as exc:
        yield f"PostgreSQL user {user} cannot create a test database: {exc}"
        return
    try:
        yield user, name
    finally:
        asyncio.run(_admin(user, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_database: tuple[str, str] | str) -> str:
    """A URL of an empty database: a fresh SQLite file, or the private PostgreSQL database with a fresh schema."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'coroner.db'}"
    return fresh_postgres(pg_database)


def fresh_postgres(pg_database: tuple[str, str] | str) -> str:
    """The URL of the private PostgreSQL database with its ``public`` schema recreated (skips the test, saying
    why, when there is none)."""
    if isinstance(pg_database, str):
        pytest.skip(pg_database)
    user, name = pg_database
    asyncio.run(_admin(user, "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public", database=name))
    return f"postgresql+asyncpg://{user}@{PG_HOST}:{PG_PORT}/{name}"


async def _tables(user: str, name: str) -> tuple[set[str], list[str]]:
    """The tables of the private database's ``public`` schema, and its Alembic revisions."""
    import asyncpg

    conn = await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=user, database=name, timeout=5)
    try:
        tables = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        revisions = ([r[0] for r in await conn.fetch("SELECT version_num FROM alembic_version")]
                     if "alembic_version" in tables else [])
        return tables, revisions
    finally:
        await conn.close()


class MigratedPostgres:
    """The private PostgreSQL database at the newest schema for each test that asks (:meth:`fresh`), without
    running every migration again: the schema is made once (as the bot's start makes it), and later tests find its
    tables emptied (``TRUNCATE ... RESTART IDENTITY``: ids count from 1 again, as in a new schema). A test that
    left another schema behind (other tables, another revision) gets it made anew."""

    def __init__(self, pg_database: tuple[str, str] | str) -> None:
        self.pg_database = pg_database
        self.made: tuple[set[str], list[str]] | None = None

    def fresh(self) -> str:
        """The URL of the database with every table of the newest schema, empty (skips, saying why, when there is
        no PostgreSQL)."""
        if isinstance(self.pg_database, str):
            pytest.skip(self.pg_database)
        user, name = self.pg_database
        url = f"postgresql+asyncpg://{user}@{PG_HOST}:{PG_PORT}/{name}"
        if self.made is not None and asyncio.run(_tables(user, name)) == self.made:
            emptied = ", ".join(f'"{t}"' for t in sorted(self.made[0] - {"alembic_version"}))
            asyncio.run(_admin(user, f"TRUNCATE {emptied} RESTART IDENTITY CASCADE", database=name))
            return url
        fresh_postgres(self.pg_database)

        async def migrate() -> None:
            await (await open_database(url)).dispose()

        asyncio.run(migrate())
        self.made = asyncio.run(_tables(user, name))
        return url


@pytest.fixture(scope="session")
def migrated_postgres(pg_database: tuple[str, str] | str) -> MigratedPostgres:
    """The session's :class:`MigratedPostgres` (the end-to-end tests' PostgreSQL database: the bot's start finds
    its schema up to date, as a SQLite test's copy of the migrated template)."""
    return MigratedPostgres(pg_database)


@pytest.fixture
def pg_url(pg_database: tuple[str, str] | str) -> str:
    """Only PostgreSQL (for tests of several processes on one database): :func:`fresh_postgres`."""
    return fresh_postgres(pg_database)


@pytest_asyncio.fixture
async def pg_sessions(pg_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A test's own sessions on the PostgreSQL database its bot processes share (:func:`pg_url`)."""
    engine = create_engine(pg_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


@pytest_asyncio.fixture
async def engine(db_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on an empty database (no tables)."""
    engine = create_engine(db_url)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest_asyncio.fixture
async def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """A sessionmaker over a database holding every table (made from the models; the migration tests prove
    the migration builds the same schema)."""
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    return make_sessionmaker(engine)


@pytest_asyncio.fixture
async def other(db_url: str, sessions: async_sessionmaker[AsyncSession]) -> AsyncIterator[
        async_sessionmaker[AsyncSession]]:
    """Sessions of a second "process" on the database of ``sessions``: its own engine (connection pool), as a
    second bot process would have."""
    engine = create_engine(db_url)
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()
