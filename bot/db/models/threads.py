"""The private threads the bot made for a game (the dead and watchers, the Killer and Accomplice, an interview),
kept so that a restarted bot finds them again (:mod:`bot.threads`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.base import Base, utcnow


class GameThread(Base):
    """One private thread of game ``game_id``: ``kind`` is ``dead`` (the dead and the watchers), ``pair`` (the
    social mode's Killer and Accomplice) or ``interview:<day>`` (a Journalist's interview that day); ``members``
    the user ids the bot added (the bot aside), ``watchers`` those of them who pressed Watch; ``archived_at`` is
    set once the bot archived and locked it. ``thread_id`` 0 records that the game has no such thread (Discord
    refused it, or another player could have read it): the bot does not ask again, everything goes by DM."""

    __tablename__ = "game_threads"
    __table_args__ = (UniqueConstraint("game_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    thread_id: Mapped[int] = mapped_column(BigInteger)
    members: Mapped[list[Any]]
    watchers: Mapped[list[Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    archived_at: Mapped[datetime | None]
