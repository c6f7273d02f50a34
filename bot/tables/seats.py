"""The table's side of a change of who plays a seat (:mod:`games.core.seats`): who may send it, what it writes to
the seats, and when it leaves a game with no person playing (abandoned), all inside :meth:`TableService.act`'s
transaction (issue 24).

* ``seat_away``: the bot, for a person's seat it does not play yet (after the server's number of timeouts in a row,
  :mod:`bot.turns`).
* ``seat_back``: the person the computer plays for (``I'm back``), for their own seat.
* ``seat_replaced``: ``to="computer"`` by the host (``HOST_SEAT``: the cog checks host or Manage Server);
  ``to="person"`` by the newcomer accepting the host's offer (a pending ``seat_offer`` timer names them), who must
  not hold a seat at the table yet.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Seat
from bot.db.repos import timers
from bot.tables.model import ABANDONED, Table, TableError, TableSeat
from games.core import HOST_SEAT, IllegalAction, Outcome
from games.core.controls import CONTROL_TYPES
from games.core.seats import is_seat_change

#: the timer of a pending offer of a seat to someone (payload ``seat``, ``user_id``, ``by``); it lapses at due time
OFFER_TIMER = "seat_offer"


def _target(table: Table, action: dict[str, Any]) -> int:
    target = action.get("seat")
    if not isinstance(target, int) or isinstance(target, bool) or not table.has_seat(target):
        raise TableError("table.bad_seat", seat=target)
    return target


async def admit_seat_change(session: AsyncSession, table: Table, action: dict[str, Any], *, user_id: int | None,
                            seat: int | None) -> int:
    """The actor the engine sees for the seat change ``action`` (JSON) sent by the person ``user_id`` or by the bot
    for ``seat``; the engine checks the rest (:meth:`games.core.Engine.check_seat_change`). Raises ``TableError``:
    ``table.not_active``, ``table.bad_seat``; ``seat.error.not_away`` (back: the computer does not play it),
    ``seat.error.not_yours`` (back: not the clicker's seat), ``seat.error.computer`` (away or replaced: the computer
    plays it already), ``seat.error.no_offer`` (no pending offer of this seat to the clicker), ``seat.error.seated``
    (the newcomer holds a seat already); and
    ``IllegalAction("core.host_only")`` for a person sending any other change."""
    if table.status != "active":
        raise TableError("table.not_active", game_id=table.id)
    target = _target(table, action)
    info = next(s for s in table.seats if s.seat == target)
    kind = action.get("type")
    if kind == "seat_back":
        if not info.away:
            raise TableError("seat.error.not_away", seat=target)
        if user_id is None or info.user_id != user_id:
            raise TableError("seat.error.not_yours", seat=target)
        return target
    if info.is_ai or (info.away and action.get("to") != "person"):
        raise TableError("seat.error.computer", seat=target)
    if kind == "seat_replaced" and action.get("to") == "person" and seat is None:
        if user_id is None or not await _offered(session, table.id, target, user_id):
            raise TableError("seat.error.no_offer", seat=target)
        if table.seat_of(user_id) is not None:
            raise TableError("seat.error.seated", seat=target)
        return HOST_SEAT
    if seat is None:  # the computer takes a seat over at the bot's word or the host's (the cog checks who)
        raise IllegalAction("core.host_only")
    return seat


async def _offered(session: AsyncSession, game_id: int, seat: int, user_id: int) -> bool:
    return any(t.kind == OFFER_TIMER and t.payload.get("seat") == seat and t.payload.get("user_id") == user_id
               for t in await timers.pending_of(session, game_id))


async def change_seat(session: AsyncSession, table: Table, action: dict[str, Any], user_id: int | None,
                      now: datetime) -> Table:
    """Write the accepted seat change ``action`` to the seats (``away``; the new holder; none for the computer) and
    lapse the offers of that seat; the table after it. A change that leaves no person playing ends the game as
    abandoned (:data:`~bot.tables.model.ABANDONED`: no scores; the caller finishes it)."""
    target, kind = action["seat"], action["type"]
    values: dict[str, Any] = {"away": kind == "seat_away"}
    if kind == "seat_replaced":
        values["user_id"] = user_id if action["to"] == "person" else None
        values["dm_ok"] = True
    await session.execute(update(Seat).where(Seat.game_id == table.id, Seat.seat == target).values(**values))
    if kind == "seat_replaced":  # every offer armed until now lapses
        await timers.disarm_superseded(session, table.id, {OFFER_TIMER}, table.version + 1, now)
    return replace(table, seats=tuple(s if s.seat != target else _changed(s, values) for s in table.seats))


def steps_since_decision(table: Table, state: Any, action: Any) -> int:
    """The table's ``seat_steps`` after ``action`` took the game to ``state``: one more for a seat change (the
    decision awaited stays open: its time limit runs on, its controls still stand), else kept while the engine
    says the decision stays open (``Waiting.open_for``), else 0."""
    if is_seat_change(action):
        return table.seat_steps + 1
    if getattr(action, "type", None) in CONTROL_TYPES:  # the host's pause or resume leaves the decision open too
        return table.seat_steps
    waiting = table.engine.waiting(state)
    return table.seat_steps if waiting is not None and waiting.open_for else 0


def abandoned_outcome(table: Table) -> Outcome | None:
    """The outcome of a running game with no person playing any more (every seat the computer's), else None."""
    if table.status != "active" or any(not s.played_by_computer for s in table.seats):
        return None
    return Outcome(winners=[], reason=ABANDONED)


def _changed(seat: TableSeat, values: dict[str, Any]) -> TableSeat:
    return replace(seat, user_id=values.get("user_id", seat.user_id), dm_ok=values.get("dm_ok", seat.dm_ok),
                   away=values["away"])
