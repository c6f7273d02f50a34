"""The table's side of a change of who plays a seat (:mod:`games.core.seats`, whose rules say who may send which
change and when a game is left to the computer): what the table knows of the seats and the offers for those rules,
and what an accepted change writes to the seats, all inside :meth:`TableService.act`'s transaction (issue 24).

* ``seat_away``: the bot, after the server's number of timeouts in a row (:mod:`bot.turns`).
* ``seat_back``: the person the computer plays for ("I'm back").
* ``seat_replaced``: ``to="computer"`` by the host (``HOST_SEAT``: the cog checks host or Manage Server);
  ``to="person"`` by the newcomer accepting the host's offer (a pending ``seat_offer`` timer names them, not yet
  due: an offer stands until its deadline, whether or not its timer has fired yet). Either way the seat goes by the
  ``names`` the action carries from then on (the newcomer's, or a computer player's).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import FormerHolder, Game, Seat
from bot.db.repos import timers
from bot.tables.model import ABANDONED, Table, TableError, TableSeat
from games.core import HOST_SEAT, IllegalAction, Outcome
from games.core.controls import CONTROL_TYPES
from games.core.seats import Hold, abandoned, is_seat_change, next_host, seat_change_refusal

#: the timer of a pending offer of a seat to someone (payload ``seat``, ``user_id``, ``by``, ``message``: the
#: offer's message id once posted; ``why`` once ended early: :func:`lapse_offers`); it lapses at due time
OFFER_TIMER = "seat_offer"


def _target(table: Table, action: dict[str, Any]) -> int:
    target = action.get("seat")
    if not isinstance(target, int) or isinstance(target, bool) or not table.has_seat(target):
        raise TableError("table.bad_seat", seat=target)
    return target


def holds(table: Table) -> list[Hold]:
    """What the rules of seat changes (:mod:`games.core.seats`) see of ``table``'s seats (who is dead: the
    engine's :meth:`~games.core.Engine.dead`)."""
    dead = table.engine.dead(table.state) if table.state is not None else frozenset()
    return [Hold(seat=s.seat, person=not s.is_ai, away=s.away, dead=s.seat in dead) for s in table.seats]


async def admit_seat_change(session: AsyncSession, table: Table, action: dict[str, Any], *, user_id: int | None,
                            seat: int | None, now: datetime) -> tuple[int, dict[str, Any]]:
    """The actor the engine sees for the seat change ``action`` (JSON) sent by the person ``user_id`` or by the bot
    for ``seat`` at ``now``, and the action as logged (a replacement carries the names the seat had, ``was``).
    Who may send which change is the engine's rule (:func:`games.core.seats.seat_change_refusal`), the rest the
    contract's (:meth:`games.core.Engine.check_seat_change`). Raises ``TableError``: ``table.not_active``,
    ``table.bad_seat``, and the rule's refusals as ``TableError`` (``seat.error.not_away``, ``seat.error.not_yours``,
    ``seat.error.computer``, ``seat.error.no_offer``, ``seat.error.offer_lapsed``: its deadline passed,
    ``seat.error.seated``, ``seat.error.held``: the newcomer held another seat of the game, :func:`held_another_seat`);
    ``IllegalAction("core.host_only")`` for a person sending a change only the bot makes."""
    if table.status != "active":
        raise TableError("table.not_active", game_id=table.id)
    target = _target(table, action)
    person = seat is None
    sender = table.seat_of(user_id) if person and user_id is not None else None
    if action.get("type") == "seat_back" and person and user_id is not None:
        sender = table.away_seat_of(user_id)
    offers = (await _offers(session, table.id, target, user_id) if person and user_id is not None
              and action.get("to") == "person" else [])
    offered = any(due > now for due in offers)
    held = (action.get("type") == "seat_replaced" and person and user_id is not None
            and await held_another_seat(session, table.id, user_id, target))
    refusal = seat_change_refusal(holds(table), action, person=person, sender=sender, offered=offered, held=held)
    if refusal == "core.host_only":
        raise IllegalAction(refusal)
    if refusal == "seat.error.no_offer" and offers:  # offered, but too late
        refusal = "seat.error.offer_lapsed"
    if refusal is not None:
        raise TableError(refusal, seat=target)
    if action.get("type") == "seat_replaced":
        action = {**action, "was": list(table.seat_names(target))}
    if seat is not None:  # the bot's word: the game's clock (SYSTEM_SEAT) or the host's (HOST_SEAT)
        return seat, action
    return (target if action.get("type") == "seat_back" else HOST_SEAT), action


async def held_another_seat(session: AsyncSession, game_id: int, user_id: int, seat: int) -> bool:
    """Whether the person ``user_id`` held a seat of game ``game_id`` other than ``seat`` before it changed hands
    (:class:`bot.db.models.FormerHolder`): they know that seat's secrets."""
    stmt = select(FormerHolder.id).where(FormerHolder.game_id == game_id, FormerHolder.user_id == user_id,
                                         FormerHolder.seat != seat).limit(1)
    return await session.scalar(stmt) is not None


async def _offers(session: AsyncSession, game_id: int, seat: int, user_id: int) -> list[datetime]:
    """The deadlines of the pending offers of ``seat`` to ``user_id`` (past ones too: their timers did not fire
    yet)."""
    return [t.due_at for t in await timers.pending_of(session, game_id)
            if t.kind == OFFER_TIMER and t.payload.get("seat") == seat and t.payload.get("user_id") == user_id]


async def change_seat(session: AsyncSession, table: Table, action: dict[str, Any], user_id: int | None,
                      now: datetime) -> Table:
    """Write the accepted seat change ``action`` to the seats (``away``; the new holder; none for the computer),
    lapse the offers of a seat handed over (:func:`lapse_offers`) and, when it was the host's own, pass the host on
    (:func:`games.core.seats.next_host`); the table after it. A change that leaves no person playing ends the game
    as abandoned (:data:`~bot.tables.model.ABANDONED`: no scores; the caller finishes it)."""
    target, kind = action["seat"], action["type"]
    values: dict[str, Any] = {"away": kind == "seat_away"}
    before = table.user_of(target)
    if kind == "seat_replaced" and before is not None:  # they know the seat's secrets: no other seat for them
        session.add(FormerHolder(game_id=table.id, seat=target, user_id=before, until=now))
    if kind == "seat_replaced":
        values["user_id"] = user_id if action["to"] == "person" else None
        values["dm_ok"] = True
        if action.get("names"):  # the seat goes by its new holder's name (or a computer player's) from now on
            values["names"] = list(action["names"])
    await session.execute(update(Seat).where(Seat.game_id == table.id, Seat.seat == target).values(**values))
    after = replace(table, seats=tuple(s if s.seat != target else _changed(s, values) for s in table.seats))
    if kind != "seat_replaced":
        return after
    await lapse_offers(session, table.id, now, seat=target, why="taken", taker=values["user_id"])
    host_seat = next_host(holds(after), target) if table.user_of(target) == table.host_id else None
    host = after.user_of(host_seat) if host_seat is not None else None
    if host is None:
        return after
    await session.execute(update(Game).where(Game.id == table.id).values(host_id=host))
    return replace(after, host_id=host)


async def lapse_offers(session: AsyncSession, game_id: int, now: datetime, *, seat: int, why: str,
                       taker: int | None = None) -> None:
    """End the pending offers of ``seat`` and those to ``taker`` (the newcomer who took it; other offers stand):
    the one of that seat to ``taker`` is disarmed (its message is the answer of their click); every other is made
    due ``now`` with why it ended in its payload (``why``: ``taken``, ``superseded``; ``seated``: an offer of
    another seat to ``taker``, who holds one now), so its lapse handler strips its message's button and says so."""
    for timer in await timers.pending_of(session, game_id):
        ours, theirs = timer.payload.get("seat") == seat, taker is not None and timer.payload.get("user_id") == taker
        if timer.kind != OFFER_TIMER or not (ours or theirs):
            continue
        if ours and theirs:
            await timers.disarm(session, [timer.id], now)
        else:
            await timers.bring_forward(session, timer, now, {"why": why if ours else "seated"})


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
    """The outcome of a running game with no person playing any more (the engine's rule,
    :func:`games.core.seats.abandoned`), else None."""
    if table.status != "active" or not abandoned(holds(table)):
        return None
    return Outcome(winners=[], reason=ABANDONED)


def _changed(seat: TableSeat, values: dict[str, Any]) -> TableSeat:
    return replace(seat, user_id=values.get("user_id", seat.user_id), dm_ok=values.get("dm_ok", seat.dm_ok),
                   away=values["away"], names=tuple(values.get("names", seat.names)))
