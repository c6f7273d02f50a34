"""Counting the SQL statements and commits an engine runs (SQLAlchemy's cursor and transaction events): what a move
costs, for the statement-count test and :mod:`tests.bench.bench_moves`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


class SqlCount:
    """Statements and commits on one engine (SQLAlchemy's ``before_cursor_execute`` and ``commit`` events);
    ``kinds`` counts statements by their first words (``SELECT games``, ``UPDATE outbox``...)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.statements = 0
        self.commits = 0
        self.kinds: Counter[str] = Counter()
        event.listen(engine.sync_engine, "before_cursor_execute", self._statement)
        event.listen(engine.sync_engine, "commit", self._commit)

    def _statement(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self.statements += 1
        self.kinds[_kind(statement)] += 1

    def _commit(self, conn: Any) -> None:
        self.commits += 1


def _kind(statement: str) -> str:
    words = statement.split()
    verb = words[0].upper() if words else "?"
    table = next((words[i + 1] for i, w in enumerate(words[:-1]) if w.upper() in ("FROM", "INTO", "UPDATE")), "?")
    return f"{verb} {table.strip(chr(34))}"
