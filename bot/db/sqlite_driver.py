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
transaction that holds the write lock already); a transaction's first write, which may wait up to SQLite's busy
timeout for the lock, and its commit stay in the worker thread, so the loop never waits on a lock.

It relies on aiosqlite's ``Connection._execute`` (queue a function for the worker thread and await it) and
``Connection._conn`` (the ``sqlite3`` connection), as SQLAlchemy's own adapter relies on ``_tx``; server-side
cursors (``stream_results``) keep SQLAlchemy's cursor.
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import EMPTY_DICT


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
            async with adapt._execute_mutex:
                description, rows, self._rowcount, self._lastrowid = await connection._execute(
                    _run, connection._conn, operation, parameters, many)
            adapt.ran(operation)
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


class OneHopConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection with :class:`OneHopCursor`, no thread hop to end a transaction that is not
    open (a pooled connection's check-in, a read-only session's end), and none for a statement that cannot wait on
    another connection's lock (:meth:`cannot_wait`)."""

    __slots__ = ("_wal", "_writing")
    _cursor_cls = OneHopCursor

    def __init__(self, dbapi: Any, connection: aiosqlite.Connection) -> None:
        super().__init__(dbapi, connection)
        self._wal = False
        self._writing = False

    def wal(self, on: bool) -> None:
        """Whether the database is in WAL mode (``PRAGMA journal_mode``): then its readers never wait for a writer,
        so a ``SELECT`` runs in the calling thread (:meth:`cannot_wait`)."""
        self._wal = on

    def cannot_wait(self, operation: str) -> bool:
        """Whether ``operation`` runs in the event loop's thread rather than aiosqlite's: it cannot wait on a lock
        (SQLite's ``busy_timeout``, which would stop the loop), because this connection's transaction holds the
        database's write lock already (a write ran in it: :meth:`ran`) or, in WAL mode, it only reads. A statement
        costs about twice the CPU with the hop to the worker thread and back (README, "The move pipeline"); the
        first write of a transaction, which may wait for the lock, and the commit keep it."""
        driver = self._connection._connection
        if driver is None or self._execute_mutex.locked():  # closed, or busy: let aiosqlite say so, or wait
            return False
        return (self._writing and driver.in_transaction) or (self._wal and _reads(operation))

    def ran(self, operation: str) -> None:
        """``operation`` ran in the worker thread: a write holds the write lock until the transaction ends."""
        driver = self._connection._connection
        if driver is not None and driver.in_transaction and _writes(operation):
            self._writing = True

    def _idle(self) -> bool:
        driver = self._connection._connection  # None once closed: let aiosqlite say so
        return driver is not None and not driver.in_transaction

    def rollback(self) -> None:
        self._writing = False  # (the next transaction's first write may wait for the lock again)
        if not self._idle():
            super().rollback()

    def commit(self) -> None:
        self._writing = False
        if not self._idle():
            super().commit()


class OneHopDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """The DBAPI module of ``sqlite+aiosqlite`` whose connections are :class:`OneHopConnection`."""

    def connect(self, *arg: Any, **kw: Any) -> OneHopConnection:
        adapted = super().connect(*arg, **kw)
        return OneHopConnection(self, adapted._connection)


def one_hop_dbapi() -> OneHopDBAPI:
    """A fresh module object for one engine (``create_async_engine(url, module=one_hop_dbapi())``)."""
    return OneHopDBAPI(aiosqlite, sqlite3)


