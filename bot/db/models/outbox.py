"""The outbox: what a committed step must still show, written in the step's own transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow


class OutboxEntry(Base):
    """One committed step to deliver: the game, the table version the step produced, what kind of step it was
    (``start`` deals the game, ``act`` is a move), its events (as JSON, in order) and the timers it armed
    (``[{"kind", "due_at"}]``, for deadlines shown in messages).

    ``delivered_at`` is set once the deliverer has shown it; ``attempts`` counts failed deliveries (a step that
    keeps failing is given up after a few, so it never blocks the game's later steps). ``sent`` records the messages
    a delivery of the step created (``{nonce: message id}``, None: none recorded), so a delivery resumed after a
    crash, however late, creates only the ones not yet created (:meth:`bot.tables.outbox.StepInfo.created`)."""

    __tablename__ = "outbox"
    __table_args__ = (Index(None, "delivered_at", "game_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8), default="act")
    events: Mapped[list[Any]]
    timers: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    delivered_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent: Mapped[dict[str, Any] | None]

