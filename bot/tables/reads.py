"""Read-only queries of :class:`bot.tables.service.TableService`: the tables of a channel, a user, a server, the
running games with computer players, the leaderboards. Each is one short read-only session; none takes a game's
lock."""

from __future__ import annotations

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game, Series
from bot.db.repos import games, scores
from bot.tables.model import Table, to_table
from bot.tables.seats import held_another_seat


class ReadsMixin:
    """The read-only queries of :class:`bot.tables.service.TableService` (which provides the sessionmaker)."""

    _sessions: async_sessionmaker[AsyncSession]

    async def _tables(self, listed: Select[tuple[Game]]) -> list[Table]:
        """The tables of the games ``listed`` selects (a ``bot.db.repos.games.*_stmt``), read with their seats in
        one statement."""
        async with self._sessions() as session:
            return [to_table(*found) for found in await games.games_with_seats(session, listed)]

    async def table_in_channel(self, channel_id: int) -> Table | None:
        """The lobby or running game of a channel, if any."""
        found = await self._tables(games.active_game_in_channel_stmt(channel_id))
        return found[0] if found else None

    async def tables_of_user(self, user_id: int) -> list[Table]:
        """Lobbies and running games where ``user_id`` is seated (DM commands pick among these)."""
        return await self._tables(games.active_games_of_user_stmt(user_id))

    async def latest_guild_of_user(self, user_id: int) -> int | None:
        """The server of the newest game (of any status) ``user_id`` was seated in, ``None`` if none."""
        async with self._sessions() as session:
            return await games.latest_guild_of_user(session, user_id)

    async def running_with_ai(self) -> list[Table]:
        """Running games with at least one computer player."""
        return await self._tables(games.running_games_with_ai_stmt())

    async def lobbies_without_message(self) -> list[Table]:
        """Open lobbies whose message was never recorded (to post it at start)."""
        return await self._tables(games.lobbies_without_message_stmt())

    async def open_tables(self, *, channel_id: int | None = None, guild_id: int | None = None) -> list[Table]:
        """The games not over yet (booked, lobbies, running) of ``channel_id`` and/or ``guild_id`` (neither: of
        every server), oldest first."""
        return await self._tables(games.open_games_stmt(channel_id=channel_id, guild_id=guild_id))

    async def tables_in_guild(self, guild_id: int) -> list[Table]:
        return await self._tables(games.active_games_of_guild_stmt(guild_id))

    async def leaderboard(self, guild_id: int, game: str, *, mode: str | None = None, series_id: int | None = None,
                          limit: int | None = 10) -> list[scores.Standing]:
        """See :func:`bot.db.repos.scores.leaderboard` (``limit=None``: every player)."""
        async with self._sessions() as session:
            return await scores.leaderboard(session, guild_id, game, mode=mode, series_id=series_id, limit=limit)

    async def held_another_seat(self, game_id: int, user_id: int, seat: int) -> bool:
        """See :func:`bot.tables.seats.held_another_seat`."""
        async with self._sessions() as session:
            return await held_another_seat(session, game_id, user_id, seat)

    async def series_place(self, series_id: int) -> tuple[int, int] | None:
        """The server and the channel (ids) series ``series_id`` is played in; None when there is no such series."""
        async with self._sessions() as session:
            series = await session.get(Series, series_id)
            return None if series is None else (series.guild_id, series.channel_id)

    async def series_rounds(self, series_id: int) -> scores.SeriesRounds | None:
        """See :func:`bot.db.repos.scores.series_rounds`."""
        async with self._sessions() as session:
            return await scores.series_rounds(session, series_id)
