"""Offers of a seat (:class:`bot.tables.service.TableService`'s part): the host offers a running game's seat to a
member, who takes it with the offer message's button (:mod:`bot.seat_controls`). An offer ends through its
``seat_offer`` timer's handler, which strips its message's button: at its deadline, or at once when another offer
of that seat supersedes it, the seat is handed over (:func:`bot.tables.seats.lapse_offers`) or the game ends
(:func:`bot.db.repos.timers.disarm_game`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import Game
from bot.db.repos import timers
from bot.tables.model import TableError
from bot.tables.seats import OFFER_TIMER, lapse_offers


class OffersMixin:
    """The offer operations of :class:`bot.tables.service.TableService` (which provides the attributes below)."""

    _sessions: async_sessionmaker[AsyncSession]

    async def arm_offer(self, game_id: int, seat: int, user_id: int, by: int, until: datetime,
                        now: datetime) -> int:
        """Arm the offer of ``seat`` to ``user_id`` by the host ``by``, standing until ``until`` (aware), in one
        transaction with the end of that seat's earlier offers (``superseded``: due ``now``, their handlers strip
        their messages); returns the offer's timer id (:meth:`offer_posted` records its message). Raises
        ``TableError("table.not_found")``."""
        async with self._sessions() as session, session.begin():
            version = await session.scalar(select(Game.version).where(Game.id == game_id))
            if version is None:
                raise TableError("table.not_found", game_id=game_id)
            await lapse_offers(session, game_id, now, seat=seat, why="superseded")
            payload = {"seat": seat, "user_id": user_id, "by": by}
            return (await timers.schedule(session, game_id, OFFER_TIMER, until, payload, version)).id

    async def offer_posted(self, timer_id: int, message_id: int) -> dict[str, Any] | None:
        """Record the message of the offer ``timer_id`` (its payload's ``message``), so its end edits it. Returns
        the offer's payload, the message in it, when the offer ended before its message was recorded (its handler
        was claimed already and cannot know the message: the caller ends it), else None."""
        async with self._sessions() as session, session.begin():
            ended = await timers.amend(session, timer_id, {"message": message_id})
        return None if ended is None else {**ended, "message": message_id}
