"""Series, scores and achievements: what a finished game leaves behind, and the leaderboards over it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy import Integer, cast, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Achievement, Score, Series
from games.core import Outcome


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard: total points, games won and games played."""

    user_id: int
    points: float
    wins: int
    games: int


async def create_series(session: AsyncSession, guild_id: int, channel_id: int, game: str, mode: str,
                        rounds_total: int, at: datetime) -> Series:
    """Start a series of ``rounds_total`` games (>= 1). Raises ``ValueError`` otherwise."""
    if rounds_total < 1:
        raise ValueError(f"a series needs at least one round, not {rounds_total}")
    series = Series(guild_id=guild_id, channel_id=channel_id, game=game, mode=mode, rounds_total=rounds_total,
                    rounds_played=0, status="active", created_at=at)
    session.add(series)
    await session.flush()
    return series


class _Game(Protocol):
    id: int
    guild_id: int
    game: str
    mode: str
    series_id: int | None


class _Seat(Protocol):
    seat: int
    user_id: int | None


async def record_outcome(session: AsyncSession, game: _Game, seats: Sequence[_Seat], outcome: Outcome,
                         at: datetime) -> list[Score]:
    """Write for ``game`` (its ORM object, its row, or the table: anything with its ``id``, ``guild_id``, ``game``,
    ``mode`` and ``series_id``) one score row per person's seat (``seats``: anything with ``seat`` and ``user_id``;
    AI seats are never scored; ``outcome.scores``, 0 for a seat it leaves out; ``won`` = seat among
    ``outcome.winners``), all in one ``INSERT``, and the achievements of ``outcome.achievements``. In a series the
    game is the next round: ``rounds_played`` goes up and the series finishes after its last round. Returns the
    score rows written (not in the session)."""
    round_no: int | None = None
    if game.series_id is not None:
        series = await session.get(Series, game.series_id)
        if series is not None:
            series.rounds_played += 1
            round_no = series.rounds_played
            if series.rounds_played >= series.rounds_total:
                series.status = "finished"
    winners = set(outcome.winners)
    seats = [seat for seat in seats if seat.user_id is not None]  # computer players are never scored
    rows = [Score(guild_id=game.guild_id, game=game.game, mode=game.mode, series_id=game.series_id, game_id=game.id,
                  user_id=seat.user_id, seat=seat.seat, round=round_no,
                  points=float(outcome.scores.get(seat.seat, 0.0)), won=seat.seat in winners, at=at)
            for seat in seats]
    users = {seat.seat: seat.user_id for seat in seats}
    if rows:  # (one executemany: one statement, whatever the seats)
        await session.execute(insert(Score), [{c: getattr(r, c) for c in _SCORE_COLUMNS} for r in rows])
    # a ``once`` achievement was claimed already (:func:`award_once`): its row stays, this one is skipped
    await _insert_new(session, [{"guild_id": game.guild_id, "user_id": users[seat], "game": game.game,
                                 "achievement": name, "game_id": game.id, "at": at, "once": False}
                                for seat, names in outcome.achievements.items() if seat in users
                                for name in dict.fromkeys(names)])
    await session.flush()
    return rows


_SCORE_COLUMNS = ("guild_id", "game", "mode", "series_id", "game_id", "user_id", "seat", "round", "points", "won", "at")


async def award_once(session: AsyncSession, guild_id: int, game: str, game_id: int, at: datetime,
                     claims: Sequence[tuple[int, str]]) -> set[tuple[int, str]]:
    """Claim the once-per-player achievements ``claims`` (``(user_id, achievement)``) for the game ``game_id``:
    the subset of them now held for it, leaving out those the user already holds in ``guild_id``/``game``, from an
    earlier game or from one that ended at the same moment (the ``uq_achievements_once`` index decides, on SQLite
    and PostgreSQL alike, so a race awards it once). Rolled back with the transaction that claims them."""
    return await _insert_new(session, [{"guild_id": guild_id, "user_id": user, "game": game, "achievement": name,
                                        "game_id": game_id, "at": at, "once": True}
                                       for user, name in dict.fromkeys(claims)])


async def _insert_new(session: AsyncSession, rows: list[dict[str, object]]) -> set[tuple[int, str]]:
    """Insert the achievement ``rows``, skipping those a unique constraint already holds (insert-or-ignore);
    returns ``(user_id, achievement)`` of the rows inserted."""
    if not rows:
        return set()
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    stmt = (dialect.insert(Achievement).values(rows).on_conflict_do_nothing()
            .returning(Achievement.user_id, Achievement.achievement))
    return {(user, name) for user, name in (await session.execute(stmt)).all()}


async def leaderboard(session: AsyncSession, guild_id: int, game: str, *, mode: str | None = None,
                      series_id: int | None = None, limit: int | None = 10) -> list[Standing]:
    """Standings of a guild in one game (all time, or within ``series_id``; optionally one ``mode``), by points
    then wins, then fewer games played: the first ``limit`` (None: all)."""
    points = func.sum(Score.points)
    wins = func.sum(cast(Score.won, Integer))
    played = func.count(Score.id)
    stmt = select(Score.user_id, points, wins, played).where(Score.guild_id == guild_id, Score.game == game)
    if mode is not None:
        stmt = stmt.where(Score.mode == mode)
    if series_id is not None:
        stmt = stmt.where(Score.series_id == series_id)
    stmt = stmt.group_by(Score.user_id).order_by(points.desc(), wins.desc(), played, Score.user_id).limit(limit)
    rows = await session.execute(stmt)
    return [Standing(user_id=u, points=float(p), wins=int(w), games=int(g)) for u, p, w, g in rows]


@dataclass(frozen=True, slots=True)
class SeriesRounds:
    """A series' progress and its points per round: ``points[round][user_id]`` (rounds count from 1); ``seats``:
    where each player scored was last seated, ``user_id -> (game id, seat)`` (what names them, also when they did
    not sit the latest round)."""

    series_id: int
    rounds_played: int
    rounds_total: int
    points: dict[int, dict[int, float]]
    seats: dict[int, tuple[int, int]]


async def series_rounds(session: AsyncSession, series_id: int) -> SeriesRounds | None:
    """The rounds played so far with every player's points in each (``None`` for an unknown series)."""
    series = await session.get(Series, series_id)
    if series is None:
        return None
    rows = (await session.scalars(select(Score).where(Score.series_id == series_id)
                                  .order_by(Score.round, Score.id))).all()
    points: dict[int, dict[int, float]] = {}
    seats: dict[int, tuple[int, int]] = {}
    for row in rows:  # by round: a later round's seat replaces an earlier one's
        points.setdefault(row.round or 0, {})[row.user_id] = row.points
        seats[row.user_id] = (row.game_id, row.seat)
    return SeriesRounds(series.id, series.rounds_played, series.rounds_total, points, seats)


async def achievements_of(session: AsyncSession, guild_id: int, user_id: int) -> Sequence[Achievement]:
    stmt = (select(Achievement).where(Achievement.guild_id == guild_id, Achievement.user_id == user_id)
            .order_by(Achievement.at, Achievement.id))
    return (await session.scalars(stmt)).all()
