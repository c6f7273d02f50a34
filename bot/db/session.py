"""Engines and sessions.

``DATABASE_URL`` picks the backend: a SQLite file through aiosqlite by default (WAL journal, foreign keys on),
PostgreSQL through asyncpg for scale-out. Use one session per unit of work; never share one between tasks.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.db.checkpoints import BACKSTOP
from bot.db.pace import attach
from bot.db.sqlite_driver import OneHopConnection, one_hop_dbapi

DEFAULT_URL = "sqlite+aiosqlite:///coroner.db"


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")  # an in-memory database answers "memory" and stays so
        wal = str(cursor.fetchone()[0]).lower() == "wal"
        if isinstance(dbapi_connection, OneHopConnection):  # (its readers never wait: they need no thread hop)
            dbapi_connection.wal(wal)
            if wal:  # checkpointed in the background, not by a commit (bot.db.checkpoints)
                cursor.execute("PRAGMA database_list")
                path = next((row[2] for row in cursor.fetchall() if row[1] == "main"), "")
                if path:
                    cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP}")
                    dbapi_connection.checkpoints.watch(path)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # safe with WAL: a power cut may only lose the last commits
        cursor.execute("PRAGMA busy_timeout=10000")
    finally:
        cursor.close()


def create_engine(url: str = DEFAULT_URL, **engine_kwargs: Any) -> AsyncEngine:
    """An :class:`AsyncEngine` for ``url`` (``sqlite+aiosqlite:///path`` or ``postgresql+asyncpg://...``).

    SQLite connections get ``journal_mode=WAL``, ``foreign_keys=ON`` and a 10 s busy timeout, aiosqlite runs
    each statement in one call of its worker thread, one writer at a time (:mod:`bot.db.sqlite_driver`), and the
    WAL is checkpointed in the background (:mod:`bot.db.checkpoints`). Extra keyword arguments go to
    :func:`~sqlalchemy.ext.asyncio.create_async_engine` (e.g. ``connect_args``). Its statements are timed
    (:mod:`bot.db.pace`)."""
    if make_url(url).drivername == "sqlite+aiosqlite" and "module" not in engine_kwargs:
        engine_kwargs["module"] = one_hop_dbapi()
    engine = create_async_engine(url, **engine_kwargs)
    attach(engine)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """The session factory: ``expire_on_commit=False`` so loaded rows stay readable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
