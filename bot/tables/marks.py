"""Held "done" work of delivered steps (issue 20: at most 2 commits per move): a step's "delivered" mark, what its
delivery wrote with it (the living table's row, :meth:`bot.tables.step.StepInfo.write_with`) and the giving back of
the game's delivery lease are not committed on their own after each delivery. They wait, in this process, for the
next write transaction this process opens about the game (the next move's: :meth:`Marks.take` and
:meth:`Marks.write` run first in it, before the table is read and the version bumped, so the bump's claim finds the
step delivered and the lease as given back), else for :data:`FLUSH_AFTER` on the injected clock (one transaction for
every game held: :meth:`Marks.flush`), and always for a graceful stop (the stop's hand-back writes them:
:meth:`bot.tables.timing.TimersMixin.hand_back`).

Only a step the process committed and shows first is held (the deliverer's ``hold``, on in a process that runs every
shard): a step of another process, one shown again, one whose delivery moves the table to another message
(:meth:`bot.tables.step.StepInfo.write_at_once`) and any delivery that ends after the stop began write at once.

Crash safety: a mark that was never written leaves its step undelivered, so it is shown again after a restart (or
by another process once the lease ran out), idempotently: its messages carry nonces from the step's id and its
per-send records (:mod:`bot.tables.step`) say which messages may already exist; the resumed delivery looks for them
before creating any again, so no DM is sent twice. Another process is kept from a game whose lease is held here at
most :data:`FLUSH_AFTER` longer than before: when the flush gives the lease back and finds the game's version past the
held step's (a step committed meanwhile that nobody showed), it drains the game again (``again``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxEntry
from bot.db.repos import outbox
from bot.tables.leases import Lease
from bot.tables.step import StepInfo

log = logging.getLogger(__name__)

#: how long a delivered step's held "done" work waits for a write transaction about its game before it is written
#: in one of its own (on the injected clock)
FLUSH_AFTER = timedelta(seconds=0.5)


@dataclass(frozen=True)
class Done:
    """A delivered step's held work: its outbox ``entry``, its ``step`` (what its delivery writes with the mark and
    does after: :meth:`StepInfo.write`, :meth:`StepInfo.done`), the ``lease`` it was shown under (given back with
    the mark while it is still the one this process holds for the game) and the digest of the public view its
    table shows now (``shown``; None: unchanged)."""

    entry: OutboxEntry
    step: StepInfo
    lease: Lease
    shown: str | None


@dataclass(frozen=True)
class Taken:
    """What :meth:`Marks.take` took to write in a transaction: call :meth:`Marks.committed` once it committed,
    :meth:`Marks.restore` when it did not. ``versions``: per game whose held lease is over, the version giving it
    back found (None: taken again by the caller's statement, or not held any more)."""

    done: list[Done]
    versions: dict[int, int | None]


class Marks:
    """This process's held "done" work, at most one step per game (a drain writes a held step of its game before it
    shows any other: :meth:`bot.tables.outbox.Deliverer.drain`). ``held``: the deliverer's leases by game (a lease
    given back is popped from it); ``owner``: this process in the leases; ``pause_until``: the injected clock's sleep
    (None: real time); ``again(game_id)``: drain a game whose version moved past its held step's while the lease was
    held here."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Callable[[], datetime],
                 held: dict[int, Lease], owner: str, again: Callable[[int], Awaitable[int]], *,
                 pause_until: Callable[[datetime], Awaitable[None]] | None = None) -> None:
        self._sessions = sessions
        self._clock = clock
        self._held = held
        self._owner = owner
        self._again = again
        self._pause_until = pause_until
        self._pending: dict[int, Done] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def open(self) -> bool:
        """Whether a delivered step's work may be held (False once the process stops: :meth:`close`)."""
        return not self._closed

    def hold(self, done: Done) -> None:
        """Hold ``done`` until the next write about its game, or :data:`FLUSH_AFTER` from now."""
        self._pending[done.lease.game_id] = done
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(), name="coroner-marks")

    def holds(self, game_id: int) -> bool:
        """Whether a delivered step of ``game_id`` waits for its mark here."""
        return game_id in self._pending

    def held(self, game_id: int) -> int | None:
        """The version of the step of ``game_id`` whose mark waits here (None: none)."""
        found = self._pending.get(game_id)
        return None if found is None else found.entry.version

    def take(self, game_id: int | None = None) -> Taken:
        """Take the held work of ``game_id`` (None: of every game) to write in the caller's transaction."""
        if game_id is None:
            done, self._pending = list(self._pending.values()), {}
        else:
            found = self._pending.pop(game_id, None)
            done = [] if found is None else [found]
        return Taken(done, {})

    def restore(self, taken: Taken) -> None:
        """The transaction that wrote ``taken`` did not commit: hold it again (a newer held step of a game wins)."""
        for done in taken.done:
            self._pending.setdefault(done.lease.game_id, done)
        if taken.done and (self._flusher is None or self._flusher.done()):
            self._flusher = asyncio.create_task(self._flush_later(), name="coroner-marks")

    async def write(self, session: AsyncSession, taken: Taken, *, release: bool = True,
                    keep: int | None = None) -> str | None:
        """Write ``taken`` in the caller's transaction: what each delivery wrote, the marks (one statement) and,
        with ``release``, each game's lease given back with its shown digest while this process still holds that
        lease (else the digest alone, when it changed and ``release``). ``keep``: a game whose lease the caller's
        next statement takes again (a step's version bump, :func:`bot.db.repos.games.bump_and_claim`): its lease is
        not given back, and its digest (None: unchanged) is returned for that statement to write."""
        if not taken.done:
            return None
        now = self._clock()
        for done in taken.done:
            await done.step.write(session)
        await outbox.mark_delivered_many(session, [done.entry.id for done in taken.done], now)
        kept = None
        for done in taken.done:
            game_id = done.lease.game_id
            if game_id == keep:
                kept = done.shown
                taken.versions[game_id] = None  # (this lease is over: the caller's bump takes the game's anew)
            elif release and self._held.get(game_id) is done.lease:
                taken.versions[game_id] = await outbox.release_game(session, game_id, self._owner, now, done.shown)
            elif done.shown is not None:
                await outbox.set_shown(session, game_id, self._owner, done.shown)
        return kept

    async def committed(self, taken: Taken, *, again: bool = True) -> None:
        """``taken`` is written: forget the leases given back, do what each delivery does after its mark, and
        (``again``) drain each game whose version moved past its step's while its lease was held here."""
        for done in taken.done:
            game_id = done.lease.game_id
            if game_id in taken.versions and self._held.get(game_id) is done.lease:
                del self._held[game_id]
        for done in taken.done:
            await done.step.done()
        if not again:
            return
        for done in taken.done:
            version = taken.versions.get(done.lease.game_id)
            if version is not None and version > done.entry.version:
                await self._again(done.lease.game_id)

    @asynccontextmanager
    async def writing(self, game_id: int) -> AsyncIterator[AsyncSession]:
        """A write transaction about ``game_id`` (a step's) that first writes the game's held work (before the
        caller reads the table and bumps its version, taking the game's lease again: so that bump's claim finds the
        held step delivered, and writes the digest the held step's table shows, ``session.info["shown"]``, where the
        lease's giving back would have: no statement of its own); held again when it does not commit."""
        taken = self.take(game_id)
        try:
            async with self._sessions() as session, session.begin():
                shown = await self.write(session, taken, keep=game_id)
                if shown is not None:
                    session.info["shown"] = shown
                yield session
        except BaseException:
            self.restore(taken)
            raise
        await self.committed(taken, again=False)

    async def flush(self, game_id: int | None = None, *, again: bool = True) -> None:
        """Write the held work of ``game_id`` (None: of every game) now, in one transaction of its own (kept held
        when it fails: the next write or flush tries again)."""
        taken = self.take(game_id)
        if not taken.done:
            return
        try:
            async with self._sessions() as session, session.begin():
                await self.write(session, taken)
        except BaseException:
            self.restore(taken)
            raise
        await self.committed(taken, again=again)

    async def _flush_later(self) -> None:
        while self._pending:
            until = self._clock() + FLUSH_AFTER
            if self._pause_until is not None:
                while self._clock() < until:
                    await self._pause_until(until)
            else:
                await asyncio.sleep(FLUSH_AFTER.total_seconds())
            try:
                await self.flush()
            except Exception:  # the database may be away for a moment: held, tried again after the next delay
                log.exception("writing the delivered marks of %d games failed", len(self._pending))

    async def close(self) -> None:
        """Stop the delayed flush and holding anything more (the stop's hand-back writes what is held; a delivery
        that ends after it writes its mark at once)."""
        self._closed = True
        if self._flusher is not None:
            self._flusher.cancel()
            await asyncio.gather(self._flusher, return_exceptions=True)
            self._flusher = None
