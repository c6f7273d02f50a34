"""History fixtures: the store tests' database backends, and finished games of every registered mode stored
through the table service exactly as the bot stores them (the moves of :func:`bot.simulate.driver.play`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.simulate.driver import Game, play
from bot.tables import TableService
from games.core import all_games
from tests.db.backends import db_url, engine, pg_database, sessions

__all__ = ["db_url", "engine", "pg_database", "sessions", "every_mode", "store_game", "GUILD"]

GUILD = 900
START = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


def every_mode() -> list[tuple[str, str, int]]:
    """``(game, mode, players)`` for every registered mode, at its smallest table."""
    return [(g.id, m.id, m.min_players) for g in all_games() for m in g.modes]


class Clock:
    """The service's clock: one minute per call, so every logged action has its own time."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        self.at += timedelta(minutes=1)
        return self.at


async def store_game(sessions: async_sessionmaker[AsyncSession], game: str, mode: str, players: int, seed: int,
                     *, guild_id: int = GUILD, channel_id: int = 1) -> tuple[int, Game]:
    """Play ``game``/``mode`` with the simulator and store it through the table service (lobby, joins, start with
    ``seed``, every move with its seat, timed-out moves marked): the stored game's id and the simulated game."""
    played = play(game, mode, players, seed)
    service = TableService(sessions, clock=Clock())
    options = played.options.model_dump(mode="json")
    table = await service.open_lobby(guild_id, channel_id, 101, game, mode, options,
                                     host_names=list(played.seats[0].names))
    for i, info in enumerate(played.seats[1:], start=2):
        await service.join(table.id, 100 + i, list(info.names))
    await service.start(table.id, 101, seed=seed)
    for move in played.moves:
        await service.act_as_seat(table.id, move.seat, move.action, timed_out=move.timed_out)
    return table.id, played
