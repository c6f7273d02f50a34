"""Player-written text of the social mode: Farewell Letters and anonymous posts.

The author of an anonymous post is stored (for moderation) but never shown to players.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow


class FarewellLetter(Base):
    """The letter a seat leaves behind, revealed when they die (``revealed_at``). One per seat per game."""

    __tablename__ = "farewell_letters"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[str] = mapped_column(Text)
    written_at: Mapped[datetime] = mapped_column(default=utcnow)
    revealed_at: Mapped[datetime | None]


class AnonymousPost(Base):
    """A message the bot posted on a player's behalf without their name (``message_id`` once posted)."""

    __tablename__ = "anonymous_posts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(BigInteger)
    content: Mapped[str] = mapped_column(Text)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    posted_at: Mapped[datetime] = mapped_column(default=utcnow)
