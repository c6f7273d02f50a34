"""Table service fixtures: the database backends of tests/db, the tiny Hot Potato game, a recording deliver."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.tables import Table, TableService
from games.core import Event, register
from tests.db.backends import db_url, engine, other, pg_database, sessions
from tests.support.tiny_game import ENGINE

__all__ = ["db_url", "engine", "other", "pg_database", "sessions"]

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Outbox:
    """A deliver callback that records what it was given."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int, list[Event]]] = []

    async def __call__(self, table: Table, events: list[Event]) -> None:
        self.sent.append((table.id, table.version, events))

    @property
    def keys(self) -> list[str]:
        return [event.key for _, _, events in self.sent for event in events]


@pytest.fixture(autouse=True)
def potato() -> None:
    """The tiny test game is registered as ("potato", "classic")."""
    register(ENGINE)


@pytest.fixture
def outbox() -> Outbox:
    return Outbox()


@pytest.fixture
def service(sessions: async_sessionmaker[AsyncSession], outbox: Outbox) -> TableService:
    return TableService(sessions, deliver=outbox, clock=lambda: NOW)
