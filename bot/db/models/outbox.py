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


class DeliveryLease(Base):
    """Which process delivers a game's outbox (``owner``, a :class:`~bot.tables.outbox.Deliverer`'s id) and until
    when (``lease_until``; a delivery that ends sets it to its end): one process at a time works off a game's
    steps, so they are shown in commit order whichever process committed them. A lease that ran out (its process
    died) is taken over (see :func:`bot.db.repos.outbox.claim_game`).

    ``shown``: a digest of the public view the game's table last showed (whichever process showed it), so a step
    that changes nothing public shows nothing (:meth:`bot.tables.outbox.StepInfo.public_changed`).

    ``given_back``: its owner ended the lease (its delivery was over, or it stopped), so taking it is no takeover;
    ``taken_from``: the owner whose lease ran out without being given back when ``owner`` took the game (a process
    that died or hung; None: the lease was free, given back, or renewed), for ``coroner_lease_takeovers``."""

    __tablename__ = "delivery_leases"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    lease_until: Mapped[datetime]
    shown: Mapped[str | None] = mapped_column(String(64))
    given_back: Mapped[bool] = mapped_column(default=False)
    taken_from: Mapped[str | None] = mapped_column(String(64))
