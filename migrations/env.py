"""Alembic environment (async).

Connection, in order of preference: the sync connection handed over in ``config.attributes["connection"]``
(see :func:`bot.db.migrate.upgrade_to_head`), else a new async engine for the config's ``sqlalchemy.url``
(see :func:`bot.db.migrate.alembic_config`), else ``DATABASE_URL``, else the default SQLite file.
SQLite runs in batch mode so later ALTERs work.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from bot.db import Base
from bot.db.base import UTCDateTime
from bot.db.migrate import check_foreign_keys, foreign_keys_off, transaction
from bot.db.session import DEFAULT_URL, create_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL") or DEFAULT_URL


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Autogenerate renders our UTC TypeDecorator as the plain column type, so scripts never import the app."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=_render_item,
        compare_type=True,
    )


def run_migrations_offline() -> None:
    """Emit the SQL to stdout (``alembic upgrade --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_sync(connection: Connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


async def run_migrations_async() -> None:
    engine = create_engine(_url())
    try:
        async with engine.connect() as conn, foreign_keys_off(conn):  # (SQLite: a table rebuild keeps its rows)
            async with transaction(conn):
                await conn.run_sync(_run_sync)
                await check_foreign_keys(conn)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_migrations_async())
    else:
        _run_sync(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
