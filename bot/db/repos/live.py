"""The living table's state per running game (:class:`bot.db.models.LiveTableState`), written so that several
bot processes can share it: every change is one row update inside the caller's transaction (the row is locked
first where the backend can: PostgreSQL's ``SELECT ... FOR UPDATE``; SQLite serialises writers anyway)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, ScalarSelect, bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Game, LiveTableState


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game's row as read (``None`` columns of a row that does not exist: see :func:`snapshot`), detached from
    any session: the message showing the table, the messages counted after it, its log and its turn ping."""

    game_id: int
    message_id: int
    messages_after: int
    log: list[Any]
    ping_message_id: int | None


#: the columns :func:`snapshot_columns` reads, in order
_COLUMNS = (LiveTableState.message_id, LiveTableState.messages_after, LiveTableState.log,
            LiveTableState.ping_message_id)


def snapshot_columns(game_id: int | BindParameter[int]) -> list[ScalarSelect[Any]]:
    """Scalar subqueries reading the game's row, to add to another statement's ``RETURNING`` (the delivery lease's
    claim: :func:`bot.db.repos.outbox.claim_game`), so the row is read with no statement of its own; give what
    they return to :func:`snapshot`."""
    return [select(column).where(LiveTableState.game_id == game_id).scalar_subquery() for column in _COLUMNS]


def snapshot(game_id: int, values: Sequence[Any]) -> Snapshot | None:
    """The :class:`Snapshot` of what :func:`snapshot_columns` returned (None: the game has no row yet)."""
    message_id, after, log, ping = values
    if message_id is None:
        return None
    return Snapshot(game_id, int(message_id), int(after or 0), list(log or []), ping)


async def get(session: AsyncSession, game_id: int, *, lock: bool = False) -> LiveTableState | None:
    """The game's row (``lock``: locked until the transaction ends), None before its table was first shown."""
    stmt = select(LiveTableState).where(LiveTableState.game_id == game_id)
    return (await session.scalars(stmt.with_for_update() if lock else stmt)).first()


async def show(session: AsyncSession, game_id: int, channel_id: int, message_id: int, log: list[Any],
               at: datetime) -> LiveTableState:
    """Record that ``message_id`` shows the game's table with ``log``; a message other than the recorded one starts
    its count of messages after it at zero. Also sets ``games.table_message_id`` (the table's buttons answer by
    editing that message). Call with the row locked (:func:`get`)."""
    row = await get(session, game_id, lock=True)
    if row is None:
        row = LiveTableState(game_id=game_id, channel_id=channel_id, message_id=message_id, messages_after=0,
                             log=log, updated_at=at)
        session.add(row)
    else:
        if row.message_id != message_id:
            row.message_id, row.messages_after = message_id, 0
        row.channel_id, row.log, row.updated_at = channel_id, log, at
    await session.execute(update(Game).where(Game.id == game_id, Game.table_message_id.is_distinct_from(message_id))
                          .values(table_message_id=message_id).execution_options(synchronize_session=False))
    await session.flush()
    return row


async def show_again(session: AsyncSession, row: LiveTableState | Snapshot, log: list[Any], at: datetime) -> bool:
    """Record ``log`` on the message ``row`` (read before, unlocked) showed the table in, and take its turn ping
    away, in one ``UPDATE`` that holds only while the row still shows that message with that ping; False when
    either changed since (then use :func:`show` and :func:`set_ping`). ``games.table_message_id`` is left as it
    is: the caller knows it names that message."""
    result = await session.execute(_SHOW_AGAIN, {"b_game_id": row.game_id, "shown_in": row.message_id,
                                                  "ping_was": row.ping_message_id, "v_log": log, "v_updated_at": at})
    return int(result.rowcount or 0) == 1  # type: ignore[attr-defined]


async def show_anew(session: AsyncSession, row: LiveTableState | Snapshot, message_id: int, log: list[Any],
                    at: datetime) -> bool:
    """Record that the new message ``message_id`` shows the game's table with ``log`` (none of the channel's
    messages after it yet), replacing the message ``row`` (read before, unlocked) showed it in, and take its turn
    ping away, in one ``UPDATE`` that holds only while the row still shows that message with that ping; then point
    ``games.table_message_id`` at it. False (nothing written) when the row changed since: use :func:`show` and
    :func:`set_ping`."""
    result = await session.execute(_SHOW_ANEW, {"b_game_id": row.game_id, "shown_in": row.message_id,
                                                 "ping_was": row.ping_message_id, "v_message_id": message_id,
                                                 "v_log": log, "v_updated_at": at})
    if int(result.rowcount or 0) != 1:  # type: ignore[attr-defined]
        return False
    await session.execute(update(Game).where(Game.id == row.game_id, Game.table_message_id.is_distinct_from(message_id))
                          .values(table_message_id=message_id).execution_options(synchronize_session=False))
    return True


_LIVE = LiveTableState.__table__
# built once on the table (Core; see :mod:`bot.db.repos.games`): the UPDATE every delivered move runs
_SHOW_AGAIN = (update(_LIVE)
               .where(_LIVE.c.game_id == bindparam("b_game_id"), _LIVE.c.message_id == bindparam("shown_in"),
                      _LIVE.c.ping_message_id.is_not_distinct_from(bindparam("ping_was")))
               .values(log=bindparam("v_log"), updated_at=bindparam("v_updated_at"), ping_message_id=None))
_SHOW_ANEW = _SHOW_AGAIN.values(message_id=bindparam("v_message_id"), messages_after=0)


async def count_message(session: AsyncSession, channel_id: int, message_id: int) -> int:
    """One more message (``message_id``) in ``channel_id``: counted after every table of the channel it is newer
    than (one atomic ``UPDATE``, whichever process runs it). Returns how many tables counted it."""
    stmt = (update(LiveTableState)
            .where(LiveTableState.channel_id == channel_id, LiveTableState.message_id < message_id)
            .values(messages_after=LiveTableState.messages_after + 1).execution_options(synchronize_session=False))
    return int((await session.execute(stmt)).rowcount or 0)  # type: ignore[attr-defined]


async def count_at_least(session: AsyncSession, game_id: int, message_id: int, count: int) -> None:
    """At least ``count`` messages are under the game's table message ``message_id`` (read from the channel's
    history: those posted while no process counted them); no change once the table moved to another message."""
    await session.execute(update(LiveTableState)
                          .where(LiveTableState.game_id == game_id, LiveTableState.message_id == message_id,
                                 LiveTableState.messages_after < count)
                          .values(messages_after=count).execution_options(synchronize_session=False))


async def set_ping(session: AsyncSession, game_id: int, message_id: int | None) -> int | None:
    """Record the game's turn ping (``None``: none); returns the ping it replaces (to delete), None also when the
    game has no table row (then nothing is recorded)."""
    row = await get(session, game_id, lock=True)
    if row is None:
        return None
    old, row.ping_message_id = row.ping_message_id, message_id
    await session.flush()
    return old if old != message_id else None


async def forget(session: AsyncSession, game_id: int) -> None:
    """The game ended: its row goes (its table message stays as the result)."""
    await session.execute(delete(LiveTableState).where(LiveTableState.game_id == game_id))
