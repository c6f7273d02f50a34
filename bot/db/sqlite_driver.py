"""aiosqlite with one thread hop per statement: the DBAPI module :func:`bot.db.session.create_engine` hands
SQLAlchemy for ``sqlite+aiosqlite`` URLs (``create_async_engine(module=...)``; the dialect, the URL and the
connections stay SQLAlchemy's and aiosqlite's).

aiosqlite runs each SQLite call in the connection's worker thread, and SQLAlchemy's adapter makes four such calls
per statement (make a cursor, execute, fetch the rows, close the cursor), each a queue put, a thread wake-up and a
``call_soon_threadsafe`` back into the event loop; pooled connections add a rollback at each check-in: 69 such
calls per Hot Potato move, each about a third of a cheap statement's CPU (README, "The move pipeline"). Here a
statement is one call in the worker thread (cursor, execute, fetch, close together; its description, row count and
last row id kept), and a rollback or commit of a connection with no transaction open makes none (SQLite's own
``in_transaction`` flag, which any thread may read). A statement that cannot wait on another connection's lock runs
in the event loop's thread with no hop at all (:meth:`OneHopConnection.cannot_wait`: a read in WAL mode, a write in a
transaction that holds the write lock already). In WAL mode a transaction's first write is tried there too with a
busy timeout of 0 (:meth:`OneHopConnection.write_now`) and goes to the worker thread only when another process holds
the lock (it may wait up to SQLite's busy timeout for it, so the loop never waits on a lock), and a commit, which
waits on nothing in WAL mode, runs there; without WAL every statement and commit keeps the hop.

One writer at a time per process (:class:`WriterQueue`): a transaction's first write waits in an asyncio queue for
the other connections of the engine to end their write transactions, rather than in SQLite's busy handler. That
handler sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms in turn while another connection holds the write
lock, so a waiter woke up to 100 ms after the lock was free: with six busy channels on one process the first write
of a move waited 4 ms at the median, 25 ms at p90 and 87 ms at p99 (``bench_latency --stages``). Queued in asyncio,
it takes the lock the moment the previous writer commits. Other processes on the same file (a tool, a benchmark's
reader) still meet SQLite's busy handler, and its timeout is kept for them.

It relies on aiosqlite's ``Connection._execute`` (queue a function for the worker thread and await it) and
``Connection._conn`` (the ``sqlite3`` connection), as SQLAlchemy's own adapter relies on ``_tx``; server-side
cursors (``stream_results``) keep SQLAlchemy's cursor.
"""

from __future__ import annotations

import asyncio
import collections
import sqlite3
import weakref
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT

from bot.db.checkpoints import Checkpointer

#: seconds a first write waits in the queue before it fails as SQLite's would ("database is locked"): its busy
#: timeout (``PRAGMA busy_timeout`` in :func:`bot.db.session.create_engine`)
WRITER_WAIT = 10.0


def _run(conn: sqlite3.Connection, operation: str, parameters: Any, many: bool) -> tuple[Any, list[Any], int, Any]:
    """In the worker thread: the whole statement on a cursor of its own; (description, rows, rowcount, lastrowid)."""
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else []
        return description, rows, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


class OneHopCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor, but each statement is one call in the worker thread and the cursor itself
    is only memory (no aiosqlite cursor is made or closed)."""

    __slots__ = ("_description", "_rowcount", "_lastrowid")

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: Any = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    async def _async_soft_close(self) -> None:
        pass  # nothing is open in the worker thread

    def close(self) -> None:
        self._rows.clear()

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        return await self._one(operation, parameters, many=False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> Any:
        return await self._one(operation, seq_of_parameters, many=True)

    async def _one(self, operation: Any, parameters: Any, *, many: bool) -> None:
        connection: aiosqlite.Connection = self._connection  # type: ignore[assignment]
        adapt: OneHopConnection = self._adapt_connection  # type: ignore[assignment]
        if adapt.cannot_wait(operation):
            description, rows, self._rowcount, self._lastrowid = _run(connection._conn, operation, parameters, many)
        else:
            writes = _writes(operation)
            if writes:
                await adapt.take_writer()
            try:
                ran = adapt.write_now(operation, parameters, many) if writes else None
                if ran is None:
                    async with adapt._execute_mutex:
                        ran = await connection._execute(_run, connection._conn, operation, parameters, many)
                description, rows, self._rowcount, self._lastrowid = ran
            finally:
                adapt.ran(operation, writes)
        self._description = description
        self._rows = collections.deque(rows)

    def nextset(self) -> None:
        return None


def _verb(operation: str) -> str:
    return operation.lstrip()[:7].upper()


def _reads(operation: str) -> bool:
    return _verb(operation).startswith("SELECT")


def _writes(operation: str) -> bool:
    """A statement that takes the write lock (a ``SAVEPOINT``, say, opens a transaction without it)."""
    return _verb(operation).startswith(("INSERT", "UPDATE", "DELETE", "REPLACE"))


class WriterQueue:
    """The write lock of one engine's database inside this process, an :class:`asyncio.Lock` per event loop (an
    engine may outlive a loop in tests): a connection takes it before its transaction's first write and gives it
    back when the transaction ends (commit, rollback, close), so this process's writers take SQLite's lock one
    after the other, in arrival order, without sleeping in SQLite's busy handler."""

    def __init__(self) -> None:
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary())

    def lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        found = self._locks.get(loop)
        if found is None:
            found = self._locks[loop] = asyncio.Lock()
        return found


class OneHopConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection with :class:`OneHopCursor`, no thread hop to end a transaction that is not
    open (a pooled connection's check-in, a read-only session's end), none for a statement that cannot wait on
    another connection's lock (:meth:`cannot_wait`), and its writes queued behind the engine's other connections'
    (:class:`WriterQueue`)."""

    __slots__ = ("_wal", "_writing", "_writers", "_holds", "_busy_ms", "checkpoints")
    _cursor_cls = OneHopCursor

    def __init__(self, dbapi: Any, connection: aiosqlite.Connection, writers: WriterQueue | None = None,
                 checkpoints: Checkpointer | None = None) -> None:
        super().__init__(dbapi, connection)
        self._wal = False
        self._writing = False
        self._writers = writers or WriterQueue()
        #: the engine's checkpoints in the background (:mod:`bot.db.checkpoints`), told of every commit
        self.checkpoints = checkpoints or Checkpointer()
        #: the engine's writer lock this connection holds (its transaction wrote, or is about to) and its loop
        self._holds: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        #: SQLite's busy timeout of this connection in ms, read at its first :meth:`write_now`
        self._busy_ms: int | None = None

    def wal(self, on: bool) -> None:
        """Whether the database is in WAL mode (``PRAGMA journal_mode``): then its readers never wait for a writer,
        so a ``SELECT`` runs in the calling thread (:meth:`cannot_wait`)."""
        self._wal = on

    def cannot_wait(self, operation: str) -> bool:
        """Whether ``operation`` runs in the event loop's thread rather than aiosqlite's: it cannot wait on a lock
        (SQLite's ``busy_timeout``, which would stop the loop), because this connection's transaction holds the
        database's write lock already (a write ran in it: :meth:`ran`) or, in WAL mode, it only reads. A statement
        costs about twice the CPU with the hop to the worker thread and back (README, "The move pipeline"); the
        first write of a transaction keeps it when it has to wait for the lock (:meth:`write_now`)."""
        driver = self._connection._connection
        if driver is None or self._execute_mutex.locked():  # closed, or busy: let aiosqlite say so, or wait
            return False
        return (self._writing and driver.in_transaction) or (self._wal and _reads(operation))

    async def take_writer(self) -> None:
        """Wait for the engine's writer lock (:class:`WriterQueue`) before a write that may need SQLite's (the
        transaction's first), unless this connection holds it already. Raises ``sqlite3.OperationalError`` ("database
        is locked", as SQLite's busy timeout would) after :data:`WRITER_WAIT` seconds."""
        if self._holds is not None:
            return
        lock = self._writers.lock()
        try:
            async with asyncio.timeout(WRITER_WAIT):
                await lock.acquire()
        except TimeoutError:
            raise sqlite3.OperationalError("database is locked") from None
        self._holds = (asyncio.get_running_loop(), lock)

    def write_now(self, operation: str, parameters: Any, many: bool) -> tuple[Any, list[Any], int, Any] | None:
        """A transaction's first write run in the event loop's thread when SQLite's write lock is free (WAL mode, no
        transaction open yet, the engine's writer lock held: :meth:`take_writer`): tried with a busy timeout of 0, so
        it never waits; None when another connection (another process) holds the lock (``SQLITE_BUSY``), after
        rolling back the transaction the attempt began: then the write waits in the worker thread as before. Saves
        the thread hop (about 50-90 us of CPU) on every write transaction of this process."""
        conn: sqlite3.Connection | None = self._connection._connection
        if not self._wal or conn is None or self._execute_mutex.locked() or conn.in_transaction:
            return None
        if self._busy_ms is None:
            self._busy_ms = int(conn.execute("PRAGMA busy_timeout").fetchone()[0])
        conn.execute("PRAGMA busy_timeout=0")
        try:
            return _run(conn, operation, parameters, many)
        except sqlite3.OperationalError as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY:  # (any SQLITE_BUSY_*)
                raise
            if conn.in_transaction:
                conn.rollback()
            return None
        finally:
            conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")

    def ran(self, operation: str, writes: bool | None = None) -> None:
        """``operation`` ran (or failed) in the worker thread: a write holds the write lock until the transaction
        ends; the writer lock goes back at once when no transaction is open after it."""
        driver = self._connection._connection
        open_ = driver is not None and driver.in_transaction
        if open_ and (_writes(operation) if writes is None else writes):
            self._writing = True
        if not open_:
            self._give_back()

    def _give_back(self) -> None:
        held, self._holds = self._holds, None
        if held is None:
            return
        loop, lock = held
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            lock.release()
        elif not loop.is_closed():  # (a connection dropped from another thread: the pool's garbage collection)
            loop.call_soon_threadsafe(lock.release)

    def _idle(self) -> bool:
        driver = self._connection._connection  # None once closed: let aiosqlite say so
        return driver is not None and not driver.in_transaction

    def rollback(self) -> None:
        self._writing = False  # (the next transaction's first write may wait for the lock again)
        try:
            if not self._idle():
                super().rollback()
        finally:
            self._give_back()

    def commit(self) -> None:
        """Commit; in WAL mode in the event loop's thread (no hop): the transaction holds the write lock, and with
        ``synchronous=NORMAL`` a commit appends to the log without syncing, so it waits on nothing (the background
        checkpoints, :mod:`bot.db.checkpoints`, keep SQLite's own in a commit a rare backstop)."""
        self._writing = False
        try:
            if self._idle():
                return
            driver = self._connection._connection
            if self._wal and driver is not None and not self._execute_mutex.locked():
                driver.commit()
            else:
                super().commit()
        finally:
            self._give_back()
        self.checkpoints.committed()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._give_back()

    def terminate(self) -> None:
        try:
            super().terminate()
        finally:
            self._give_back()


class OneHopDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The DBAPI module of ``sqlite+aiosqlite`` whose connections are :class:`OneHopConnection`, sharing one
    :class:`WriterQueue` and one :class:`~bot.db.checkpoints.Checkpointer` (one module object per engine:
    :func:`one_hop_dbapi`)."""

    def __init__(self, aiosqlite: Any, sqlite: Any) -> None:
        super().__init__(aiosqlite, sqlite)
        self.writers = WriterQueue()
        self.checkpoints = Checkpointer()

    def connect(self, *arg: Any, **kw: Any) -> OneHopConnection:
        adapted = super().connect(*arg, **kw)
        return OneHopConnection(self, adapted._connection, self.writers, self.checkpoints)


def one_hop_dbapi() -> OneHopDBAPI:
    """A fresh module object for one engine (``create_async_engine(url, module=one_hop_dbapi())``)."""
    return OneHopDBAPI(aiosqlite, sqlite3)


