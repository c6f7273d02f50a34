"""WAL checkpoints in the background (:mod:`bot.db.checkpoints`): the bot's SQLite connections leave SQLite's own
checkpoint (run inside a commit, holding the write lock) as a backstop, and every so many commits a passive
checkpoint runs in a worker thread instead."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import Base, checkpoints, create_engine
from bot.db.checkpoints import BACKSTOP, Checkpointer
from bot.db.models import Game


@pytest_asyncio.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    yield engine
    await engine.dispose()


def _checkpoints(engine: AsyncEngine) -> Checkpointer:
    return engine.dialect.dbapi.checkpoints  # type: ignore[union-attr,no-any-return]


def _game(n: int) -> dict[str, Any]:
    return dict(game="potato", mode="classic", guild_id=1, channel_id=n, host_id=3, options={}, language="en")


async def test_the_bots_connections_keep_sqlites_own_checkpoint_as_a_backstop(engine: AsyncEngine,
                                                                              tmp_path: Path) -> None:
    """A file database's connections checkpoint in a commit only past BACKSTOP pages, and the engine watches the
    file; an in-memory database (no WAL) is not watched."""
    async with engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == BACKSTOP
    assert _checkpoints(engine).path == str(tmp_path / "wal.db")
    memory = create_engine("sqlite+aiosqlite://")
    try:
        async with memory.connect() as conn:
            await conn.execute(text("SELECT 1"))
        assert _checkpoints(memory).path is None
    finally:
        await memory.dispose()


async def test_every_so_many_write_commits_a_checkpoint_runs_in_a_worker_thread(
        engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The third write commit (``every`` 3) starts a passive checkpoint outside the event loop's thread, which
    copies the whole log into the database file; read-only transactions do not count."""
    threads: list[str] = []
    answers: list[tuple[int, int, int]] = []
    real = checkpoints.checkpoint

    def recorded(path: str) -> tuple[int, int, int]:
        threads.append(threading.current_thread().name)
        answers.append(real(path))
        return answers[-1]

    monkeypatch.setattr(checkpoints, "checkpoint", recorded)
    watcher = _checkpoints(engine)
    watcher.every = 3
    for n in range(2):
        async with engine.begin() as conn:
            await conn.execute(insert(Game), _game(n))
        async with engine.connect() as conn:
            await conn.execute(select(Game.id))
            await conn.commit()
    await watcher.wait()
    assert threads == [] and watcher.done == 0
    async with engine.begin() as conn:
        await conn.execute(insert(Game), _game(2))
    await watcher.wait()
    assert watcher.done == 1 and len(threads) == 1 and threads[0] != threading.main_thread().name
    busy, logged, copied = answers[0]
    assert busy == 0 and logged > 0 and copied == logged
