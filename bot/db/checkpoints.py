"""WAL checkpoints off the commit path, for the SQLite engines :func:`bot.db.session.create_engine` makes.

SQLite checkpoints a WAL database itself in the commit that takes the log past ``wal_autocheckpoint`` pages (1000 by
default): that commit copies the log into the database file and syncs both, about every 600 commits of the bot,
while it holds the write lock (and this process's writer queue, :class:`bot.db.sqlite_driver.WriterQueue`). Measured
with six busy channels on a loaded machine, that one commit took 160-190 ms every time, and every move waiting to
write waited with it (``bench_latency --stages``: the commit's duration in the trace).

Here the bot's connections leave SQLite's own checkpoint as a backstop only (:data:`BACKSTOP` pages) and every
:data:`EVERY` commits of the engine a ``PASSIVE`` checkpoint runs in a worker thread on a connection of its own: it
copies what it can without waiting for or blocking any reader or writer, so no commit carries it. Durability is
unchanged: a commit is in the log (``synchronous=NORMAL``) whether or not it was checkpointed yet, and a crash
leaves the log to be replayed at the next open.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

log = logging.getLogger(__name__)

#: pages of log after which SQLite checkpoints in a commit itself: only if the checkpoints here fall behind
BACKSTOP = 10_000
#: commits of an engine between two checkpoints in the background (a move commits two or three times)
EVERY = 200


def checkpoint(path: str) -> tuple[int, int, int]:
    """In a worker thread: a ``PASSIVE`` checkpoint of the WAL database at ``path`` on a connection of its own;
    SQLite's answer (busy, pages in the log, pages checkpointed)."""
    conn = sqlite3.connect(path, timeout=0)
    try:
        busy, logged, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(busy), int(logged), int(done)
    finally:
        conn.close()


class Checkpointer:
    """Counts one engine's commits and checkpoints its database file in the background every :data:`EVERY` of
    them, one checkpoint at a time (:func:`checkpoint`); does nothing until :meth:`watch` names a WAL file."""

    def __init__(self, every: int = EVERY) -> None:
        self.every = every
        self.path: str | None = None
        #: checkpoints that ran to the end (a failed one is logged and tried again :data:`EVERY` commits later)
        self.done = 0
        self._commits = 0
        self._running: asyncio.Future[tuple[int, int, int]] | None = None

    def watch(self, path: str) -> None:
        """The engine's database is the WAL file at ``path`` (its connections' ``wal_autocheckpoint`` is
        :data:`BACKSTOP`)."""
        self.path = path

    def committed(self) -> None:
        """A write transaction of the engine committed (in the event loop's thread)."""
        if self.path is None:
            return
        self._commits += 1
        if self._commits < self.every or (self._running is not None and not self._running.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a commit outside any event loop: left to the next one, or to the backstop)
            return
        self._commits = 0
        self._running = loop.run_in_executor(None, checkpoint, self.path)
        self._running.add_done_callback(self._ran)

    async def wait(self) -> None:
        """Until the checkpoint running (if any) is over."""
        if self._running is not None:
            await asyncio.wait({self._running})

    def _ran(self, future: asyncio.Future[tuple[int, int, int]]) -> None:
        if future.cancelled():
            return
        if (exc := future.exception()) is not None:
            log.warning("checkpointing %s failed: %s", self.path, exc)
            return
        self.done += 1
