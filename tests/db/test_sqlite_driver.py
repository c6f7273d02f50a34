"""The one-hop aiosqlite cursor (:mod:`bot.db.sqlite_driver`): what SQLAlchemy sees is what aiosqlite gave it, and
each statement costs at most one call in the connection's worker thread: none when it cannot wait on a lock (in WAL
mode: a read, a commit, a write in a transaction that holds the write lock already, a first write while the lock is
free); one engine's writers queue for the write lock in the event loop, one after the other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import pytest_asyncio
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import Base, create_engine, sqlite_driver
from bot.db.models import Game
from bot.db.sqlite_driver import OneHopConnection


@pytest_asyncio.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'hop.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    yield engine
    await engine.dispose()


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions sent to aiosqlite's worker threads from now on."""
    sent: list[str] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(getattr(fn, "__name__", repr(fn)))
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return sent


def _game(n: int) -> dict[str, Any]:
    return dict(game="potato", mode="classic", guild_id=1, channel_id=n, host_id=3, options={}, language="en")


async def test_bot_engines_use_the_one_hop_connection(engine: AsyncEngine) -> None:
    """``create_engine`` gives SQLite engines the one-hop DBAPI; the URL and dialect stay aiosqlite's."""
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        assert isinstance(raw.dbapi_connection, OneHopConnection)
    assert engine.dialect.driver == "aiosqlite"


async def test_rows_rowcount_and_returning_come_back(engine: AsyncEngine) -> None:
    """Selects return their rows, an UPDATE its row count, an INSERT its RETURNING and an executemany every row."""
    async with engine.begin() as conn:
        new_id = (await conn.execute(insert(Game).returning(Game.id), _game(1))).scalar_one()
        await conn.execute(insert(Game), [_game(2), _game(3)])
        changed = await conn.execute(update(Game).where(Game.channel_id >= 2).values(version=Game.version + 1))
        assert changed.rowcount == 2
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(Game))).scalar() == 3
        rows = (await conn.execute(select(Game.channel_id, Game.version).order_by(Game.channel_id))).all()
        assert [tuple(r) for r in rows] == [(1, 0), (2, 1), (3, 1)]
        assert (await conn.execute(select(Game.id).where(Game.channel_id == 1))).scalar() == new_id
        assert (await conn.execute(select(Game.id).where(Game.channel_id == 99))).first() is None


async def test_in_wal_mode_a_move_s_statements_make_no_hop(engine: AsyncEngine, hops: list[str]) -> None:
    """In WAL mode a transaction's first write runs in the loop's thread when the write lock is free (tried with a
    busy timeout of 0, then SQLite's 10 s back), its later statements, a read and the commit too: no call in the
    worker thread; ending a connection that opened no transaction (a read, or the pool's reset after a commit) is
    none either."""
    async with engine.connect() as conn:
        assert (await conn.execute(text("SELECT 1"))).scalar() == 1
    assert hops == []
    async with engine.begin() as conn:
        await conn.execute(insert(Game), _game(1))
        await conn.execute(insert(Game), _game(2))
        assert (await conn.execute(select(func.count()).select_from(Game))).scalar() == 2
    assert hops == []
    async with engine.begin() as conn:  # (a new transaction: its first write is tried again)
        await conn.execute(update(Game).values(version=1))
        assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar() == 10000
    assert hops == []
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.sum(Game.version)))).scalar() == 2


async def test_without_wal_every_statement_hops(hops: list[str]) -> None:
    """An in-memory database has no WAL (its readers could wait for a writer): each statement is one hop."""
    engine = create_engine("sqlite+aiosqlite://")
    try:
        async with engine.connect() as conn:
            await conn.execute(text("SELECT 1"))  # (connecting set the pragmas)
            hops.clear()
            assert (await conn.execute(text("SELECT 2"))).scalar() == 2
            await conn.execute(text("SELECT 3"))
        assert hops == ["_run", "_run"]
    finally:
        await engine.dispose()


async def test_another_engines_first_write_waits_for_the_lock_without_stopping_the_loop(
        engine: AsyncEngine, tmp_path: Path, hops: list[str]) -> None:
    """A transaction's first write waits for another engine's write lock (another process, say) in the worker
    thread: meanwhile the event loop runs on, and the holder writes again and commits (were it waiting in the loop's
    thread, the holder could not commit before SQLite's busy timeout, and the waiting write would fail "database is
    locked")."""
    other = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'hop.db'}")
    try:
        async with engine.connect() as holder, other.connect() as waiter:
            await holder.begin()
            await holder.execute(insert(Game), _game(1))
            await waiter.begin()
            hops.clear()
            waiting = asyncio.ensure_future(waiter.execute(insert(Game), _game(2)))
            while "_run" not in hops:  # (the waiter's write is in its worker thread)
                await asyncio.sleep(0)
            await holder.execute(insert(Game), _game(3))  # (holds the lock: no hop)
            await holder.commit()
            await waiting
            await waiter.commit()
    finally:
        await other.dispose()
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(Game))).scalar() == 3


async def _queued(writers: asyncio.Lock) -> None:
    """Until a task waits for ``writers`` (the engine's writer lock)."""
    while not writers._waiters:
        await asyncio.sleep(0)


def _writers(engine: AsyncEngine) -> asyncio.Lock:
    return engine.dialect.dbapi.writers.lock()  # type: ignore[union-attr]


async def test_one_engines_writers_queue_in_the_loop_not_in_sqlites_busy_handler(engine: AsyncEngine,
                                                                               hops: list[str]) -> None:
    """While a connection's transaction holds the write lock, another connection of the same engine waits for its
    first write in the event loop (not in its worker thread, where SQLite's busy handler would sleep up to
    100 ms at a time) and writes the moment the holder commits; the holder meanwhile writes and commits as usual."""
    async with engine.connect() as holder, engine.connect() as waiter:
        await holder.begin()
        await holder.execute(insert(Game), _game(1))
        await waiter.begin()
        hops.clear()
        waiting = asyncio.ensure_future(waiter.execute(insert(Game), _game(2)))
        await _queued(_writers(engine))
        await holder.execute(insert(Game), _game(3))
        assert hops == [] and not waiting.done()
        await holder.commit()
        await waiting
        assert hops == []  # (the holder's commit, then the waiter's write: both in the loop's thread)
        await waiter.commit()
    assert not _writers(engine).locked()
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(Game))).scalar() == 3


async def test_a_rollback_and_a_failed_write_give_the_writer_lock_back(engine: AsyncEngine) -> None:
    """A write transaction rolled back, and one whose first write failed, leave the engine's writer lock free."""
    async with engine.connect() as conn:
        await conn.begin()
        await conn.execute(insert(Game), _game(1))
        assert _writers(engine).locked()
        await conn.rollback()
    assert not _writers(engine).locked()
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(insert(Game), {**_game(2), "game": None})
    assert not _writers(engine).locked()
    async with engine.begin() as conn:
        await conn.execute(insert(Game), _game(3))
    async with engine.connect() as conn:
        assert (await conn.execute(select(Game.channel_id))).scalars().all() == [3]


async def test_a_writer_queued_past_the_busy_timeout_fails_as_sqlite_would(engine: AsyncEngine,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A first write that waits for the writer lock longer than SQLite's busy timeout fails "database is locked"
    (SQLAlchemy's OperationalError), as it did in SQLite's busy handler, and nothing of it is written."""
    monkeypatch.setattr(sqlite_driver, "WRITER_WAIT", 0.05)
    async with engine.connect() as holder, engine.connect() as waiter:
        await holder.begin()
        await holder.execute(insert(Game), _game(1))
        await waiter.begin()
        with pytest.raises(OperationalError, match="database is locked"):
            await waiter.execute(insert(Game), _game(2))
        await waiter.rollback()
        await holder.commit()
    async with engine.connect() as conn:
        assert (await conn.execute(select(Game.channel_id))).scalars().all() == [1]


async def test_errors_reach_sqlalchemy_as_before(engine: AsyncEngine) -> None:
    """A constraint failure in the worker thread is SQLAlchemy's IntegrityError, and the transaction rolls back."""
    async with engine.begin() as conn:
        game_id = (await conn.execute(insert(Game).returning(Game.id), _game(1))).scalar_one()
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(insert(Game), _game(2))
            await conn.execute(insert(Game), {**_game(3), "id": game_id})
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(Game))).scalar() == 1
