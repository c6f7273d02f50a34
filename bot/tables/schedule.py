"""Scheduled lobbies (``/newgame ... starts_in:``): a lobby booked now that opens, once, at a later time.

A scheduled lobby is a ``games`` row with status ``scheduled`` (its host already seated, its options already
validated) and one ``lobby_open`` timer at the opening time. It holds no channel while it waits: the channel plays
on meanwhile. When the timer fires, :meth:`ScheduleMixin.open_scheduled` turns it into an ordinary lobby (status
``lobby``, its expiry timer armed, its series created when it has ``rounds``) under the game's lock and version
guard, so a timer run twice (a process that died before marking it fired) opens it once; a channel that has a
lobby or a game at that moment cancels it instead (the project's ruling, ``README.md`` "Scheduled lobbies"), and a
second booking of a channel that would open while the first one's lobby is still open is refused. The
timer is persisted, so a restart neither loses nor repeats the opening: a time missed while the bot was down
opens the lobby as soon as it is back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game
from bot.db.repos import games, scores, timers
from bot.locks import KeyedLocks
from bot.tables.model import LOBBY_EXPIRE, Table, TableError, to_table
from bot.tables.options import validate_options, validate_rounds

#: the timer that opens a scheduled lobby
LOBBY_OPEN = "lobby_open"
#: the advisory lock space (PostgreSQL's two-key form) of a channel's bookings, "bk" in ASCII
BOOKING_LOCKS = 0x626B
#: what :meth:`ScheduleMixin.open_scheduled` did: opened it now, cancelled it (its channel was busy), or nothing
#: (opened or cancelled before: a repeated timer)
Opening = Literal["opened", "busy", "done"]


class BookingClash(TableError):
    """A booking opening too close to another of its channel (:meth:`ScheduleMixin.schedule_lobby`)."""

    def __init__(self, **params: Any) -> None:
        super().__init__("table.booking_clash", **params)


class ScheduleMixin:
    """Scheduled lobbies of :class:`bot.tables.service.TableService` (which provides the plumbing below)."""

    _sessions: async_sessionmaker[AsyncSession]
    _clock: Callable[[], datetime]
    locks: KeyedLocks

    if TYPE_CHECKING:
        def lock(self, game_id: int) -> asyncio.Lock: ...
        async def _read(self, session: AsyncSession, game_id: int) -> tuple[Game, Table]: ...
        async def _commit_guarded(self, session: AsyncSession, table: Table, **values: Any) -> None: ...
        async def load(self, game_id: int) -> Table: ...

    async def schedule_lobby(self, guild_id: int, channel_id: int, host_id: int, game: str, mode: str,
                             options: dict[str, Any], language: str, *, opens_at: datetime, host_names: list[str],
                             rounds: int | None = None, apart: timedelta = timedelta(0)) -> Table:
        """Book a lobby of ``game``/``mode`` in ``channel_id`` that opens at ``opens_at`` (aware), hosted and sat
        at by ``host_id``, in one transaction with its ``lobby_open`` timer (its payload carries ``rounds``, the
        series created when it opens). ``options`` and ``rounds`` are validated now, as :meth:`open_lobby` does.
        Two bookings of one channel open at least ``apart`` from each other (the server's lobby time: the first
        lobby would still hold the channel when the second came due, which would cancel it; README "Scheduled
        lobbies"); checked under a lock of the channel (an advisory lock across processes on PostgreSQL; on SQLite the
booking's first write waits for the other's transaction). Raises
        ``TableError``: ``table.unknown_game``, ``table.unknown_options``, ``table.option.*``,
        ``table.bad_options``, :class:`BookingClash` (``table.booking_clash``: ``game_id``, ``game``,
        ``host_id``, ``opens_at``, of the booking in the way)."""
        clean = validate_options(game, mode, options)
        rounds = None if rounds is None else validate_rounds(rounds)
        now = self._clock()
        async with self.locks(("booking", channel_id)), self._sessions() as session, session.begin():
            if session.get_bind().dialect.name == "postgresql":
                await session.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"),
                                      {"space": BOOKING_LOCKS, "key": channel_id % 2**31})
            row = Game(game=game, mode=mode, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                       status="scheduled", options=clean, version=0, language=language, created_at=now,
                       updated_at=now)
            session.add(row)
            await session.flush()  # written before the check: on SQLite it waits for a booking being written
            for other, due in await timers.booked_in_channel(session, channel_id, LOBBY_OPEN):
                if abs(due - opens_at) < apart:  # (the new row has no timer yet: it is not listed)
                    raise BookingClash(game_id=other.id, game=other.game, host_id=other.host_id, opens_at=due)
            await games.add_seat(session, row.id, host_id, host_names, now)
            await timers.schedule(session, row.id, LOBBY_OPEN, opens_at, {"rounds": rounds}, 0)
            return to_table(row, await games.seats_of(session, row.id))

    async def open_scheduled(self, game_id: int, expires_at: datetime,
                             rounds: int | None = None) -> tuple[Table, Opening]:
        """Open the scheduled lobby ``game_id`` now: status ``lobby``, its ``lobby_expire`` timer at
        ``expires_at`` and, with ``rounds``, a new points series whose first round it is; or, when its channel
        has a lobby or a running game, cancel it (``busy``). ``done`` (nothing changes) when it is not scheduled
        any more. Raises ``TableError("table.not_found")``; ``table.stale`` when another process opened it at the
        same moment."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            if table.status != "scheduled":
                return table, "done"
            outcome: Opening
            now = self._clock()
            if await games.active_game_in_channel(session, table.channel_id) is not None:
                await self._commit_guarded(session, table, status="cancelled", finished_at=now)
                await timers.disarm_game(session, game_id, now)
                outcome = "busy"
            else:
                series = (None if rounds is None else
                          (await scores.create_series(session, table.guild_id, table.channel_id, table.game,
                                                      table.mode, rounds, now)).id)
                await self._commit_guarded(session, table, status="lobby", series_id=series)
                await timers.schedule(session, game_id, LOBBY_EXPIRE, expires_at, {}, table.version + 1)
                outcome = "opened"
        return await self.load(game_id), outcome

    async def was_booked(self, game_id: int) -> bool:
        """Whether the lobby ``game_id`` was booked (opened by a ``lobby_open`` timer, fired or not) rather than
        opened by ``/newgame`` or a series' next round."""
        async with self._sessions() as session:
            return await timers.has_timer(session, game_id, LOBBY_OPEN)

    async def booked_in_channel(self, channel_id: int) -> list[tuple[Table, datetime]]:
        """The lobbies booked in ``channel_id`` that have not opened yet, each with its opening time, soonest
        first."""
        async with self._sessions() as session:
            rows = await timers.booked_in_channel(session, channel_id, LOBBY_OPEN)
            return [(to_table(row, await games.seats_of(session, row.id)), due) for row, due in rows]

    async def cancel_booked(self, game_id: int, by_user_id: int, *, is_manager: bool) -> Table:
        """Cancel a booked lobby before it opens (its timer disarmed): its host or a server manager only. Raises
        ``TableError``: ``table.host_or_manager``, ``table.not_active`` (opened or cancelled already)."""
        async with self.lock(game_id), self._sessions() as session, session.begin():
            _, table = await self._read(session, game_id)
            if table.status != "scheduled":
                raise TableError("table.not_active", game_id=game_id)
            if by_user_id != table.host_id and not is_manager:
                raise TableError("table.host_or_manager")
            now = self._clock()
            await self._commit_guarded(session, table, status="cancelled", finished_at=now)
            await timers.disarm_game(session, game_id, now)
        return await self.load(game_id)
