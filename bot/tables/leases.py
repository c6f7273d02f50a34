"""The delivery leases of one process (see :mod:`bot.tables.outbox`): a game's steps are shown by one process at a
time, the one holding the game's delivery lease (``games.lease_owner``, :func:`bot.db.repos.outbox.claim_game`). A
lease holds for :data:`LEASE` and is renewed every third of it while the process works on the game
(:meth:`LeaseKeeper._heartbeat`), so a dead process's games are taken over within :data:`LEASE` of its last renewal:
at once by a process that found the lease held while a step was pending (:meth:`LeaseKeeper.take_over_due`, which
the timer loop runs when the lease runs out), else by the next sweep. A lease taken from an owner whose lease ran out
without being given back is a takeover (``coroner_lease_takeovers{kind="delivery"}``, issue 23).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import OutboxEntry
from bot.db.repos import live, outbox

log = logging.getLogger(__name__)

#: how long a process's delivery lease of a game holds without renewal (a heartbeat renews it every third of it
#: while the process works on the game); a dead process's games are taken over this long after its last renewal,
#: at once by a process that found the lease held (:meth:`LeaseKeeper.take_over_due`)
LEASE = timedelta(seconds=4)


def _never(_: BaseException) -> bool:
    return False


@dataclass(frozen=True)
class DeliveryHooks:
    """What the bot tells the deliverer. ``unavailable(exc)``: whether a failed delivery's error means Discord did
    not answer (a 5xx, a timeout, no connection), so the step is tried again for as long as it is kept (default:
    no failure is, each is given up after :data:`bot.tables.outbox.MAX_ATTEMPTS`); ``pause_until(when)``: the
    injected clock's sleep the lease heartbeat waits with (None: real time); ``taken_over()``: a delivery lease was
    taken from a process whose lease ran out (``coroner_lease_takeovers{kind="delivery"}``)."""

    unavailable: Callable[[BaseException], bool] = _never
    pause_until: Callable[[datetime], Awaitable[None]] | None = None
    taken_over: Callable[[], None] | None = None


@dataclass
class Lease:
    """This process's delivery lease of a game: until when it holds, the digest of the public view the table
    shows, the id of the game's oldest undelivered step when it was taken (``first``) and the game's living table
    row then (``table_row``)."""

    game_id: int
    until: datetime
    shown: str | None
    first: int | None = None
    #: the game's living table row when the lease was taken (:attr:`bot.db.repos.outbox.Claim.table_row`)
    table_row: live.Snapshot | None = None
    #: the step this process's own transaction wrote under this lease, with its plan's intent (every message of
    #: its delivery: :func:`bot.tables.step.plan_intent`), whose delivery no one began yet (so none of its
    #: messages exists); None once one began
    untried: int | None = None


class LeaseKeeper:
    """This process's delivery leases (``owner`` names it in them, at most 64 chars); ``shows``: whether it shows
    anything (a process that does not never takes a lease). The deliverer (:class:`bot.tables.outbox.Deliverer`)
    drains a game under its lease."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Callable[[], datetime],
                 on_timers: Callable[[datetime], None] | None = None, *, owner: str = "local",
                 hooks: DeliveryHooks | None = None, shows: bool = True) -> None:
        self._sessions = sessions
        self._clock = clock
        self._on_timers = on_timers
        self._hooks = hooks or DeliveryHooks()
        self._shows = shows
        self.owner = owner
        #: per game, the lease this process took last, until it gives it back (only games it is showing)
        self._held: dict[int, Lease] = {}
        #: per game another process held the lease of while a step of it was pending: when that lease runs out
        self._watch: dict[int, datetime] = {}
        #: games whose lease this process's heartbeat found taken over while it still showed them
        self._lost: set[int] = set()

    async def drain(self, game_id: int, *, pending: bool = False) -> int:  # pragma: no cover - the deliverer's
        raise NotImplementedError

    def gave_back(self) -> None:
        """Every lease of this process was given back in the database (it is stopping)."""
        self._held.clear()

    def lease_ask(self) -> tuple[str, datetime, datetime] | None:
        """What a step's transaction asks for when it takes the game's delivery lease with its version bump
        (:func:`bot.db.repos.games.bump_and_claim`): ``(owner, now, until)``; None when this deliverer shows nothing
        (it never takes a lease)."""
        if not self._shows:
            return None
        now = self._clock()
        return self.owner, now, now + LEASE

    def adopt(self, game_id: int, claim: outbox.Claim | None) -> Lease | None:
        """The lease a claim of ``game_id`` won (None: not won, or no claim), held by this process from now on."""
        if claim is None or not claim.won:
            return None
        if claim.taken_from is not None:
            log.info("took game %s over from %s, whose delivery lease ran out", game_id, claim.taken_from)
            if self._hooks.taken_over is not None:
                self._hooks.taken_over()
        self._lost.discard(game_id)
        self._watch.pop(game_id, None)
        lease = self._held[game_id] = Lease(game_id, self._clock() + LEASE, claim.shown, claim.first,
                                            claim.table_row)
        return lease

    async def claim_with(self, session: AsyncSession, game_id: int) -> Lease | None:
        """Take the game's delivery lease in the caller's transaction when a step of it is pending; None when
        another process holds it, nothing is pending, or this deliverer shows nothing. (A step's own transaction
        takes it with its version bump instead: :meth:`lease_ask`, :meth:`adopt`.)"""
        if not self._shows:
            return None
        now = self._clock()
        return self.adopt(game_id, await outbox.claim_game(session, game_id, self.owner, now, now + LEASE))

    async def _watch_holder(self, game_id: int) -> None:
        """A step of ``game_id`` is pending and another process holds its lease: look again when that lease runs
        out (:meth:`take_over_due`; the timer loop is woken then), unless it is given back before."""
        async with self._sessions() as session:
            holder = await outbox.lease_of(session, game_id)
        if holder is None or holder.owner == self.owner or holder.lease_until <= self._clock():
            return
        self._watch[game_id] = holder.lease_until
        if self._on_timers is not None:
            self._on_timers(holder.lease_until)

    def next_watch(self) -> datetime | None:
        """When the earliest lease :meth:`take_over_due` waits for runs out (None: none)."""
        return min(self._watch.values(), default=None)

    async def take_over_due(self) -> int:
        """Drain the games whose pending steps another process's lease kept from this one, now that the lease ran
        out (the timer loop calls this when :meth:`next_watch` comes): a dead process's game is shown within
        :data:`LEASE` of its last renewal, not at the next sweep. Returns how many steps were shown."""
        now = self._clock()
        due = [game_id for game_id, until in self._watch.items() if until <= now]
        for game_id in due:
            del self._watch[game_id]
        return sum([await self.drain(game_id, pending=True) for game_id in due])

    async def _heartbeat(self, game_id: int) -> None:
        """Renew this process's lease of ``game_id`` every third of :data:`LEASE` until cancelled (the drain is
        over); a renewal refused while this process still holds the lease marks it lost (another process took the
        game after a stall longer than the lease): the drain stops before its next step."""
        while True:
            beat = self._clock() + LEASE / 3
            if self._hooks.pause_until is not None:
                while self._clock() < beat:
                    await self._hooks.pause_until(beat)
            else:
                await asyncio.sleep((LEASE / 3).total_seconds())
            lease = self._held.get(game_id)
            if lease is None:
                continue
            now = self._clock()
            try:
                async with self._sessions() as session, session.begin():
                    kept = await outbox.renew_game(session, game_id, self.owner, now, now + LEASE)
            except Exception:  # the database may be away for a moment: the next beat tries again, within the lease
                log.exception("renewing the delivery lease of game %s failed", game_id)
                continue
            if kept:
                lease.until = max(lease.until, now + LEASE)
            elif self._held.get(game_id) is lease:
                log.warning("the delivery lease of game %s was taken over while this process showed it", game_id)
                self._lost.add(game_id)

    async def _release(self, game_id: int) -> None:
        async with self._sessions() as session, session.begin():
            await outbox.release_game(session, game_id, self.owner, self._clock())
        self._held.pop(game_id, None)

    async def _finish(self, session: AsyncSession, game_id: int, entry: OutboxEntry,
                      shown: str | None) -> Lease | None:
        """Give the lease back (recording the digest ``shown``, when known), mark the step ``entry`` delivered and
        take the lease again when a later step may be pending (the game's version, as giving the lease back finds
        it, is past the step's: one committed meanwhile, by this process or another), in the caller's transaction:
        a step another process committed while this one held the lease is never stranded
        (:func:`bot.db.repos.outbox.release_game`), and a drained game costs two statements and no transaction of
        its own to look again."""
        now = self._clock()
        version = await outbox.release_game(session, game_id, self.owner, now, shown)
        self._held.pop(game_id, None)
        await outbox.mark_delivered(session, entry.id, now)
        if version is None or version <= entry.version:
            return None
        return await self.claim_with(session, game_id)
