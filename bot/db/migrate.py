"""Run Alembic migrations from code: no ``alembic.ini``, the config is built here.

The scripts live in the ``migrations/`` folder next to the ``bot`` package (the repository root for an
editable install, ``site-packages`` when shipped alongside ``bot/``). :func:`upgrade_to_head` shares the
caller's async engine with Alembic (the cookbook's "programmatic API use with asyncio" pattern);
``migrations/env.py`` uses the connection it is handed, or opens its own from ``DATABASE_URL``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine


def migrations_dir() -> Path:
    """The folder holding ``env.py`` and ``versions/``. Raises ``FileNotFoundError`` when none is found."""
    candidates = [Path(__file__).resolve().parents[2] / "migrations", Path.cwd() / "migrations"]
    for candidate in candidates:
        if (candidate / "env.py").is_file():
            return candidate
    raise FileNotFoundError(f"no Alembic migrations folder among {[str(c) for c in candidates]}")


def alembic_config(url: str | None = None) -> Config:
    """An Alembic :class:`Config` pointing at :func:`migrations_dir`; ``url`` (optional) becomes
    ``sqlalchemy.url`` for env.py when no connection is passed in ``config.attributes["connection"]``."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("file_template", "%%(year)d%%(month).2d%%(day).2d_%%(rev)s_%%(slug)s")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _run(connection: Connection, operation: str, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    getattr(command, operation)(config, revision)


#: the PostgreSQL advisory lock key that serialises upgrades (any constant; "coroner" in ASCII)
UPGRADE_LOCK = 0x636F726F6E6572


@asynccontextmanager
async def foreign_keys_off(conn: AsyncConnection) -> AsyncIterator[None]:
    """On SQLite, foreign keys are not enforced while the block runs (on every other database nothing changes).

    SQLite cannot alter most of a table in place, so Alembic's batch mode rebuilds it: a new table, the rows
    copied, the old one dropped. With ``foreign_keys=ON`` (every connection of ours, :mod:`bot.db.session`) that
    DROP first deletes the old table's rows, and ``ON DELETE CASCADE`` deletes every row that refers to them: a
    rebuild of ``games`` emptied ``seats``, ``game_actions``, ``timers``... (SQLite's "ALTER TABLE" page, "making
    other kinds of table schema changes", says to turn them off first). The pragma is a no-op inside a
    transaction, so it is set on ``conn`` before the block's transaction begins and set again after it, whatever
    happened: the connection goes back to the pool as it came. Check the keys inside the transaction with
    :func:`check_foreign_keys`."""
    sqlite = conn.dialect.name == "sqlite"
    if sqlite:
        await conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        await conn.commit()
    try:
        yield
    finally:
        if sqlite:
            await conn.rollback()
            await conn.exec_driver_sql("PRAGMA foreign_keys=ON")
            await conn.commit()


async def check_foreign_keys(conn: AsyncConnection) -> None:
    """On SQLite, raise ``RuntimeError`` (so the caller's transaction rolls back) when a row refers to one that
    is not there, as ``foreign_keys=ON`` would have refused (``PRAGMA foreign_key_check``)."""
    if conn.dialect.name == "sqlite":
        broken = (await conn.exec_driver_sql("PRAGMA foreign_key_check")).all()
        if broken:
            raise RuntimeError(f"the migration left rows referring to missing ones: {broken[:5]}")


@asynccontextmanager
async def transaction(conn: AsyncConnection) -> AsyncIterator[None]:
    """One database transaction for the whole block, DDL included, committed at its end, rolled back on an error.
    Python's sqlite3 module opens a transaction only before INSERT, UPDATE, DELETE or REPLACE, so on SQLite a
    migration's first ALTER or CREATE ran (and committed) on its own, and a migration failing after it left the
    file half upgraded, with ``alembic_version`` unchanged, so every later start failed on it: there the block
    begins with an explicit ``BEGIN``, which sqlite3's commit and rollback then end."""
    async with conn.begin():
        if conn.dialect.name == "sqlite":
            await conn.exec_driver_sql("BEGIN")
        yield


async def _migrate(engine: AsyncEngine, operation: str, revision: str) -> None:
    async with engine.connect() as conn, foreign_keys_off(conn):
        async with transaction(conn):
            if conn.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
            await conn.run_sync(_run, operation, revision)
            await check_foreign_keys(conn)


async def upgrade_to_head(engine: AsyncEngine) -> None:
    """Migrate the database behind ``engine`` to the newest revision, in one transaction. On PostgreSQL the
    transaction first takes an advisory lock, so processes starting at once upgrade one after the other (the
    first builds the schema, the others find it up to date) instead of racing on the same tables. On SQLite the
    rebuilt tables keep the rows that refer to them (:func:`foreign_keys_off`)."""
    await _migrate(engine, "upgrade", "head")


async def downgrade_to(engine: AsyncEngine, revision: str = "base") -> None:
    """Migrate the database behind ``engine`` down to ``revision`` (``base``: drop every table); on SQLite with
    the foreign keys off, as :func:`upgrade_to_head`."""
    await _migrate(engine, "downgrade", revision)
