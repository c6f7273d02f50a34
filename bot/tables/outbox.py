"""The deliverer: works off the outbox (steps committed but not yet shown), in commit order per game.

A step's events, new version and timers are written in the step's own transaction (``bot.db.repos.outbox``);
this module shows them afterwards, outside the game's lock, through the ``deliver`` callback (the bot's
:class:`bot.delivery.Delivery`). Each step is rendered from the latest committed snapshot, marked delivered only
once ``deliver`` returned, and retried after a crash (at start the bot drains every game first). Delivered steps
are deleted after :data:`RETENTION` (7 days). ``deliver`` may be called twice for one step (a crash after sending,
before marking): its sends must be idempotent, which :func:`current_step` makes possible (message nonces from the
step's id).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxEntry
from bot.db.repos import games, outbox, timers
from bot.tables.model import Table
from games.core import Event

log = logging.getLogger(__name__)

Deliver = Callable[[Table, list[Event]], Awaitable[None]]
#: a step failing this many times is given up (logged), so that it never blocks the game's later steps
MAX_ATTEMPTS = 3
#: a failed step is tried again this long after (a persisted ``outbox_retry`` timer, so a game whose last step
#: failed to show does not wait for the next move or restart)
RETRY_AFTER = timedelta(seconds=30)
RETRY_TIMER = "outbox_retry"
#: a delivered step is kept this long (to look into what a game showed), then deleted: at start and then at most
#: once every :data:`PRUNE_EVERY`, after a drain
RETENTION = timedelta(days=7)
PRUNE_EVERY = timedelta(hours=1)


@dataclass(frozen=True)
class StepInfo:
    """The step being delivered: its outbox id, the version it produced, its kind (``start`` or ``act``) and its
    timers' deadlines by timer kind."""

    entry_id: int
    version: int
    kind: str = "act"
    deadlines: dict[str, datetime] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict, compare=False)

    def nonce(self, purpose: str) -> str:
        """A message nonce unique to this step, ``purpose`` (e.g. ``s`` status, ``d3`` a DM to seat 3) and
        how many messages of that purpose it sent before: the same on every delivery of the step, so Discord
        (``enforce_nonce``) returns the message it already created instead of a duplicate. At most 25 chars."""
        n = self._counts.get(purpose, 0)
        self._counts[purpose] = n + 1
        return f"o{self.entry_id}.{purpose}.{n}"[:25]


_STEP: ContextVar[StepInfo | None] = ContextVar("coroner_delivering_step", default=None)
#: games the running task is draining: a ``deliver`` that acts on its own game leaves the new step to the drain
#: already running (which loops until the outbox is empty) instead of waiting for itself
_DRAINING: ContextVar[frozenset[int]] = ContextVar("coroner_draining", default=frozenset())


def current_step() -> StepInfo | None:
    """The step the running ``deliver`` call shows (None outside a delivery)."""
    return _STEP.get()


def _step_info(entry: OutboxEntry) -> StepInfo:
    deadlines: dict[str, datetime] = {}
    for timer in entry.timers:
        deadlines.setdefault(timer["kind"], datetime.fromisoformat(timer["due_at"]))
    return StepInfo(entry.id, entry.version, entry.kind, deadlines)


class Deliverer:
    """Drains the outbox of one game at a time (a per-game lock, separate from the table lock)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], deliver: Deliver | None,
                 clock: Callable[[], datetime], on_timers: Callable[[], None] | None = None) -> None:
        self._sessions = sessions
        self._deliver = deliver
        self._clock = clock
        self._on_timers = on_timers
        self._locks: dict[int, asyncio.Lock] = {}
        self._pruned_at: datetime | None = None

    async def drain(self, game_id: int) -> int:
        """Deliver every undelivered step of ``game_id`` in order; returns how many were delivered. Stops at a
        step whose delivery fails: it is retried by the next drain (the next move, the next start, or the
        :data:`RETRY_TIMER` armed for :data:`RETRY_AFTER` later), up to :data:`MAX_ATTEMPTS` times."""
        if self._deliver is None or game_id in _DRAINING.get():
            return 0
        token = _DRAINING.set(_DRAINING.get() | {game_id})
        try:
            async with self._locks.setdefault(game_id, asyncio.Lock()):
                return await self._drain(game_id)
        finally:
            _DRAINING.reset(token)

    async def _drain(self, game_id: int) -> int:
        from bot.tables.service import to_table

        done = 0
        while True:
            async with self._sessions() as session:
                entries = list(await outbox.pending_of(session, game_id))
                row = await games.get_game(session, game_id) if entries else None
                table = to_table(row, await games.seats_of(session, game_id)) if row is not None else None
            if not entries or table is None:
                if self._pruned_at is None or self._clock() - self._pruned_at >= PRUNE_EVERY:
                    await self.prune()
                return done
            for entry in entries:
                if not await self._one(table, entry):
                    return done
                done += 1

    async def _one(self, table: Table, entry: OutboxEntry) -> bool:
        events = [Event.model_validate(e) for e in entry.events]
        token = _STEP.set(_step_info(entry))
        try:
            assert self._deliver is not None
            await self._deliver(table, events)
        except Exception:  # the step stays committed; it is retried, then given up
            log.exception("delivering %d events of game %s (step %s) failed", len(events), table.id, entry.id)
            async with self._sessions() as session, session.begin():
                attempts = await outbox.mark_failed(session, entry.id)
                if attempts < MAX_ATTEMPTS:
                    await timers.schedule(session, table.id, RETRY_TIMER, self._clock() + RETRY_AFTER, {},
                                          entry.version)
                else:
                    log.error("giving up step %s of game %s after %d attempts", entry.id, table.id, attempts)
                    await outbox.mark_delivered(session, entry.id, self._clock())
            if attempts < MAX_ATTEMPTS:
                if self._on_timers is not None:
                    self._on_timers()
                return False
            return True
        finally:
            _STEP.reset(token)
        async with self._sessions() as session, session.begin():
            await outbox.mark_delivered(session, entry.id, self._clock())
        return True

    async def catch_up(self) -> int:
        """Drain every game with undelivered steps (at start, before serving anything else), then
        :meth:`prune`."""
        async with self._sessions() as session:
            pending = await outbox.pending_games(session)
        done = sum([await self.drain(game_id) for game_id in pending])
        await self.prune()
        return done

    async def prune(self) -> int:
        """Delete the steps delivered more than :data:`RETENTION` ago; returns how many were deleted."""
        now = self._clock()
        self._pruned_at = now
        async with self._sessions() as session, session.begin():
            deleted = await outbox.prune(session, now - RETENTION)
        if deleted:
            log.info("pruned %d delivered outbox steps", deleted)
        return deleted
