"""The deliverer: works off the outbox (steps committed but not yet shown), in commit order per game.

A step's events, new version and timers are written in the step's own transaction (``bot.db.repos.outbox``);
this module shows them afterwards, outside the game's lock, through the ``deliver`` callback (the bot's
:class:`bot.delivery.Delivery`). The step just committed is shown from what its transaction handed over (the
committed table and its outbox entry, :class:`Handoff`) when it is the game's oldest pending step; otherwise the
pending steps are read with the latest committed snapshot. A step is marked delivered only once ``deliver``
returned, and retried after a crash (at start the bot drains every game first). ``deliver`` may
be called twice for one step (a crash after sending, before marking): its sends must be idempotent, which
:func:`current_step` makes possible (message nonces from the step's id, and per-send records in ``outbox.sent`` for a
delivery resumed after Discord forgot the nonces: :meth:`StepInfo.creating`). Delivered steps are deleted after
:data:`RETENTION` (7 days).

Across processes (many bot processes on one PostgreSQL), a game's steps are shown by one process at a time: a
drain works under the game's delivery lease (:func:`bot.db.repos.outbox.claim_game`, columns of the game's row
naming the process, valid for :data:`~bot.tables.leases.LEASE` (4 s), renewed every third of it while it works
(:mod:`bot.tables.leases`); taken in the transaction that commits the step, with its version bump
(:func:`bot.db.repos.games.bump_and_claim`), so it costs no statement of its own), shows the steps in commit order and
gives the lease back with the last one, in the transaction that marks it delivered, where it also looks for new
steps (taking the lease again when there are: :meth:`Deliverer._finish`). A process that finds the lease held
leaves the game to its holder, which looks after giving the lease back, so a step committed meanwhile is never
stranded. A process that dies holding a lease leaves it to run out; then any process takes the game over: one
that found the lease held while a step was pending, when it runs out
(:meth:`~bot.tables.leases.LeaseKeeper.take_over_due`), the next drain (a move, a timer), or
:meth:`Deliverer.sweep`, which every process's timer loop runs for games nobody holds.

A step that fails to show is tried again with backoff (:func:`retry_after`): for as long as it is kept when Discord
did not answer (an outage is waited out, and the first answer after it redraws the failed games at once:
:meth:`Deliverer.redraw_failed`, :mod:`bot.outage`), :data:`MAX_ATTEMPTS` times when Discord refused it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cachetools import LRUCache
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxEntry
from bot.db.repos import games, live, outbox, timers
from bot.locks import KeyedLocks
from bot.tables.leases import LEASE as LEASE  # (re-exported: the lease the drains work under)
from bot.tables.leases import DeliveryHooks, Lease, LeaseKeeper
from bot.tables.marks import Done, Marks
from bot.tables.model import Table, to_table
from bot.tables.step import ANSWERED_SEAT, StepInfo, reset_step, set_step, step_info
from bot.tables.step import current_step as current_step  # (re-exported: what a ``deliver`` call shows)
from games.core import Event

log = logging.getLogger(__name__)

Deliver = Callable[[Table, list[Event]], Awaitable[None]]
#: a step Discord refused (any answer but "unavailable", :attr:`DeliveryHooks.unavailable`) or that failed to
#: render is given up (logged) after this many tries, so it never blocks the game's later steps for long; a step
#: that failed because Discord did not answer is tried for as long as it is kept (:data:`RETENTION`)
MAX_ATTEMPTS = 3
#: a failed step is tried again after :data:`RETRY_FIRST`, twice as long after each further failure, at most
#: :data:`RETRY_CAP` (a persisted ``outbox_retry`` timer, so a game whose last step failed to show does not wait for
#: the next move or restart; Discord answering again redraws it at once: :meth:`Deliverer.redraw_failed`)
RETRY_FIRST = timedelta(seconds=5)
RETRY_CAP = timedelta(minutes=5)
RETRY_TIMER = "outbox_retry"
#: a delivered step is kept this long (to look into what a game showed), then deleted: at start and then at most
#: once every :data:`PRUNE_EVERY`, by the timer loop's :meth:`Deliverer.sweep`
RETENTION = timedelta(days=7)
PRUNE_EVERY = timedelta(hours=1)
#: games whose :meth:`Deliverer.mark` a process remembers (the least recently touched are forgotten first)
MARKS = 10_000




#: games the running task is draining: a ``deliver`` that acts on its own game leaves the new step to the drain
#: already running (which loops until the outbox is empty) instead of waiting for itself
_DRAINING: ContextVar[frozenset[int]] = ContextVar("coroner_draining", default=frozenset())


def retry_after(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failure (from 1) a step is tried again: 5 s, 10 s, 20 s ... 5 min."""
    return min(RETRY_FIRST * 2 ** min(max(attempts - 1, 0), 16), RETRY_CAP)



@dataclass(frozen=True)
class Handoff:
    """What the transaction that committed a step hands its delivery after the commit: the committed ``table``,
    the step's outbox ``entry``, the earliest timer the step armed (``due``, None: none) and the game's delivery
    ``lease`` taken with it (None: another process shows the game, or nothing is shown here). The deliverer shows
    the step from these, reading nothing back, when it is the game's oldest undelivered step, the lease is still
    the one this process holds and nothing it writes about the game outside its steps (the table's message,
    failed DMs: :meth:`Deliverer.touched`) changed since the table was read."""

    table: Table
    entry: OutboxEntry
    due: datetime | None
    lease: Lease | None
    #: :meth:`Deliverer.mark` of the game when the step's transaction read the table
    mark: int | None = None
    #: the seat whose interaction the step's move answers (:data:`bot.tables.step.ANSWERED_SEAT` when it was
    #: committed; None: none): its delivery, by whichever drain of this process, knows it (:attr:`StepInfo.answers`)
    answers: int | None = None


class Deliverer(LeaseKeeper):
    """Drains the outbox of one game at a time: a per-game lock in this process, the game's delivery lease across
    processes. ``owner`` names this process in the leases (at most 64 chars); ``superseded``: the timer kinds its
    prune marks fired once superseded (:class:`bot.tables.TableService`'s)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], deliver: Deliver | None,
                 clock: Callable[[], datetime], on_timers: Callable[[datetime], None] | None = None, *,
                 owner: str = "local", hooks: DeliveryHooks | None = None,
                 superseded: frozenset[str] = frozenset(), hold: bool = False) -> None:
        super().__init__(sessions, clock, on_timers, owner=owner, hooks=hooks, shows=deliver is not None)
        self._deliver = deliver
        #: the "done" work of each game's last delivered step, held for the next write about the game
        #: (:mod:`bot.tables.marks`; ``hold`` False: written at once, in a transaction of its own)
        self.marks = Marks(sessions, clock, self._held, owner, self.drain, pause_until=self._hooks.pause_until)
        self._hold = hold
        self._superseded = superseded
        self.locks = KeyedLocks()
        self._pruned_at: datetime | None = None
        #: per game, a number that changes whenever this process writes about the game outside a step's own
        #: transaction (see :meth:`touched`); bounded: a game forgotten here only costs its next step a read
        self._marks: LRUCache[int, int] = LRUCache(maxsize=MARKS)
        self._tick = 0
        #: per game, the latest step this process committed whose drain waits for another drain of the game (one
        #: showing an earlier step): that drain shows it as handed over when it comes next (:meth:`_queued_next`)
        self._queued: dict[int, Handoff] = {}
        #: the steps (outbox ids) a drain showed from :attr:`_queued` for the drain they were handed to
        self._taken: set[int] = set()
        #: per step (outbox id) committed here, the seat whose interaction it answers (:attr:`Handoff.answers`),
        #: until it is shown, whichever drain shows it and however (handed over or read back); bounded: a step
        #: forgotten here (or shown by another process) DMs its confirmations, said twice at worst
        self._answers: LRUCache[int, int] = LRUCache(maxsize=MARKS)

    async def drain(self, game_id: int, handoff: Handoff | None = None, *, pending: bool = False) -> int:
        """Deliver every undelivered step of ``game_id`` in order; returns how many this call delivered (0 when
        another process holds the game's lease: its holder shows them). ``handoff``: what the transaction of the
        step just committed wrote (its lease, taken by :meth:`claim_with`, its entry and table); ``pending``: the
        caller knows a step is pending (a lease found held is then watched: :meth:`take_over_due`). Stops at a step
        whose delivery fails: it is retried by the next drain (the next move, Discord answering again, or the
        :data:`RETRY_TIMER` armed :func:`retry_after` later), see :meth:`_failed`. The lease is renewed every third
        of :data:`LEASE` while this runs."""
        if handoff is not None and handoff.answers is not None:
            self._answers[handoff.entry.id] = handoff.answers
        if self._deliver is None or game_id in _DRAINING.get():
            return 0
        token = _DRAINING.set(_DRAINING.get() | {game_id})
        if handoff is not None:
            self._queued[game_id] = handoff
        try:
            async with self.locks(game_id):
                if handoff is not None and handoff.entry.id in self._taken:  # shown by the drain before this one
                    return 0
                if self.marks.holds(game_id):  # (its steps are read as they stand: the held one delivered)
                    try:
                        await self.marks.flush(game_id, again=False)
                    except Exception:  # shown again (idempotently) below
                        log.exception("writing the held mark of game %s failed", game_id)
                beat = asyncio.create_task(self._heartbeat(game_id), name=f"coroner-lease-{game_id}")
                try:
                    return await self._drain_leased(game_id, handoff, pending or handoff is not None)
                finally:
                    beat.cancel()
                    await asyncio.gather(beat, return_exceptions=True)
        finally:
            _DRAINING.reset(token)
            if handoff is not None:
                self._taken.discard(handoff.entry.id)
                if self._queued.get(game_id) is handoff:
                    del self._queued[game_id]

    def mark(self, game_id: int) -> int:
        """The game's mark now: read it before reading the table a step is applied to (:class:`Handoff`)."""
        if game_id not in self._marks:
            self.touched(game_id)
        return self._marks[game_id]

    def touched(self, game_id: int) -> None:
        """This process committed something about ``game_id`` that a table read before now may not show (where its
        table message is, a failed DM: call after the commit): a step whose table was read before is shown from the
        table read again."""
        self._tick += 1
        self._marks[game_id] = self._tick

    async def _drain_leased(self, game_id: int, handoff: Handoff | None, pending: bool) -> int:
        done = 0
        lease = handoff.lease if handoff is not None else None
        while True:  # looked at again after each lease is given back: a step another process committed meanwhile
            if lease is None:
                async with self._sessions() as session, session.begin():
                    lease = await self.claim_with(session, game_id)
                if lease is None:  # nothing to show, or another process is showing it and looks again after
                    if pending and not done:  # ... unless it died: then this one looks when its lease ran out
                        await self._watch_holder(game_id)
                    return done
            try:
                shown, more, lease = await self._drain(lease, handoff)
            except BaseException:
                await asyncio.shield(self._release(game_id))
                raise
            handoff = None
            done += shown
            if not more:
                return done

    def _handed(self, lease: Lease, handoff: Handoff | None) -> bool:
        """Whether the step ``handoff`` brought can be shown as handed: it is the game's oldest undelivered step,
        ``lease`` is still the one this process holds (no other drain of it gave the lease back since) and the game
        was not :meth:`touched` since its table was read."""
        return (handoff is not None and handoff.lease is lease and self._held.get(lease.game_id) is lease
                and lease.first == handoff.entry.id and lease.until > self._clock()
                and handoff.mark is not None and self._marks.get(lease.game_id) == handoff.mark)

    def _queued_next(self, lease: Lease) -> Handoff | None:
        """The step this process committed while a drain showed an earlier one (its own drain waits for this
        one), when it is next under ``lease`` (taken again as the earlier step was marked delivered) and shown as
        handed over (:meth:`_handed`'s conditions): then this drain shows it, reading nothing back, and the drain
        it was handed to finds it shown."""
        queued = self._queued.get(lease.game_id)
        if queued is None or not self._handed(lease, replace(queued, lease=lease)):
            return None
        del self._queued[lease.game_id]
        self._taken.add(queued.entry.id)
        return queued

    async def _drain(self, lease: Lease, handoff: Handoff | None) -> tuple[int, bool, Lease | None]:
        """Show the pending steps under ``lease`` and give it back: how many, whether to look again (False: nothing
        is pending any more, or a step failed and waits for its retry) and the lease to look with (None: claim it
        again). The committed step a ``handoff`` brought is shown as it came when :meth:`_handed`; otherwise the
        pending steps and the table are read."""
        game_id = lease.game_id
        row: live.Snapshot | None = None
        handed = handoff is not None and self._handed(lease, handoff)
        if handoff is None or not handed:
            handoff = self._queued_next(lease)
            handed = handoff is not None
        if handoff is not None and handed:
            entries, table, row = [handoff.entry], handoff.table, lease.table_row
        else:
            async with self._sessions() as session:
                holder = await outbox.lease_of(session, game_id)
                entries = list(await outbox.pending_of(session, game_id))
                found = await games.game_with_seats(session, game_id) if entries else None
                table = to_table(*found) if found is not None else None
            if holder is None or holder.owner != self.owner or holder.lease_until <= self._clock():
                return 0, True, None  # given back by a drain of this process meanwhile: claim it again
            if not entries or table is None:
                await self._release(game_id)
                return 0, True, None
        done = 0
        after: Lease | None = None
        for index, entry in enumerate(entries):
            if game_id in self._lost:  # (the heartbeat renews the lease meanwhile)
                log.warning("lost the delivery lease of game %s; its new holder goes on", game_id)
                self._held.pop(game_id, None)
                return done, True, None
            # a step is shown as never tried when it was handed over, or when this process wrote it and no
            # delivery of it began since (also when the drain that shows it is not the one it was handed to: a
            # resumed delivery looks for what its predecessor may have created, and could take an older message
            # of the same words for it)
            fresh = handed or lease.untried == entry.id
            if lease.untried == entry.id:
                lease.untried = None
            delivered, after = await self._one(table, entry, lease, last=index == len(entries) - 1,
                                               table_row=row if index == 0 else None, fresh=fresh)
            if not delivered:
                return done, False, None
            done += 1
        return done, after is not None, after

    async def _one(self, table: Table, entry: OutboxEntry, lease: Lease, *, last: bool,
                   table_row: live.Snapshot | None = None, fresh: bool = False) -> tuple[bool, Lease | None]:
        """Show one step; mark it delivered, with what the delivery wrote for it (:meth:`StepInfo.write_with`), and
        with the ``last`` of the batch giving the lease back and taking it again when a step is still pending,
        :meth:`_finish`, in one transaction. Returns whether it was delivered (False: it failed and waits for its
        retry, the lease given back) and the lease to go on with (None: nothing more to show). ``table_row``: the
        living table's row as it stands (:attr:`StepInfo.table_row`); ``fresh``: the step's first delivery, as its
        transaction handed it over (:attr:`StepInfo.fresh`)."""
        events = [Event.model_validate(e) for e in entry.events]

        async def record(sent: dict[str, int]) -> None:
            async with self._sessions() as session, session.begin():
                await outbox.record_sent(session, entry.id, sent)

        step = step_info(entry, lease.shown, record, table_row, fresh=fresh, answers=self._answers.get(entry.id))
        token = set_step(step)
        answered = ANSWERED_SEAT.set(None)  # (a move its delivery makes answers nobody's interaction)
        try:
            assert self._deliver is not None
            await self._deliver(table, events)
        except Exception as exc:  # the step stays committed; it is retried, then given up
            return await self._failed(table, entry, lease, step, exc, last=last)
        finally:
            ANSWERED_SEAT.reset(answered)
            reset_step(token)
        changed = step.shows if step.shows is not None and step.shows != lease.shown else None
        queued = self._queued.get(table.id)
        # held only for a step this process committed and shows first (a step of another process, or one shown
        # again, gives the lease back at once: another process is never kept waiting by a mark held here for it)
        if (last and fresh and self._hold and self.marks.open and not step.at_once
                and (queued is None or queued.entry.id == entry.id)):  # (none of ours waits for this drain)
            self.marks.hold(Done(entry, step, lease, changed))
            lease.shown = step.shows or lease.shown
            return True, None
        try:
            async with self._sessions() as session, session.begin():
                await step.write(session)
                if last:
                    after = await self._finish(session, table.id, entry, changed)
                else:
                    await outbox.mark_delivered(session, entry.id, self._clock())
                    after = lease
                    if changed is not None:
                        await outbox.set_shown(session, table.id, self.owner, changed)
        except Exception as exc:  # what the delivery wrote did not commit: shown again, as a failed delivery is
            step.forget_writes()
            return await self._failed(table, entry, lease, step, exc, last=last)
        await step.done()
        self._answers.pop(entry.id, None)
        lease.shown = step.shows or lease.shown
        return True, after

    async def _failed(self, table: Table, entry: OutboxEntry, lease: Lease, step: StepInfo, exc: Exception, *,
                      last: bool) -> tuple[bool, Lease | None]:
        """Count a failed delivery of ``entry`` and arm its retry :func:`retry_after` later, giving the lease back;
        or give the step up (marked delivered, so the game's later steps go on): once it is older than
        :data:`RETENTION` when Discord did not answer (:attr:`DeliveryHooks.unavailable`: an outage is waited out),
        after :data:`MAX_ATTEMPTS` tries otherwise (a refusal would fail again). What ``step`` created before it
        failed is recorded (never created again). Returns as :meth:`_one`."""
        log.error("delivering %d events of game %s (step %s) failed", len(entry.events), table.id, entry.id,
                  exc_info=exc)
        now = self._clock()
        down = self._hooks.unavailable(exc)
        after: Lease | None = lease
        async with self._sessions() as session, session.begin():
            await step.write(session)  # (a log keyed by the step is not repeated when it is shown again)
            if (sent := step.unrecorded) is not None:  # what it created before failing: never created again
                await outbox.record_sent(session, entry.id, sent)
            attempts = await outbox.mark_failed(session, entry.id)
            kept = now - entry.created_at < RETENTION if down else attempts < MAX_ATTEMPTS
            retry = now + retry_after(attempts)
            if kept:  # one retry per game: the earlier one (this failure's, or still to come) is replaced
                await timers.disarm_superseded(session, table.id, (RETRY_TIMER,), entry.version + 1, now)
                await timers.schedule(session, table.id, RETRY_TIMER, retry, {}, entry.version)
                await outbox.release_game(session, table.id, self.owner, now)
            else:
                log.error("giving up step %s of game %s after %d attempts", entry.id, table.id, attempts)
                if last:
                    after = await self._finish(session, table.id, entry, None)
                else:
                    await outbox.mark_delivered(session, entry.id, now)
        await step.done()
        if not kept:
            return True, after
        self._held.pop(table.id, None)
        if self._on_timers is not None:
            self._on_timers(retry)
        return False, None

    async def redraw_failed(self) -> int:
        """Drain every game whose oldest pending step failed to show (waiting for its retry), at once: Discord
        answers again after an outage, so a table left stale is redrawn without waiting for the backoff. Returns
        how many steps were shown."""
        async with self._sessions() as session:
            failed = await outbox.pending_games(session, failed=True)
        return sum([await self.drain(game_id) for game_id in failed])

    async def catch_up(self) -> int:
        """Drain every game with undelivered steps (at start, before serving anything else; a game another
        process is delivering is left to it), then :meth:`prune`."""
        async with self._sessions() as session:
            pending = await outbox.pending_games(session)
        done = sum([await self.drain(game_id) for game_id in pending])
        await self.prune()
        return done

    async def prune(self) -> int:
        """Delete the steps delivered more than :data:`RETENTION` ago, and mark fired the timers of the
        ``superseded`` kinds their game's decision moved past (:func:`bot.db.repos.timers.disarm_stale`: none of
        them would ever be claimed); returns how many steps were deleted."""
        now = self._clock()
        self._pruned_at = now
        async with self._sessions() as session, session.begin():
            deleted = await outbox.prune(session, now - RETENTION)
            await timers.disarm_stale(session, self._superseded, now)
        if deleted:
            log.info("pruned %d delivered outbox steps", deleted)
        return deleted

    async def sweep(self) -> int:
        """Drain the games with steps nobody is showing (their process died, or stopped, and its lease ran out or
        was given back); returns how many steps were shown."""
        async with self._sessions() as session:
            stranded = await outbox.pending_games(session, unleased_at=self._clock())
        done = sum([await self.drain(game_id) for game_id in stranded])
        if self._pruned_at is None or self._clock() - self._pruned_at >= PRUNE_EVERY:
            await self.prune()
        return done
