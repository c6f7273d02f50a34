"""The living table's state: which message is a running game's table, how far the channel has scrolled past it,
its "last moves" log and its turn ping (see :mod:`bot.live_table`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow


class LiveTableState(Base):
    """One running game's table message (``message_id`` in ``channel_id``) and what belongs to it, shared by every
    bot process: ``messages_after`` counts the messages posted in the channel after it (MESSAGE_CREATE, counted by
    whichever process receives the channel's events), ``log`` holds the public lines of its last steps
    (``[{"step": outbox id or None, "lines": [str]}]``, oldest first, rendered in the game's language),
    ``ping_message_id`` is the turn ping in the channel (at most one). The row goes when the game ends."""

    __tablename__ = "live_tables"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    channel_id: Mapped[int] = mapped_column(BigInteger, index=True)
    message_id: Mapped[int] = mapped_column(BigInteger)
    messages_after: Mapped[int] = mapped_column(Integer, default=0)
    log: Mapped[list[Any]]
    ping_message_id: Mapped[int | None] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
