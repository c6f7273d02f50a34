"""Timers: deadlines persisted so they survive a restart; each fires once, whichever process runs it.

The claim protocol (any number of processes on one database):

1. :func:`claim_due` takes the due, unfired timers nobody holds (never claimed, or their lease ran out) and stamps
   them ``claimed_by = owner``, ``lease_until = now + lease`` in one transaction. On PostgreSQL the candidates are
   picked ``FOR UPDATE SKIP LOCKED``, so two processes claiming at once take disjoint timers without waiting on
   each other; on SQLite (one process) the UPDATE repeats the conditions, so it takes only what is still free.
2. The owner runs the timer's handler, renewing its claims (:func:`renew`) while it runs, so a slow handler is not
   taken over by another process; then :func:`mark_fired` sets ``fired_at`` (exactly one caller wins).
3. A process that dies between 1 and 2 leaves a claim whose lease runs out; the next :func:`claim_due` of any
   process takes it over and runs the handler again (the same process started again takes its own claims back
   at once: a claim under its name is one it no longer runs). Handlers act through the table's version check, so
   such a re-run is refused as stale when the first run's move was committed, and applied when it was not: in
   effect each timer fires once.

Superseded timers: a timer of a kind that does nothing once the decision it was armed for is over (turn warnings,
timeouts, pings: ``superseded`` kinds, the table service's) stands while it was armed at or after the version its
game's awaited decision was first offered at (``games.decision_opened``, written by every version bump). One armed
before is never claimed, waited for or listed as pending (the claim filters it in SQL: after a clock jump the stale
ones do not fire one by one), so a move disarms nothing; :func:`disarm_stale` marks them fired in bulk now and then.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, insert, literal, null, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.base import UTCDateTime
from bot.db.models import Game, Timer


async def schedule(session: AsyncSession, game_id: int, kind: str, due_at: datetime, payload: dict[str, Any],
                   version: int) -> Timer:
    """Persist a timer; ``version`` is the game's version now (``version_at_schedule``)."""
    timer = Timer(game_id=game_id, kind=kind, due_at=due_at, payload=payload, version_at_schedule=version)
    session.add(timer)
    await session.flush()
    return timer


async def schedule_many(session: AsyncSession, game_id: int, plans: Sequence[tuple[str, datetime, dict[str, Any]]],
                        version: int) -> None:
    """Persist timers ``(kind, due_at, payload)`` of one game armed at ``version``, in one multi-row ``INSERT``
    (nothing for none)."""
    rows = [{"game_id": game_id, "kind": kind, "due_at": due_at, "payload": payload, "version_at_schedule": version}
            for kind, due_at, payload in plans]
    if rows:  # (Core, on the table: no ORM bulk insert to plan for every move)
        await session.execute(_SCHEDULE, rows)


_SCHEDULE = insert(Timer.__table__)


def _claimable(now: datetime, owner: str) -> Any:
    return or_(Timer.lease_until.is_(None), Timer.lease_until <= now, Timer.claimed_by == owner)


def standing(superseded: Collection[str]) -> ColumnElement[bool]:
    """The condition on a timer that it is not superseded: not of the ``superseded`` kinds, or armed at or after
    its game's ``decision_opened`` (see the module's docstring)."""
    if not superseded:
        return true()
    opened = select(Game.decision_opened).where(Game.id == Timer.game_id).scalar_subquery()
    return or_(Timer.kind.not_in(list(superseded)), Timer.version_at_schedule >= opened)


async def claim_due(session: AsyncSession, now: datetime, owner: str, lease: timedelta, limit: int = 50, *,
                    superseded: Collection[str] = ()) -> list[tuple[Timer, str | None]]:
    """Claim for ``owner`` (a process name, at most 64 chars) up to ``limit`` unfired timers due at or before
    ``now`` that no other process holds and that are not superseded (:func:`standing`), until ``now + lease``;
    returns them earliest first, each with the other process whose run-out claim was taken over (None: nobody held
    it). Commit at once: the claim is what other
    processes see. Timers another live process holds are skipped, not waited for; those already under
    ``owner``'s name are taken again (the caller must not be running them)."""
    # two statements, not UPDATE ... WHERE id IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED): PostgreSQL may run
    # such a subquery again for each row, skipping the rows this UPDATE already changed, and so claim them all
    candidates = (select(Timer.id, Timer.claimed_by)
                  .where(Timer.fired_at.is_(None), Timer.due_at <= now, _claimable(now, owner), standing(superseded))
                  .order_by(Timer.due_at, Timer.id).limit(limit).with_for_update(skip_locked=True))
    held_by = {timer_id: by for timer_id, by in (await session.execute(candidates)).all()}
    ids = list(held_by)
    if not ids:
        return []
    stmt = (update(Timer).where(Timer.id.in_(ids), Timer.fired_at.is_(None), _claimable(now, owner))
            .values(claimed_by=owner, lease_until=now + lease).returning(Timer)
            .execution_options(synchronize_session=False))
    claimed = (await session.scalars(stmt)).all()
    return [(timer, held_by[timer.id] if held_by[timer.id] not in (None, owner) else None)
            for timer in sorted(claimed, key=lambda timer: (timer.due_at, timer.id))]


async def release(session: AsyncSession, timer_ids: Sequence[int], owner: str) -> None:
    """Give back claims of ``owner`` it will not run (it is stopping): others may take them at once."""
    if timer_ids:
        await session.execute(update(Timer).where(Timer.id.in_(timer_ids), Timer.claimed_by == owner,
                                                  Timer.fired_at.is_(None))
                              .values(claimed_by=None, lease_until=None).execution_options(synchronize_session=False))


async def release_owner(session: AsyncSession, owner: str) -> None:
    """Give back every unfired timer ``owner`` holds (it is stopping): others may take them at once."""
    await session.execute(update(Timer).where(Timer.claimed_by == owner, Timer.fired_at.is_(None))
                          .values(claimed_by=None, lease_until=None).execution_options(synchronize_session=False))


async def renew(session: AsyncSession, timer_ids: Sequence[int], owner: str, until: datetime) -> set[int]:
    """Extend ``owner``'s claims of the unfired ``timer_ids`` to ``until`` (it is still running them); returns the
    ids renewed (one missing was fired, or taken over by another process after its lease ran out)."""
    if not timer_ids:
        return set()
    stmt = (update(Timer).where(Timer.id.in_(timer_ids), Timer.claimed_by == owner, Timer.fired_at.is_(None))
            .values(lease_until=until).returning(Timer.id).execution_options(synchronize_session=False))
    return set((await session.scalars(stmt)).all())


async def next_due(session: AsyncSession, superseded: Collection[str] = ()) -> datetime | None:
    """When the next unfired timer not superseded (:func:`standing`) can be claimed: its ``due_at``, or the end of
    its lease when a process holds it past that (None when no timer is pending)."""
    when = case((and_(Timer.lease_until.is_not(None), Timer.lease_until > Timer.due_at), Timer.lease_until),
                else_=Timer.due_at)
    return await session.scalar(select(func.min(when)).where(Timer.fired_at.is_(None), standing(superseded)))


async def pending_of(session: AsyncSession, game_id: int, superseded: Collection[str] = ()) -> Sequence[Timer]:
    """Unfired timers of one game not superseded (:func:`standing`), earliest first."""
    stmt = (select(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None), standing(superseded))
            .order_by(Timer.due_at))
    return (await session.scalars(stmt)).all()


async def lobby_expired(session: AsyncSession, game_id: int) -> bool:
    """Whether ``game_id`` is a lobby its ``lobby_expire`` timer closed: cancelled before it started, at or after
    that timer's deadline (a host's Cancel before the deadline is not an expiry)."""
    stmt = (select(Timer.id).join(Game, Game.id == Timer.game_id)
            .where(Timer.game_id == game_id, Timer.kind == "lobby_expire", Game.status == "cancelled",
                   Game.state.is_(None), Timer.due_at <= Game.finished_at).limit(1))
    return await session.scalar(stmt) is not None


async def has_timer(session: AsyncSession, game_id: int, kind: str) -> bool:
    """Whether ``game_id`` has (or had: fired ones count) a timer of ``kind``."""
    stmt = select(Timer.id).where(Timer.game_id == game_id, Timer.kind == kind).limit(1)
    return await session.scalar(stmt) is not None


async def booked_in_channel(session: AsyncSession, channel_id: int, kind: str) -> list[tuple[Game, datetime]]:
    """The ``scheduled`` games of ``channel_id`` with the due time of their pending ``kind`` timer (the one that
    opens them), soonest first."""
    stmt = (select(Game, Timer.due_at).join(Timer, Timer.game_id == Game.id)
            .where(Game.channel_id == channel_id, Game.status == "scheduled", Timer.kind == kind,
                   Timer.fired_at.is_(None)).order_by(Timer.due_at, Game.id))
    return [(game, due) for game, due in (await session.execute(stmt)).all()]


async def mark_fired(session: AsyncSession, timer_id: int, now: datetime) -> bool:
    """Set ``fired_at`` if still unset and the timer is not held. True only for the one caller that fired it
    (idempotent, race-safe). A timer its game's pause held while its handler ran (:func:`hold_game`) stays held:
    the resume gives it the time it had left and it runs again then."""
    stmt = (update(Timer).where(Timer.id == timer_id, Timer.fired_at.is_(None), Timer.due_at != HELD_UNTIL)
            .values(fired_at=now)
            .execution_options(synchronize_session=False))
    return (await session.execute(stmt)).rowcount == 1  # type: ignore[attr-defined]


async def disarm_superseded(session: AsyncSession, game_id: int, kinds: Iterable[str], version: int,
                            now: datetime) -> None:
    """Mark fired the pending timers of ``kinds`` armed before the game reached ``version``."""
    stmt = (update(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None), Timer.kind.in_(list(kinds)),
                                Timer.version_at_schedule < version).values(fired_at=now)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def disarm(session: AsyncSession, timer_ids: Collection[int], now: datetime) -> None:
    """Mark fired the pending timers ``timer_ids`` (none: no statement)."""
    if not timer_ids:
        return
    stmt = (update(Timer).where(Timer.id.in_(list(timer_ids)), Timer.fired_at.is_(None)).values(fired_at=now)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def disarm_stale(session: AsyncSession, superseded: Collection[str], now: datetime) -> int:
    """Mark fired every pending timer of the ``superseded`` kinds its game's decision has moved past (none of them
    is ever claimed: this only keeps the pending ones few); returns how many."""
    if not superseded:
        return 0
    stmt = (update(Timer).where(Timer.fired_at.is_(None), ~standing(superseded)).values(fired_at=now)
            .execution_options(synchronize_session=False))
    return int((await session.execute(stmt)).rowcount or 0)  # type: ignore[attr-defined]


async def disarm_game(session: AsyncSession, game_id: int, now: datetime, lapse: Collection[str] = ()) -> int:
    """Mark every pending timer of a game fired (the game finished or was cancelled), in one statement; those of
    the ``lapse`` kinds are made due ``now`` instead, so their handlers run once more (a seat offer's strips its
    message's button). Returns how many were made due."""
    lapsing, at = Timer.kind.in_(list(lapse)), literal(now, UTCDateTime())
    stmt = (update(Timer).where(Timer.game_id == game_id, Timer.fired_at.is_(None))
            .values(fired_at=case((lapsing, null()), else_=at), due_at=case((lapsing, at), else_=Timer.due_at))
            .returning(Timer.kind).execution_options(synchronize_session=False))
    return sum(kind in lapse for kind in (await session.scalars(stmt)).all())


async def bring_forward(session: AsyncSession, timer: Timer, now: datetime, extra: dict[str, Any]) -> None:
    """Make the pending ``timer`` due ``now`` with ``extra`` added to its payload (a claim on it dropped): its
    handler runs at once. The payload is read under the row's write lock (:func:`merge_payload`), so what another
    transaction added since ``timer`` was read (an offer's message) is kept."""
    await merge_payload(session, timer.id, extra, pending=True, due_at=now, claimed_by=None, lease_until=None)


async def amend(session: AsyncSession, timer_id: int, extra: dict[str, Any]) -> dict[str, Any] | None:
    """Add ``extra`` to the payload of the timer ``timer_id`` (fired or not; none: nothing). Returns the payload it
    had when a process had claimed it already (its handler runs, or ran, without ``extra``), else None; the payload
    is read under the row's write lock (:func:`merge_payload`), so a claim that commits meanwhile is seen."""
    had = await merge_payload(session, timer_id, extra)
    return had[0] if had is not None and had[1] is not None else None


async def merge_payload(session: AsyncSession, timer_id: int, extra: dict[str, Any], *, pending: bool = False,
                        **values: Any) -> tuple[dict[str, Any], str | None] | None:
    """Add ``extra`` to the payload of the timer ``timer_id`` (``pending``: only while it has not fired) and set
    its other columns ``values``; the payload it had and who had claimed it (``claimed_by``), or None when there is
    no such timer. The first UPDATE takes the row's write lock before it reads (SQLite's writer lock, PostgreSQL's
    row lock), so what another transaction committed meanwhile (a claim, a payload key) is read and kept."""
    where = [Timer.id == timer_id, *([Timer.fired_at.is_(None)] if pending else [])]
    locked = (update(Timer).where(*where).values(payload=Timer.payload)
              .returning(Timer.payload, Timer.claimed_by).execution_options(synchronize_session=False))
    row = (await session.execute(locked)).first()
    if row is None:
        return None
    await session.execute(update(Timer).where(Timer.id == timer_id).values(payload={**row.payload, **extra}, **values)
                          .execution_options(synchronize_session=False))
    return dict(row.payload), row.claimed_by


#: the deadline of a held timer (its game is paused): never due; its payload keeps the seconds it had left
HELD_UNTIL = datetime(9999, 1, 1, tzinfo=UTC)
HELD_KEY = "held_seconds"


async def hold_game(session: AsyncSession, game_id: int, now: datetime, keep: Iterable[str] = (),
                    superseded: Collection[str] = ()) -> int:
    """Hold every pending timer of a game (not superseded: :func:`standing`) but ``keep``'s kinds (its host paused
    it): each is due at
    :data:`HELD_UNTIL` and remembers in its payload (:data:`HELD_KEY`) the seconds it had left at ``now``. A claim
    on it is dropped with it. Returns how many were held."""
    kept = set(keep)
    held = 0
    for timer in await pending_of(session, game_id, superseded):
        if timer.kind in kept or HELD_KEY in timer.payload:
            continue
        left = max(0.0, (timer.due_at - now).total_seconds())
        await session.execute(update(Timer).where(Timer.id == timer.id).values(
            due_at=HELD_UNTIL, payload={**timer.payload, HELD_KEY: left}, claimed_by=None, lease_until=None)
            .execution_options(synchronize_session=False))
        held += 1
    return held


async def release_game(session: AsyncSession, game_id: int, now: datetime, superseded: Collection[str] = ()) -> int:
    """Give every held timer of a game (not superseded: :func:`standing`) the time it had left, from ``now`` (its
    host resumed it). Returns how many were released."""
    released = 0
    for timer in await pending_of(session, game_id, superseded):
        if HELD_KEY not in timer.payload:
            continue
        payload = dict(timer.payload)
        left = float(payload.pop(HELD_KEY))
        await session.execute(update(Timer).where(Timer.id == timer.id).values(
            due_at=now + timedelta(seconds=left), payload=payload).execution_options(synchronize_session=False))
        released += 1
    return released
