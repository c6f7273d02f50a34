"""Injected SQL latency for the end-to-end tests: every SQL statement of the bot's database waits
:attr:`SlowSql.delay` seconds before it runs. ``COR_SQL_LATENCY_MS`` sets it for the whole end-to-end suite (with
``COR_DOUBLE_LATENCY_MS`` for REST, see the README); a test may change it for a while (``slow_sql.delay = 0.15``) and
go back with :meth:`SlowSql.reset`."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.util import await_only

import bot.db.check as check_module
import bot.db.session as session_module


def env_sql_latency() -> float:
    """Seconds of latency per SQL statement from ``COR_SQL_LATENCY_MS`` (0 when unset)."""
    return float(os.environ.get("COR_SQL_LATENCY_MS") or 0) / 1000


@dataclass
class SlowSql:
    """Seconds every SQL statement of the bot waits before it runs (0: no delay). The wait is an asyncio sleep
    inside SQLAlchemy's greenlet, so the event loop (and the Discord double) keeps running meanwhile."""

    delay: float = field(default_factory=env_sql_latency)

    def reset(self) -> None:
        """Back to the suite's latency (``COR_SQL_LATENCY_MS``)."""
        self.delay = env_sql_latency()


@pytest.fixture(autouse=True)
def slow_sql(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowSql]:
    """Injects :class:`SlowSql` latency into every engine the bot creates from now on (the test's own engine,
    ``World.sessions``, is not slowed), just before each statement reaches the database driver."""
    latency = SlowSql()
    real = session_module.create_engine

    def slow_engine(url: str = session_module.DEFAULT_URL, **kwargs: Any) -> Any:
        engine = real(url, **kwargs)

        def wait(*_: Any) -> None:  # returns None: SQLAlchemy then executes the statement itself
            if latency.delay:
                await_only(asyncio.sleep(latency.delay))

        # the dialect's execute events, not before_cursor_execute: SQLAlchemy iterates an event's listeners while
        # this one sleeps, so a test adding its own listener then (SqlCount) broke every statement in flight with
        # "deque mutated during iteration" (the timer loop died, a lobby click failed)
        for name in ("do_execute", "do_executemany", "do_execute_no_params"):
            event.listen(engine.sync_engine.dialect, name, wait)
        return engine

    monkeypatch.setattr(session_module, "create_engine", slow_engine)
    monkeypatch.setattr(check_module, "create_engine", slow_engine)  # the bot's engine: bot.db.check.open_database
    yield latency
