"""The outbox: steps committed but not yet shown (see :class:`bot.db.models.OutboxEntry`), and the per-game
delivery lease (``games.lease_*``, :class:`bot.db.models.Game`) that lets one process at a time show a game's
steps."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, and_, bindparam, case, delete, false, func, insert, null, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, OutboxEntry
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
_OUTBOX, _GAMES = OutboxEntry.__table__, Game.__table__
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
        held = (select(_GAMES.c.id).where(_GAMES.c.id == OutboxEntry.game_id,
                                          _GAMES.c.lease_until > unleased_at).exists())
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


class Holder(NamedTuple):
    """A game's delivery lease as it stands: its owner and until when it holds (``games.lease_owner``,
    ``games.lease_until``)."""

    owner: str
    lease_until: datetime


# the lease lives on the game's row (``games.lease_*``, :class:`bot.db.models.Game`): the claim's parameters are
# ``holder``, ``now`` and ``until``
_OWNER = bindparam("holder", type_=_GAMES.c.lease_owner.type)
_UNTIL = bindparam("until", type_=_GAMES.c.lease_until.type)
_NOW = bindparam("now", type_=_GAMES.c.lease_until.type)
#: the lease may be taken: free (never taken, run out, given back: its end is set then) or this owner's
_FREE = or_(_GAMES.c.lease_until.is_(None), _GAMES.c.lease_until <= _NOW, _GAMES.c.lease_owner == _OWNER)
#: taking it now takes the game over from an owner whose lease ran out without being given back
_TAKEN_FROM = case((and_(_GAMES.c.lease_owner != _OWNER, _GAMES.c.lease_given_back.is_(False)),
                    _GAMES.c.lease_owner), else_=null())


def _waiting(game_id: ColumnElement[Any]) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    return _OUTBOX.c.game_id == game_id, _OUTBOX.c.delivered_at.is_(None)


def claim_values() -> dict[str, Any]:
    """The ``SET`` of a step's version bump (:func:`bot.db.repos.games.bump_and_claim`) that takes the game's
    delivery lease in the same statement when it may be taken (:func:`claim_game`'s rule; the row is left as it
    is otherwise); with :func:`claim_returning`."""
    return {"lease_owner": case((_FREE, _OWNER), else_=_GAMES.c.lease_owner),
            "lease_until": case((_FREE, _UNTIL), else_=_GAMES.c.lease_until),
            "lease_given_back": case((_FREE, false()), else_=_GAMES.c.lease_given_back),
            "lease_taken_from": case((_FREE, _TAKEN_FROM), else_=_GAMES.c.lease_taken_from)}


def claim_returning(game_id: ColumnElement[Any]) -> list[Any]:
    """What a claim returns, for :func:`claimed`: the owner after it, the digest shown, the oldest undelivered step
    (the caller's own step, not inserted yet, is not among them) and the living table row."""
    first = select(func.min(_OUTBOX.c.id)).where(*_waiting(game_id)).scalar_subquery()
    return [_GAMES.c.lease_owner, _GAMES.c.shown, first, _GAMES.c.lease_taken_from, *live.snapshot_columns(game_id)]


def claimed(game_id: int, owner: str, row: Sequence[Any] | None) -> Claim:
    """The :class:`Claim` of what :func:`claim_returning` returned (None: no row)."""
    if row is None or row[0] != owner:
        return Claim(False)
    return Claim(True, row[1], row[2], row[3], live.snapshot(game_id, row[4:]))


def claim_params(owner: str, now: datetime, until: datetime) -> dict[str, Any]:
    """The parameters of a claim (:func:`claim_values`)."""
    return {"holder": owner, "now": now, "until": until}


async def claim_game(session: AsyncSession, game_id: int, owner: str, now: datetime, until: datetime) -> Claim:
    """Take (or renew) the delivery lease of ``game_id`` for ``owner`` until ``until`` when the game has a step to
    show; not won (``Claim(False)``) when another owner holds a lease that runs past ``now`` or nothing is pending.
    One ``UPDATE games ... WHERE <free or ours> AND EXISTS <a pending step> RETURNING`` statement, so two processes
    claiming at once never both win (commit at once). A step's own transaction takes it with its version bump
    instead (:func:`claim_values`)."""
    params = {"b_game_id": game_id, **claim_params(owner, now, until)}
    return claimed(game_id, owner, (await session.execute(_CLAIM, params)).first())


_GAME_ID = bindparam("b_game_id", type_=_GAMES.c.id.type)
_CLAIM = (update(_GAMES).where(_GAMES.c.id == _GAME_ID, _FREE, select(_OUTBOX.c.id).where(*_waiting(_GAME_ID)).exists())
          .values(lease_owner=_OWNER, lease_until=_UNTIL, lease_given_back=False, lease_taken_from=_TAKEN_FROM)
          .returning(*claim_returning(_GAME_ID)))


async def renew_game(session: AsyncSession, game_id: int, owner: str, now: datetime, until: datetime) -> bool:
    """Extend ``owner``'s delivery lease of ``game_id`` to ``until`` while it still holds it at ``now`` (its
    delivery is still working); False when it no longer does (given back meanwhile, or run out and taken over)."""
    stmt = (update(_GAMES).where(_GAMES.c.id == game_id, _GAMES.c.lease_owner == owner, _GAMES.c.lease_until > now)
            .values(lease_until=until, lease_taken_from=None).returning(_GAMES.c.id))
    return (await session.scalar(stmt)) is not None


async def lease_of(session: AsyncSession, game_id: int) -> Holder | None:
    """The delivery lease of ``game_id`` (None: never taken, or no such game)."""
    row = (await session.execute(select(_GAMES.c.lease_owner, _GAMES.c.lease_until)
                                 .where(_GAMES.c.id == game_id))).first()
    if row is None or row[0] is None or row[1] is None:
        return None
    return Holder(row[0], row[1])


async def release_game(session: AsyncSession, game_id: int, owner: str, now: datetime,
                       shown: str | None = None) -> int | None:
    """End ``owner``'s delivery lease of ``game_id`` at ``now`` (nothing when it no longer holds it); ``shown``:
    record with it the digest of the public view the table shows now (as :func:`set_shown`, in the same
    statement). Returns the game's version as it stands once the lease is given back (None: not held): on
    PostgreSQL the UPDATE waits for a step's transaction in flight (the version bump's row lock) and returns the row
    as that transaction left it, so a step another process committed while this one held the lease is seen here
    (SQLite runs one writer at a time)."""
    params = {"b_game_id": game_id, "holder": owner, "v_lease_until": now}
    result = await session.execute(_RELEASE if shown is None else _RELEASE_SHOWN,
                                   params if shown is None else {**params, "v_shown": shown})
    return result.scalar()


_RELEASE = (update(_GAMES).where(_GAMES.c.id == bindparam("b_game_id"), _GAMES.c.lease_owner == bindparam("holder"))
            .values(lease_until=bindparam("v_lease_until"), lease_given_back=True).returning(_GAMES.c.version))
_RELEASE_SHOWN = _RELEASE.values(shown=bindparam("v_shown"))


async def release_owner(session: AsyncSession, owner: str, now: datetime) -> None:
    """End every delivery lease ``owner`` holds at ``now`` (it is stopping): others may take its games at once."""
    await session.execute(update(_GAMES).where(_GAMES.c.lease_owner == owner, _GAMES.c.lease_until > now)
                          .values(lease_until=now, lease_given_back=True))


async def set_shown(session: AsyncSession, game_id: int, owner: str, shown: str) -> None:
    """Record the digest of the public view the table of ``game_id`` shows now (by the lease's ``owner``)."""
    await session.execute(update(_GAMES).where(_GAMES.c.id == game_id, _GAMES.c.lease_owner == owner)
                          .values(shown=shown))


async def mark_delivered(session: AsyncSession, entry_id: int, at: datetime) -> None:
    stmt = (update(OutboxEntry).where(OutboxEntry.id == entry_id).values(delivered_at=at)
            .execution_options(synchronize_session=False))
    await session.execute(stmt)


async def mark_delivered_many(session: AsyncSession, entry_ids: list[int], at: datetime) -> None:
    """Mark the steps ``entry_ids`` delivered at ``at``, in one statement (:mod:`bot.tables.marks`)."""
    if len(entry_ids) == 1:
        await mark_delivered(session, entry_ids[0], at)
    elif entry_ids:
        await session.execute(update(_OUTBOX).where(_OUTBOX.c.id.in_(entry_ids)).values(delivered_at=at))


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
