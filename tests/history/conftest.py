"""History fixtures: the store tests' database backends, and finished games of every registered mode stored as the
table service stores them (the moves of :func:`bot.simulate.driver.play`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game as GameRow
from bot.db.repos import games
from bot.simulate.driver import Game, play
from games.core import all_games, get_engine
from tests.db.backends import db_url, engine, pg_database, sessions

__all__ = ["db_url", "engine", "pg_database", "sessions", "every_mode", "store_game", "GUILD"]

GUILD = 900
START = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


def every_mode() -> list[tuple[str, str, int]]:
    """``(game, mode, players)`` for every mode the bot ships (``games/``; not a test game another test
    registered), at its smallest table."""
    return [(g.id, m.id, m.min_players) for g in all_games() for m in g.modes
            if type(get_engine(g.id, m.id)).__module__.startswith("games.")]


async def store_game(sessions: async_sessionmaker[AsyncSession], game: str, mode: str, players: int, seed: int,
                     *, guild_id: int = GUILD, channel_id: int = 1) -> tuple[int, Game]:
    """Play ``game``/``mode`` with the simulator and store it finished, as the table service leaves a game (the
    row with its seed, options, final snapshot and outcome, the seats, every action with its seat, time and
    timed-out mark), in one transaction: the stored game's id and the simulated game."""
    played = play(game, mode, players, seed)
    engine = played.engine
    outcome = engine.outcome(played.state)
    assert outcome is not None
    end = START + timedelta(minutes=len(played.moves) + 1)
    async with sessions() as session, session.begin():
        row = GameRow(game=game, mode=mode, guild_id=guild_id, channel_id=channel_id, host_id=101, status="finished",
                   seed=seed, options=played.options.model_dump(mode="json"), state=engine.dump_state(played.state),
                   version=len(played.moves) + 1, language="en", created_at=START, updated_at=end, started_at=START,
                   finished_at=end, outcome=outcome.model_dump(mode="json"))
        session.add(row)
        await session.flush()
        for i, info in enumerate(played.seats):
            await games.add_seat(session, row.id, 101 + i, list(info.names), START)
        for i, move in enumerate(played.moves, start=1):
            await games.append_action(session, row.id, move.seat, None, move.action, START + timedelta(minutes=i),
                                      timed_out=move.timed_out)
        return row.id, played
