"""Games, seats and the action log.

Every function takes an open :class:`~sqlalchemy.ext.asyncio.AsyncSession` and leaves committing to the
caller (the table service writes the action and the snapshot in one transaction).
"""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from sqlalchemy import (
    Row,
    Select,
    Text,
    Update,
    bindparam,
    case,
    cast,
    false,
    func,
    insert,
    or_,
    select,
    type_coerce,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.types import NullType

from bot.db.models import ACTIVE_STATUSES, Game, GameAction, Seat
from bot.db.repos import outbox
from games.core import HOST_SEAT


async def get_game(session: AsyncSession, game_id: int) -> Game | None:
    return await session.get(Game, game_id)


# The statements every move runs are built once, on the tables (SQLAlchemy Core: rows, no identity map, no flush),
# with their values as bound parameters, so each execution reuses one compiled form and builds nothing: a Core
# statement built per call costs about twice the CPU of one built once (README, "The move pipeline").
_GAMES, _SEATS, _ACTIONS = Game.__table__, Seat.__table__, GameAction.__table__


class SeatRow(NamedTuple):
    """A seat as :func:`game_with_seats` reads it (the columns of :class:`bot.db.models.Seat` a table needs)."""

    seat: int
    user_id: int | None
    names: list[str]
    dm_ok: bool
    away: bool
    dm_notice_due: bool


_SEAT_COLUMNS = [_SEATS.c[name] for name in SeatRow._fields]
# A game joined to its seats repeats the game's columns on every seat's row, and SQLAlchemy (or asyncpg, for JSON)
# would turn each into Python on each: the state decoded once per seat was the read's largest cost, and the game's
# dates parsed once per seat came next. So the game's columns are selected raw (no result type: the driver's value;
# the JSON as its text, ``CAST(... AS TEXT)``, so that asyncpg does not decode it either) and :func:`_game_row`
# turns the first row's into Python, as the columns' own types would.
_JSON_COLUMNS = ("options", "state", "outcome")
_GAME_COLUMNS = [cast(column, Text).label(column.name) if column.name in _JSON_COLUMNS
                 else type_coerce(column, NullType()).label(column.name) for column in _GAMES.c]
GameRow = namedtuple("GameRow", [column.name for column in _GAMES.c])  # type: ignore[misc]
GameRow.__doc__ = """A game as :func:`game_with_seats` reads it: the columns of :class:`bot.db.models.Game` as
attributes, as their types give them (the JSON ``options``, ``state`` and ``outcome`` decoded); not an ORM object."""
#: per database dialect, the game's columns that need turning into Python: (index, the column type's processor)
_processors: WeakKeyDictionary[Dialect, list[tuple[int, Callable[[Any], Any]]]] = WeakKeyDictionary()


def _decoded(value: Any) -> Any:
    return None if value is None else json.loads(value)  # (SQLAlchemy's JSON type: json.loads, NULL stays None)


def _game_row(session: AsyncSession, row: Row[Any]) -> Any:
    """The :data:`GameRow` of a row of :func:`_with_seats` (its first columns, raw), each value as its column's type
    makes it on ``session``'s database (the JSON text decoded)."""
    dialect = session.bind.dialect if session.bind is not None else session.get_bind().dialect
    processors = _processors.get(dialect)
    if processors is None:
        found = ((index, _decoded if column.name in _JSON_COLUMNS
                  else column.type._cached_result_processor(dialect, None)) for index, column in enumerate(_GAMES.c))
        processors = _processors[dialect] = [(index, process) for index, process in found if process is not None]
    values = list(row[:len(_GAME_COLUMNS)])
    for index, process in processors:
        values[index] = process(values[index])
    return GameRow(*values)


def _with_seats() -> Select[Any]:
    """The games joined to their seats (LEFT JOIN: a game without seats is one row with NULL seat columns): the
    game's columns (:data:`_GAME_COLUMNS`), then the seat's (``seat_``-prefixed)."""
    return (select(*_GAME_COLUMNS, *(column.label(f"seat_{column.name}") for column in _SEAT_COLUMNS))
            .outerjoin(_SEATS, _SEATS.c.game_id == _GAMES.c.id))


_GAME_WITH_SEATS = _with_seats().where(_GAMES.c.id == bindparam("game_id")).order_by(_SEATS.c.seat)


async def game_with_seats(session: AsyncSession, game_id: int) -> tuple[Any, list[SeatRow]] | None:
    """A game's :data:`GameRow` and its seats ordered by seat number, read in one statement (a LEFT JOIN; the
    game's columns, its JSON and dates, made Python once, not once per seat); None when there is no such game."""
    rows = (await session.execute(_GAME_WITH_SEATS, {"game_id": game_id})).all()
    if not rows:
        return None
    width = len(_SEAT_COLUMNS)
    return _game_row(session, rows[0]), [SeatRow(*row[-width:]) for row in rows if row[-width] is not None]


# Lists of games, each a statement that selects the games (``Game`` rows, oldest first unless said): read as ORM
# objects by the functions below, or with their seats in one statement by :func:`games_with_seats` (what the table
# service lists).
def active_game_in_channel_stmt(channel_id: int) -> Select[tuple[Game]]:
    """The lobby or running game of a channel (the newest, should there be several)."""
    return (select(Game).where(Game.channel_id == channel_id, Game.status.in_(ACTIVE_STATUSES))
            .order_by(Game.id.desc()).limit(1))


def lobbies_without_message_stmt() -> Select[tuple[Game]]:
    """Open lobbies whose message was never recorded (the bot stopped between the two)."""
    return select(Game).where(Game.status == "lobby", Game.lobby_message_id.is_(None)).order_by(Game.id)


def active_games_of_guild_stmt(guild_id: int) -> Select[tuple[Game]]:
    """The lobbies and running games of a server."""
    return select(Game).where(Game.guild_id == guild_id, Game.status.in_(ACTIVE_STATUSES)).order_by(Game.id)


def open_games_stmt(*, channel_id: int | None = None, guild_id: int | None = None) -> Select[tuple[Game]]:
    """The games not over yet (booked, lobbies, running: statuses ``scheduled``, ``lobby``, ``active``) of
    ``channel_id`` and/or ``guild_id`` (neither: of every server)."""
    stmt = select(Game).where(Game.status.in_(("scheduled", *ACTIVE_STATUSES)))
    if channel_id is not None:
        stmt = stmt.where(Game.channel_id == channel_id)
    if guild_id is not None:
        stmt = stmt.where(Game.guild_id == guild_id)
    return stmt.order_by(Game.id)


def running_games_with_ai_stmt() -> Select[tuple[Game]]:
    """Running games with at least one computer player (a seat without a user, or one its player is away from)."""
    has_ai = select(Seat.id).where(Seat.game_id == Game.id, or_(Seat.user_id.is_(None), Seat.away)).exists()
    return select(Game).where(Game.status == "active", has_ai).order_by(Game.id)


def active_games_of_user_stmt(user_id: int) -> Select[tuple[Game]]:
    """Lobbies and running games where ``user_id`` holds a seat."""
    return (select(Game).join(Seat, Seat.game_id == Game.id)
            .where(Seat.user_id == user_id, Game.status.in_(ACTIVE_STATUSES)).order_by(Game.id))


async def active_game_in_channel(session: AsyncSession, channel_id: int) -> Game | None:
    """See :func:`active_game_in_channel_stmt`."""
    return (await session.scalars(active_game_in_channel_stmt(channel_id))).first()


async def active_games_of_guild(session: AsyncSession, guild_id: int) -> Sequence[Game]:
    """See :func:`active_games_of_guild_stmt`."""
    return (await session.scalars(active_games_of_guild_stmt(guild_id))).all()


async def active_games_of_user(session: AsyncSession, user_id: int) -> Sequence[Game]:
    """See :func:`active_games_of_user_stmt`."""
    return (await session.scalars(active_games_of_user_stmt(user_id))).all()


async def games_with_seats(session: AsyncSession, games: Select[tuple[Game]]) -> list[tuple[Any, list[SeatRow]]]:
    """The games ``games`` selects (one of the ``*_stmt`` lists above), each as :func:`game_with_seats` reads one,
    oldest first, in one statement (the games joined to their seats) instead of one read of seats per game."""
    ids = games.with_only_columns(Game.id).correlate(None)  # (its ORDER BY kept: it may have a LIMIT)
    stmt = _with_seats().where(_GAMES.c.id.in_(ids)).order_by(_GAMES.c.id, _SEATS.c.seat)
    found: dict[int, tuple[Any, list[SeatRow]]] = {}
    width = len(_SEAT_COLUMNS)
    for row in (await session.execute(stmt)).all():
        seen = found.get(row.id)
        if seen is None:
            seen = found[row.id] = (_game_row(session, row), [])
        if row[-width] is not None:
            seen[1].append(SeatRow(*row[-width:]))
    return list(found.values())


async def latest_guild_of_user(session: AsyncSession, user_id: int) -> int | None:
    """The server (guild id) of the newest game, of any status, where ``user_id`` holds a seat; ``None`` if
    they never held one."""
    stmt = (select(Game.guild_id).join(Seat, Seat.game_id == Game.id).where(Seat.user_id == user_id)
            .order_by(Game.id.desc()).limit(1))
    return await session.scalar(stmt)


async def seats_of(session: AsyncSession, game_id: int) -> Sequence[Seat]:
    """The seats of a game ordered by seat number."""
    return (await session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))).all()


async def add_seat(session: AsyncSession, game_id: int, user_id: int | None, names: list[str], at: datetime) -> None:
    """Seat ``user_id`` (None: a computer player) after the last seat (numbered by the ``INSERT`` itself: one
    statement). Violates ``uq_seats_game_id_user_id`` if that user is already seated."""
    await session.execute(_ADD_SEAT, {"g": game_id, "v_user_id": user_id, "v_names": names, "v_joined_at": at})


_ADD_SEAT = insert(_SEATS).values(
    game_id=bindparam("g"),
    seat=select(func.count()).select_from(_SEATS).where(_SEATS.c.game_id == bindparam("g")).scalar_subquery(),
    **{name: bindparam(f"v_{name}") for name in ("user_id", "names", "joined_at")})


async def remove_seat(session: AsyncSession, game_id: int, user_id: int | None = None, *,
                      seat: int | None = None) -> bool:
    """Remove the seat of ``user_id`` (or seat number ``seat``) and close the gap (seats after it move down one,
    in ascending order so the unique ``(game_id, seat)`` constraint holds at every step). False when there is no
    such seat."""
    seats = list(await seats_of(session, game_id))
    leaving = next((s for s in seats if (s.seat == seat if seat is not None else
                                         s.user_id is not None and s.user_id == user_id)), None)
    if leaving is None:
        return False
    await session.delete(leaving)
    await session.flush()
    for other in seats:
        if other.seat > leaving.seat:
            other.seat -= 1
            await session.flush()
    return True


async def dm_refused(session: AsyncSession, game_id: int, user_id: int, *, closed: bool) -> None:
    """A DM to a player failed (``closed``: Discord refused it, the player's DMs are closed, so ``dm_ok`` becomes
    False): the channel is to be told with the next public step, unless it was told already (``dm_ok`` was already
    False)."""
    # both SET expressions read the row as it was before this UPDATE (PostgreSQL and SQLite)
    stmt = (update(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
            .values(dm_notice_due=or_(Seat.dm_notice_due, Seat.dm_ok), dm_ok=false() if closed else Seat.dm_ok))
    await session.execute(stmt)


async def dm_notices_due(session: AsyncSession, game_id: int) -> list[int]:
    """The seats of ``game_id`` whose failed DMs the channel has not been told about, in seat order."""
    stmt = select(Seat.seat).where(Seat.game_id == game_id, Seat.dm_notice_due).order_by(Seat.seat)
    return list((await session.scalars(stmt)).all())


async def dm_notices_said(session: AsyncSession, game_id: int, seats: Sequence[int]) -> None:
    """The channel was told about the failed DMs of ``seats``."""
    await session.execute(update(Seat).where(Seat.game_id == game_id, Seat.seat.in_(seats))
                          .values(dm_notice_due=False))


async def bump_version(session: AsyncSession, game_id: int, expected: int, *,
                       messages: tuple[int | None, int | None] | None = None, **values: Any) -> bool:
    """``UPDATE games SET version = expected + 1, **values WHERE id = game_id AND version = expected``.

    The optimistic guard shared by every writer, in-process or not: False when another writer got there first
    (the caller must roll back). ``messages``: ``(lobby_message_id, table_message_id)`` the row must also still
    have (they change without a version bump), for a writer that read the game before its transaction."""
    result = await session.execute(_bump(tuple(sorted(values)), messages is not None, False),
                                   _bump_params(game_id, expected, messages, values))
    return result.rowcount == 1  # type: ignore[attr-defined]


async def bump_and_claim(session: AsyncSession, game_id: int, expected: int, lease: tuple[str, datetime, datetime], *,
                         messages: tuple[int | None, int | None] | None = None, **values: Any) -> outbox.Claim | None:
    """:func:`bump_version` for a step that the caller's transaction records in the outbox, taking the game's
    delivery lease in the same statement (``lease``: ``(owner, now, until)``; taken when it is free or the owner's
    already, :func:`bot.db.repos.outbox.claim_values`): the claim (``won`` False: another process holds it), or None
    when another writer got there first (roll back). A ``shown`` digest among ``values`` is written only while the
    lease's owner is still ``lease[0]`` (what a held mark would have written giving the lease back:
    :mod:`bot.tables.marks`)."""
    params = _bump_params(game_id, expected, messages, values) | outbox.claim_params(*lease)
    row = (await session.execute(_bump(tuple(sorted(values)), messages is not None, True), params)).first()
    return None if row is None else outbox.claimed(game_id, lease[0], row)


def _bump_params(game_id: int, expected: int, messages: tuple[int | None, int | None] | None,
                 values: dict[str, Any]) -> dict[str, Any]:
    params = {f"v_{name}": value for name, value in values.items()}
    params |= {"game_id": game_id, "expected": expected, "v_version": expected + 1}
    if messages is not None:
        params |= {"lobby_was": messages[0], "table_was": messages[1]}
    return params


@cache
def _bump(columns: tuple[str, ...], guarded: bool, claim: bool) -> Update:
    """:func:`bump_version`'s statement setting ``columns`` (and the version), built once per set of columns; its
    parameters: ``game_id``, ``expected``, ``v_<column>`` (and ``lobby_was``, ``table_was`` when ``guarded``; and
    the lease's, :func:`bot.db.repos.outbox.claim_params`, with ``claim``)."""
    game_id = bindparam("game_id", type_=_GAMES.c.id.type)
    stmt = update(_GAMES).where(_GAMES.c.id == game_id, _GAMES.c.version == bindparam("expected"))
    if guarded:
        stmt = stmt.where(_GAMES.c.lobby_message_id.is_not_distinct_from(bindparam("lobby_was")),
                          _GAMES.c.table_message_id.is_not_distinct_from(bindparam("table_was")))
    stmt = stmt.values({name: bindparam(f"v_{name}") for name in ("version", *columns)})
    if claim and "shown" in columns:  # (the digest a held mark records, while the lease is still the claimer's)
        stmt = stmt.values(shown=case((_GAMES.c.lease_owner == bindparam("holder", type_=_GAMES.c.lease_owner.type),
                                       bindparam("v_shown")), else_=_GAMES.c.shown))
    if claim:
        stmt = stmt.values(outbox.claim_values()).returning(*outbox.claim_returning(game_id))
    return stmt


async def append_action(session: AsyncSession, game_id: int, seat: int, user_id: int | None,
                        action: dict[str, Any], at: datetime, *, timed_out: bool = False) -> None:
    """Append to the log with the next ``seq`` (from 1), worked out inside the one ``INSERT`` statement. Call after
    :func:`bump_version` succeeded: the guard serialises writers, and ``uq_game_actions_game_id_seq`` backs it
    up."""
    await session.execute(_APPEND, {"g": game_id, "v_seat": seat, "v_user_id": user_id, "v_action": action,
                                    "v_at": at, "v_timed_out": timed_out})


_APPEND = insert(_ACTIONS).values(
    game_id=bindparam("g"),
    seq=(select(func.coalesce(func.max(_ACTIONS.c.seq), 0) + 1).where(_ACTIONS.c.game_id == bindparam("g"))
         .scalar_subquery()),
    **{name: bindparam(f"v_{name}") for name in ("seat", "user_id", "action", "at", "timed_out")})


#: how many of the host's actions :func:`timeouts_in_a_row` reads past (its pauses and resumes between timeouts)
HOST_ACTIONS_LOOKED_PAST = 20


async def timeouts_in_a_row(session: AsyncSession, game_id: int, seat: int, limit: int) -> int:
    """How many of ``seat``'s latest logged moves (at most ``limit``) were the bot's after its time ran out, counting
    back to its last move of any other kind (its own, a computer's, taking the seat back) or to the host's handing
    the seat to someone else (a newcomer does not inherit the timeouts of the seat's former holder)."""
    stmt = (select(GameAction.seat, GameAction.timed_out, GameAction.action)
            .where(GameAction.game_id == game_id, GameAction.seat.in_([seat, HOST_SEAT]))
            .order_by(GameAction.seq.desc()).limit(limit + HOST_ACTIONS_LOOKED_PAST))
    count = 0
    for by, timed_out, action in await session.execute(stmt):
        if by == HOST_SEAT:  # the host's pause, resume or replacement: only a replacement of this seat ends the run
            if action.get("type") == "seat_replaced" and action.get("seat") == seat:
                break
            continue
        if not timed_out or count == limit:
            break
        count += 1
    return count


async def actions_of(session: AsyncSession, game_id: int) -> Sequence[GameAction]:
    """The action log of a game in ``seq`` order."""
    stmt = select(GameAction).where(GameAction.game_id == game_id).order_by(GameAction.seq)
    return (await session.scalars(stmt)).all()
