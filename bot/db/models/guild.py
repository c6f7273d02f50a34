"""Per-guild settings: one row per guild, one column per setting of :class:`bot.guild_config.GuildConfig`.

Defaults live in ``GuildConfig`` only: a row is always written from a fully validated config, so the columns
carry no server defaults of their own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow


class GuildSettings(Base):
    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    language: Mapped[str] = mapped_column(String(8))
    medium_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    game_channel_ids: Mapped[list[Any]]
    day_length_minutes: Mapped[int] = mapped_column(Integer)
    day_boundary: Mapped[str] = mapped_column(String(5))
    timezone: Mapped[str] = mapped_column(String(64))
    turn_timeout_seconds: Mapped[int] = mapped_column(Integer)
    response_window_seconds: Mapped[int] = mapped_column(Integer)
    lobby_timeout_minutes: Mapped[int] = mapped_column(Integer)
    prompt_timeout_seconds: Mapped[int] = mapped_column(Integer)
    dead_role_id: Mapped[int | None] = mapped_column(BigInteger)
    lobby_role_id: Mapped[int | None] = mapped_column(BigInteger)
    table_repost_after: Mapped[int] = mapped_column(Integer)
    turn_ping_seconds: Mapped[int] = mapped_column(Integer)
    social_max_days: Mapped[int] = mapped_column(Integer)
    timeouts_to_computer: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
