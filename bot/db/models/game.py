"""A game table and what hangs off it: seats, the append-only action log and timers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow

#: ``scheduled``: a lobby ``/newgame ... starts_in:`` opens later (its ``lobby_open`` timer); it holds no channel
GAME_STATUSES: tuple[str, ...] = ("scheduled", "lobby", "active", "finished", "cancelled")
#: statuses of a game that still occupies its channel
ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "active")


class Game(Base):
    """One game at one table. ``state`` is the engine's JSON snapshot after ``version`` changes; ``seed`` and
    ``started_at`` are set when the game starts; ``outcome`` is the engine's :class:`~games.core.Outcome` as JSON
    once finished. Nothing of a game is deleted when it ends: with its seats and action log it is the game's record
    (``/history``, ``coroner replay``)."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("status IN ('scheduled', 'lobby', 'active', 'finished', 'cancelled')", name="status"),
        Index(None, "channel_id", "status"),
        Index(None, "guild_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    seed: Mapped[int | None] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]]
    state: Mapped[dict[str, Any] | None]
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: the changes of who plays a seat made since the decision the game waits on was offered (they leave it open:
    #: :attr:`bot.tables.Table.decision_opened`)
    seat_steps: Mapped[int] = mapped_column(Integer, default=0)
    #: the version the decision the game waits on was first offered at (:attr:`bot.tables.Table.decision_opened`,
    #: written with every version bump of a move): the game's timers of superseded kinds armed before it never fire
    #: (:func:`bot.db.repos.timers.standing`)
    decision_opened: Mapped[int] = mapped_column(Integer, default=0)
    language: Mapped[str] = mapped_column(String(8), default="en")
    series_id: Mapped[int | None] = mapped_column(ForeignKey("series.id", ondelete="SET NULL"), index=True)
    lobby_message_id: Mapped[int | None] = mapped_column(BigInteger)
    table_message_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    outcome: Mapped[dict[str, Any] | None]
    # --- the game's delivery lease (:mod:`bot.tables.leases`): which process shows the game's outbox and until when
    #: the process delivering the game's steps (a :class:`~bot.tables.outbox.Deliverer`'s id; None: never shown):
    #: one process at a time works off a game's steps, so they are shown in commit order whichever process committed
    #: them. The lease is taken with the version bump of the step that makes the game pending (no statement of its
    #: own) and given back with the step's "delivered" mark; one that ran out (its process died) is taken over
    #: (:func:`bot.db.repos.outbox.claim_game`)
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    #: until when ``lease_owner`` holds it (a delivery that ends sets it to its end)
    lease_until: Mapped[datetime | None]
    #: its owner ended the lease (its delivery was over, or it stopped), so taking it is no takeover
    lease_given_back: Mapped[bool] = mapped_column(default=False)
    #: the owner whose lease ran out without being given back when ``lease_owner`` took the game (a process that died
    #: or hung; None: the lease was free, given back, or renewed), for ``coroner_lease_takeovers``
    lease_taken_from: Mapped[str | None] = mapped_column(String(64))
    #: a digest of the public view the game's table last showed (whichever process showed it), so a step that changes
    #: nothing public shows nothing (:meth:`bot.tables.outbox.StepInfo.public_changed`)
    shown: Mapped[str | None] = mapped_column(String(64))


class Seat(Base):
    """A player at a table. ``seat`` is the engine's seat number (0-based, join order); ``user_id`` is None for a
    computer player (an AI seat, which has no Discord user: it is never mentioned, messaged or scored)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "user_id"), UniqueConstraint("game_id", "seat"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    names: Mapped[list[str]]
    dm_ok: Mapped[bool] = mapped_column(default=True)
    #: a DM to this player failed and the channel was not told yet (said with the game's next public step, by
    #: whichever process shows it)
    dm_notice_due: Mapped[bool] = mapped_column(default=False)
    #: the computer plays this person's seat (after timeouts in a row) until they take it back (issue 24)
    away: Mapped[bool] = mapped_column(default=False)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)


class FormerHolder(Base):
    """A person who held ``seat`` of game ``game_id`` until ``until``, when the host handed it to someone else or to
    the computer: they know that seat's secrets, so they never take another seat of the game
    (:func:`bot.tables.seats.held_another_seat`)."""

    __tablename__ = "former_holders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(BigInteger)
    until: Mapped[datetime] = mapped_column(default=utcnow)


class GameAction(Base):
    """One accepted action, append-only. ``seq`` counts from 1 per game; ``user_id`` is None for moves the bot
    made for a seat (timeouts, auto-moves); ``timed_out`` marks the bot's move for a seat whose time ran out (or
    the game's own clock closing a window), announced as such; ``at`` is when it was applied."""

    __tablename__ = "game_actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[dict[str, Any]]
    timed_out: Mapped[bool] = mapped_column(default=False)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Timer(Base):
    """A deadline for a game (turn timeout, end of day...). ``version_at_schedule`` lets the handler ignore a
    timer the game has moved past; ``fired_at`` is set exactly once, after its handler ran.

    ``claimed_by``/``lease_until``: the process running its handler now and until when that claim holds (see
    :func:`bot.db.repos.timers.claim_due`); a claim whose lease ran out (its process died) is taken over."""

    __tablename__ = "timers"
    __table_args__ = (Index(None, "fired_at", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    due_at: Mapped[datetime]
    payload: Mapped[dict[str, Any]]
    version_at_schedule: Mapped[int] = mapped_column(Integer)
    fired_at: Mapped[datetime | None]
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[datetime | None]
