"""What the operator may get wrong about the database, said in one line without the password.

:func:`check_url` validates ``DATABASE_URL`` without connecting (a SQLAlchemy URL whose driver is async and
installed); :func:`open_database` connects and upgrades; :func:`inspect_database` connects read-only and reports the
schema revision (for ``coroner check``). Every failure is a :class:`~bot.startup_error.StartupError` (or a
``ValueError`` from :func:`check_url`, which pydantic turns into a settings error).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.migrate import alembic_config, upgrade_to_head
from bot.db.session import create_engine
from bot.startup_error import StartupError

ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


def safe_url(url: str | URL) -> str:
    """``url`` with its password shown as ``***`` (``'<not a URL>'`` when it cannot be parsed)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<not a URL>"


def check_url(url: str) -> URL:
    """Parse ``url`` and check that its driver is async and installed, without connecting.

    Raises ``ValueError`` whose one-line message says what to write instead; it never contains the password."""
    try:
        parsed = make_url(url)
        dialect = parsed.get_dialect(_is_async=True)
    except NoSuchModuleError:  # (an ArgumentError too)
        raise ValueError(f"unknown database kind {parsed.drivername!r}; use sqlite+aiosqlite or "
                         "postgresql+asyncpg") from None
    except ArgumentError:
        raise ValueError("not a SQLAlchemy URL; use e.g. sqlite+aiosqlite:///coroner.db or "
                         "postgresql+asyncpg://user:password@host/database") from None
    better = ASYNC_DRIVERS.get(parsed.get_backend_name(), "an async driver")
    if "+" not in parsed.drivername:
        raise ValueError(f"{parsed.drivername}:// names no async driver; write {better}:// instead")
    if not getattr(dialect, "is_async", False):
        raise ValueError(f"{parsed.drivername}:// has no async driver; write {better}:// instead")
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        raise ValueError(f"the driver of {parsed.drivername}:// needs the Python package {exc.name!r}, which is not "
                         f"installed; write {better}:// instead") from None
    return parsed


def describe(exc: BaseException, url: str) -> str:
    """One line about a database failure: the URL without password and the driver's first line, with the
    password removed wherever the driver repeated it."""
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    text = reason[0] if reason else type(exc).__name__
    password = make_url(url).password
    if password:
        text = text.replace(str(password), "***")
    return f"cannot open the database {safe_url(url)}: {text} (check DATABASE_URL)"


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite ``url`` (``None`` for other databases and in-memory SQLite), after checking that the
    bot may write there. Checked before connecting: aiosqlite's failed connect leaves a thread that outlives the
    event loop and prints a traceback. Raises :class:`~bot.startup_error.StartupError`."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database)
    problem = None
    if not path.parent.is_dir():
        problem = f"the folder {path.parent} does not exist"
    elif path.exists() and not os.access(path, os.R_OK | os.W_OK):
        problem = f"the file {path} is not readable and writable by this user"
    elif not path.exists() and not os.access(path.parent, os.W_OK | os.X_OK):
        problem = f"the folder {path.parent} is not writable by this user"
    if problem:
        raise StartupError(f"cannot open the database {safe_url(url)}: {problem} (check DATABASE_URL)")
    return path


def revision_words(revision: str | None) -> str:
    """A schema revision as ``coroner check`` and ``migrate`` name it: its number and what it added, from its
    script's name (``0006 (live tables)``); ``no schema`` for None."""
    if revision is None:
        return "no schema"
    script = ScriptDirectory.from_config(alembic_config()).get_revision(revision)
    if script is None:  # a revision newer than this code (the database was upgraded by a newer release)
        return f"{revision} (unknown to this version of coroner)"
    slug = Path(script.path).stem.split(f"_{revision}_", 1)[-1]
    return f"{revision} ({slug.replace('_', ' ')})"


def head_revision() -> str | None:
    """The newest schema revision this code ships."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def _current(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())


async def _upgrade(url: str, *, revisions: bool) -> tuple[AsyncEngine, str | None, str | None]:
    sqlite_file(url)
    engine = None
    try:
        engine = create_engine(url)
        before = await _current(engine) if revisions else None
        await upgrade_to_head(engine)
        after = await _current(engine) if revisions else None
    except (SQLAlchemyError, OSError, ValueError, ImportError) as exc:
        if engine is not None:
            await engine.dispose()
        raise StartupError(describe(exc, url)) from exc
    return engine, before, after


async def open_database(url: str) -> AsyncEngine:
    """An engine for ``url`` with the schema upgraded to the newest revision.

    Raises :class:`~bot.startup_error.StartupError` when the database cannot be reached or upgraded."""
    engine, _, _ = await _upgrade(url, revisions=False)
    return engine


async def migrate_database(url: str) -> tuple[str | None, str | None]:
    """Upgrade the database at ``url`` to the newest revision; the revisions it was at before and is at now
    (``None``: no schema). Raises :class:`~bot.startup_error.StartupError` when it cannot be reached or
    upgraded."""
    engine, before, after = await _upgrade(url, revisions=True)
    await engine.dispose()
    return before, after


@dataclass(frozen=True)
class DatabaseReport:
    """What ``coroner check`` found: the URL (no password), the schema revision stored (``None``: no schema yet)
    and the newest revision this code ships."""

    url: str
    revision: str | None
    head: str | None
    exists: bool = True

    def line(self) -> str:
        if not self.exists:
            return f"database: {self.url} does not exist yet; `coroner migrate` or `coroner run` creates it"
        if self.revision == self.head:
            return f"database: {self.url} reachable, schema up to date (revision {revision_words(self.head)})"
        if self.revision is None:
            return (f"database: {self.url} reachable and empty (no schema yet), newest is revision "
                    f"{revision_words(self.head)}; `coroner migrate` or `coroner run` creates it")
        return (f"database: {self.url} reachable, schema at revision {revision_words(self.revision)}, newest is "
                f"{revision_words(self.head)}; `coroner migrate` or `coroner run` upgrades it")


async def inspect_database(url: str) -> DatabaseReport:
    """Connect to ``url`` without writing and report its schema revision. A SQLite file that does not exist yet is
    reported as such (its folder must exist). Raises :class:`~bot.startup_error.StartupError`."""
    head = head_revision()
    path = sqlite_file(url)
    if path is not None and not path.exists():
        return DatabaseReport(safe_url(url), None, head, exists=False)
    engine = create_engine(url)
    try:
        revision = await _current(engine)
    except (SQLAlchemyError, OSError, ValueError, ImportError) as exc:
        raise StartupError(describe(exc, url)) from exc
    finally:
        await engine.dispose()
    return DatabaseReport(safe_url(url), revision, head)
