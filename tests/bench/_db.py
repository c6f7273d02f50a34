"""A private PostgreSQL database for one benchmark run: created before, dropped after, so benchmarks never write
into the shared test database nor leave tables behind."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Iterator

from tests.db.backends import PG_HOST, PG_PORT, _admin, _pg_user


@contextlib.contextmanager
def private_postgres() -> Iterator[str | None]:
    """The URL of a fresh database ``coroner_bench_<random>`` (dropped at the end), or ``None`` when the server at
    127.0.0.1:5432 is not reachable."""
    user = asyncio.run(_pg_user())
    if user is None:
        yield None
        return
    name = f"coroner_bench_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(user, f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://{user}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        asyncio.run(_admin(user, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
