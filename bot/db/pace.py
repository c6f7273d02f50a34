"""How long the database takes lately: every engine :func:`bot.db.session.create_engine` makes times its SQL
statements (real seconds between the driver's start and end of each, ``time.monotonic``: a duration of work, not a
moment of game time) and keeps a smoothed mean. :func:`bot.deadline.may_be_slow` reads it so that an interaction is
acknowledged before its first query while the database is slow (Discord's 3 seconds run from the click)."""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine

#: the weight of the newest statement in the mean (the mean follows a database that turns slow within a few)
WEIGHT = 0.5
_PACES: weakref.WeakKeyDictionary[Engine, Pace] = weakref.WeakKeyDictionary()
_STARTED = "coroner_statement_started"


@dataclass
class Pace:
    """``mean``: seconds a statement takes lately (exponentially smoothed); ``running``: start times (monotonic
    seconds) of the statements in progress, by connection."""

    mean: float = 0.0
    running: dict[int, float] = field(default_factory=dict)

    def record(self, seconds: float) -> None:
        self.mean = seconds if self.mean == 0.0 else WEIGHT * seconds + (1 - WEIGHT) * self.mean

    def slowest_now(self, now: float) -> float:
        """Seconds the oldest statement still running has taken so far (0 when none runs)."""
        return max((now - started for started in self.running.values()), default=0.0)


def attach(engine: AsyncEngine) -> Pace:
    """Time every statement of ``engine`` from now on; returns its :class:`Pace`."""
    pace = _PACES[engine.sync_engine] = Pace()

    def before(conn: Any, *_: Any) -> None:
        started = time.monotonic()
        conn.info[_STARTED] = started
        pace.running[id(conn)] = started

    def after(conn: Any, *_: Any) -> None:
        pace.running.pop(id(conn), None)
        started = conn.info.pop(_STARTED, None)
        if started is not None:
            pace.record(time.monotonic() - started)

    def failed(context: Any) -> None:  # returns None: a handle_error listener that returns a value replaces the error
        pace.running.pop(id(context.connection), None)

    event.listen(engine.sync_engine, "before_cursor_execute", before)
    event.listen(engine.sync_engine, "after_cursor_execute", after)
    event.listen(engine.sync_engine, "handle_error", failed)
    return pace


def pace_of(engine: AsyncEngine | None) -> Pace | None:
    """The :class:`Pace` of an engine made by :func:`bot.db.session.create_engine` (``None`` for another)."""
    return _PACES.get(engine.sync_engine) if engine is not None else None
