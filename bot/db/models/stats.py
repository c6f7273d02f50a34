"""Multi-round series, per-game scores and achievements (the leaderboards read these)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow

SERIES_STATUSES: tuple[str, ...] = ("active", "finished", "cancelled")


class Series(Base):
    """A run of ``rounds_total`` games of one game and mode in one channel, scored together."""

    __tablename__ = "series"
    __table_args__ = (CheckConstraint("status IN ('active', 'finished', 'cancelled')", name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    rounds_total: Mapped[int] = mapped_column(Integer)
    rounds_played: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Score(Base):
    """One seat's result in one finished game. ``round`` is the game's round in its series (None outside one)."""

    __tablename__ = "scores"
    __table_args__ = (UniqueConstraint("game_id", "user_id"), Index(None, "guild_id", "game", "mode"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    series_id: Mapped[int | None] = mapped_column(ForeignKey("series.id", ondelete="SET NULL"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    seat: Mapped[int] = mapped_column(Integer)
    round: Mapped[int | None] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Double)
    won: Mapped[bool]
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Achievement(Base):
    """An achievement a user earned in a game (from :attr:`games.core.Outcome.achievements`). ``once``: one the
    achievement book marks ``once`` (the first win as the Killer...), which a user holds at most once per server and
    game: a partial unique index keeps two games ending at the same moment from both awarding it."""

    __tablename__ = "achievements"
    __table_args__ = (UniqueConstraint("game_id", "user_id", "achievement"), Index(None, "guild_id", "user_id"),
                      Index("uq_achievements_once", "guild_id", "game", "user_id", "achievement", unique=True,
                            sqlite_where=text("once"), postgresql_where=text("once")))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    achievement: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    once: Mapped[bool] = mapped_column(Boolean, default=False)
