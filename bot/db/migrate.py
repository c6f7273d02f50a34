"""Run Alembic migrations from code: no ``alembic.ini``, the config is built here.

The scripts live in the ``migrations/`` folder next to the ``bot`` package (the repository root for an
editable install, ``site-packages`` when shipped alongside ``bot/``). :func:`upgrade_to_head` shares the
caller's async engine with Alembic (the cookbook's "programmatic API use with asyncio" pattern);
``migrations/env.py`` uses the connection it is handed, or opens its own from ``DATABASE_URL``.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine


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


async def upgrade_to_head(engine: AsyncEngine) -> None:
    """Migrate the database behind ``engine`` to the newest revision, in one transaction. On PostgreSQL the
    transaction first takes an advisory lock, so processes starting at once upgrade one after the other (the
    first builds the schema, the others find it up to date) instead of racing on the same tables."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
        await conn.run_sync(_run, "upgrade", "head")


async def downgrade_to(engine: AsyncEngine, revision: str = "base") -> None:
    """Migrate the database behind ``engine`` down to ``revision`` (``base``: drop every table)."""
    async with engine.begin() as conn:
        await conn.run_sync(_run, "downgrade", revision)
