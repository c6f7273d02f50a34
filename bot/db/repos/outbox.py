"""The outbox: steps committed but not yet shown (see :class:`bot.db.models.OutboxEntry`), and the per-game
delivery lease (:class:`bot.db.models.DeliveryLease`) that lets one process at a time show a game's steps."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Insert, and_, bindparam, case, delete, func, insert, literal, null, or_, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import DeliveryLease, OutboxEntry
from bot.db.repos import live


async def add(session: AsyncSession, game_id: int, version: int, kind: str, events: list[dict[str, Any]],
              timers: list[dict[str, Any]], at: datetime, sent: dict[str, int] | None = None) -> OutboxEntry:
    """Record a step to deliver (call in the step's own transaction); ``kind``: ``start`` or ``act``; ``sent``: its
    per-send records to begin with (:attr:`bot.db.models.OutboxEntry.sent`)."""
    values = {"game_id": game_id, "version": version, "kind": kind, "events": events, "timers": timers,
              "created_at": at, "attempts": 0, "sent": sent}
    entry_id = (await session.execute(_ADD, values)).scalar_one()
    return OutboxEntry(id=entry_id, delivered_at=None, **values)  # (not in the session: nothing to flush)


# the statements every move runs, built once on the tables (Core: no unit of work, one compiled form; see
# :mod:`bot.db.repos.games`)
_OUTBOX, _LEASES = OutboxEntry.__table__, DeliveryLease.__table__
_ADD = insert(_OUTBOX).returning(_OUTBOX.c.id)


async def pending_of(session: AsyncSession, game_id: int, *, limit: int | None = None) -> Sequence[OutboxEntry]:
    """The undelivered steps of one game, in commit order (the first ``limit`` of them)."""
    stmt = (select(OutboxEntry).where(OutboxEntry.game_id == game_id, OutboxEntry.delivered_at.is_(None))
            .order_by(OutboxEntry.id).limit(limit))
    return (await session.scalars(stmt)).all()


async def pending_games(session: AsyncSession, *, unleased_at: datetime | None = None,
                        failed: bool = False) -> list[int]:
    """Games with an undelivered step, the one with the oldest such step first. ``unleased_at``: only games with a
    step that never failed (a failed step has its retry timer) and whose delivery lease nobody holds at that time
    (it ran out: its process died or hung; or it was given back by a process that stopped): those nobody shows.
    ``failed``: only games whose oldest undelivered step failed to show (waiting for its retry)."""
    stmt = select(OutboxEntry.game_id).where(OutboxEntry.delivered_at.is_(None))
    if unleased_at is not None:
        held = (select(DeliveryLease.game_id).where(DeliveryLease.game_id == OutboxEntry.game_id,
                                                    DeliveryLease.lease_until > unleased_at).exists())
        stmt = stmt.where(OutboxEntry.attempts == 0, ~held)
    if failed:
        stmt = stmt.where(OutboxEntry.attempts > 0)
    stmt = stmt.group_by(OutboxEntry.game_id).order_by(func.min(OutboxEntry.id))
    return list((await session.scalars(stmt)).all())


class Claim(NamedTuple):
    """What :func:`claim_game` found: whether ``owner`` holds the lease now (``won``), the digest of the public view
    the table last showed, the id of the game's oldest undelivered step, and the owner whose lease ran out without
    being given back, when this claim took the game from it (``taken_from``: a takeover; None otherwise), and the
    game's living table row (``table_row``, read in the same statement)."""

    won: bool
    shown: str | None = None
    first: int | None = None
    taken_from: str | None = None
    #: the game's living table row as the new holder finds it (None: its table was never shown): only the lease's
    #: holder writes its log, so it stands until this holder's delivery writes it
    table_row: live.Snapshot | None = None


async def claim_game(session: AsyncSession, game_id: int, owner: str, now: datetime, until: datetime, *,
                     committing: bool = False) -> Claim:
    """Take (or renew) the delivery lease of ``game_id`` for ``owner`` until ``until`` when the game has a step to
    show (``committing``: the caller's transaction is writing one, not yet inserted: ``first`` is then None when
    that step is the only one pending); not won (``Claim(False)``) when another owner holds a lease that runs past
    ``now`` or nothing is pending. One ``INSERT ... SELECT ... WHERE EXISTS ... ON CONFLICT DO UPDATE ... WHERE ...
    RETURNING`` statement, so two processes claiming at once never both win (commit at once, or with the step that
    made it pending); the update reads the row it replaces to name the owner it took the game from (``taken_from``)."""
    params = {"b_game_id": game_id, "holder": owner, "now": now, "until": until}
    won = (await session.execute(_claim(session.bind.dialect.name, committing), params)).first()
    return Claim(True, won[0], won[1], won[2], live.snapshot(game_id, won[3:])) if won is not None else Claim(False)


@cache
def _claim(dialect: str, committing: bool) -> Insert:
    """:func:`claim_game`'s statement for the backend ``dialect`` (``postgresql`` or ``sqlite``), built once (Core,
    on the tables; see :mod:`bot.db.repos.games`); its parameters: ``b_game_id``, ``holder``, ``now``, ``until``."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    game_id = bindparam("b_game_id", type_=_LEASES.c.game_id.type)
    owner = bindparam("holder", type_=_LEASES.c.owner.type)
    until = bindparam("until", type_=_LEASES.c.lease_until.type)
    now = bindparam("now", type_=_LEASES.c.lease_until.type)
    waiting = (_OUTBOX.c.game_id == game_id, _OUTBOX.c.delivered_at.is_(None))
    pending = select(_OUTBOX.c.id).where(*waiting).exists()
    row = select(game_id, owner, until, literal(False)).where(true() if committing else pending)
    stmt = insert(_LEASES).from_select(["game_id", "owner", "lease_until", "given_back"], row)
    ran_out = and_(_LEASES.c.owner != owner, _LEASES.c.given_back.is_(False))
    stmt = stmt.on_conflict_do_update(
        index_elements=[_LEASES.c.game_id],
        set_={"owner": owner, "lease_until": until, "given_back": False,
              "taken_from": case((ran_out, _LEASES.c.owner), else_=null())},
        where=or_(_LEASES.c.lease_until <= now, _LEASES.c.owner == owner))
    first = select(func.min(_OUTBOX.c.id)).where(*waiting).scalar_subquery()
    return stmt.returning(_LEASES.c.shown, first, _LEASES.c.taken_from, *live.snapshot_columns(game_id))


async def renew_game(session: AsyncSession, game_id: int, owner: str, now: datetime, until: datetime) -> bool:
    """Extend ``owner``'s delivery lease of ``game_id`` to ``until`` while it still holds it at ``now`` (its
    delivery is still working); False when it no longer does (given back meanwhile, or run out and taken over)."""
    stmt = (update(DeliveryLease).where(DeliveryLease.game_id == game_id, DeliveryLease.owner == owner,
                                        DeliveryLease.lease_until > now)
            .values(lease_until=until, taken_from=None).returning(DeliveryLease.game_id)
            .execution_options(synchronize_session=False))
    return (await session.scalar(stmt)) is not None


async def lease_of(session: AsyncSession, game_id: int) -> DeliveryLease | None:
    """The delivery lease row of ``game_id`` (None: never delivered)."""
    return await session.get(DeliveryLease, game_id, populate_existing=True)


async def release_game(session: AsyncSession, game_id: int, owner: str, now: datetime,
                       shown: str | None = None) -> None:
    """End ``owner``'s delivery lease of ``game_id`` at ``now`` (nothing when it no longer holds it); ``shown``:
    record with it the digest of the public view the table shows now (as :func:`set_shown`, in the same
    statement)."""
    params = {"b_game_id": game_id, "holder": owner, "v_lease_until": now}
    await session.execute(_RELEASE if shown is None else _RELEASE_SHOWN,
                          params if shown is None else {**params, "v_shown": shown})


_RELEASE = (update(_LEASES).where(_LEASES.c.game_id == bindparam("b_game_id"), _LEASES.c.owner == bindparam("holder"))
            .values(lease_until=bindparam("v_lease_until"), given_back=True))
_RELEASE_SHOWN = _RELEASE.values(shown=bindparam("v_shown"))


async def release_owner(session: AsyncSession, owner: str, now: datetime) -> None:
    """End every delivery lease ``owner`` holds at ``now`` (it is stopping): others may take its games at once."""
    await session.execute(update(DeliveryLease).where(DeliveryLease.owner == owner, DeliveryLease.lease_until > now)
                          .values(lease_until=now, given_back=True).execution_options(synchronize_session=False))


async def set_shown(session: AsyncSession, game_id: int, owner: str, shown: str) -> None:
    """Record the digest of the public view the table of ``game_id`` shows now (by the lease's ``owner``)."""
    await session.execute(update(DeliveryLease).where(DeliveryLease.game_id == game_id, DeliveryLease.owner == owner)
                          .values(shown=shown).execution_options(synchronize_session=False))


async def mark_delivered(session: AsyncSession, entry_id: int, at: datetime) -> None:
    stmt = (update(OutboxEntry).where(OutboxEntry.id == entry_id).values(delivered_at=at)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def mark_delivered_and_look(session: AsyncSession, game_id: int, entry_id: int, at: datetime) -> bool:
    """Mark the step ``entry_id`` of ``game_id`` delivered and say whether a later step of the game still waits,
    in one ``UPDATE ... RETURNING`` statement. Run it after :func:`release_game` in the same transaction: on
    PostgreSQL that UPDATE waits for a claim of the lease in flight (its row lock) and this statement's snapshot
    is taken after it, so a step another process committed while this one held the lease is seen here, or that
    process wins the lease once this transaction commits (SQLite runs one writer at a time)."""
    return bool((await session.execute(_DELIVERED_AND_LOOK, {"entry_id": entry_id, "b_game_id": game_id,
                                                              "v_delivered_at": at})).scalar())


_LATER = _OUTBOX.alias("later")  # (not correlated with the row being updated)
_DELIVERED_AND_LOOK = (
    update(_OUTBOX).where(_OUTBOX.c.id == bindparam("entry_id")).values(delivered_at=bindparam("v_delivered_at"))
    .returning(select(_LATER.c.id).where(_LATER.c.game_id == bindparam("b_game_id"), _LATER.c.delivered_at.is_(None),
                                         _LATER.c.id > bindparam("entry_id")).exists()))


async def record_sent(session: AsyncSession, entry_id: int, sent: dict[str, int]) -> None:
    """Record the messages a delivery of step ``entry_id`` created so far (``{nonce: message id}``, all of them:
    it replaces what was recorded)."""
    await session.execute(_RECORD_SENT, {"b_id": entry_id, "v_sent": sent})


_RECORD_SENT = update(_OUTBOX).where(_OUTBOX.c.id == bindparam("b_id")).values(sent=bindparam("v_sent"))


async def mark_failed(session: AsyncSession, entry_id: int) -> int:
    """Count a failed delivery; returns the attempts so far."""
    await session.execute(update(OutboxEntry).where(OutboxEntry.id == entry_id)
                          .values(attempts=OutboxEntry.attempts + 1).execution_options(synchronize_session=False))
    return int(await session.scalar(select(OutboxEntry.attempts).where(OutboxEntry.id == entry_id)) or 0)


async def prune(session: AsyncSession, before: datetime) -> int:
    """Delete the steps delivered before ``before`` (undelivered ones always stay); returns how many went."""
    result = await session.execute(delete(OutboxEntry).where(OutboxEntry.delivered_at.is_not(None),
                                                             OutboxEntry.delivered_at < before)
                                   .execution_options(synchronize_session=False))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]
