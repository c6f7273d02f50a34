"""The real-time clock of a social game: persisted timers that end each day and close judgement windows.

* ``social_day_end`` (payload ``{"day": n}``), due at ``next_boundary(state)``: applies ``end_day{day, at}`` as
  the system seat, stamped at the boundary, for that day and every later overdue one (:func:`catch_up`, also run
  before any player's action), and schedules the current day's timer. A timer that no longer matches the game
  (another day, or fired before the boundary because the game was re-started with another clock) applies nothing,
  but makes sure the current day has a pending timer; a stale day refused by the engine is swallowed the same way.
  A boundary missed while the bot was down fires once at start (the timer runner fires missed timers once), and
  that one timer ends every overdue day in order.
* Any other failure (the database, an unexpected refusal, a bug) is logged and the same timer is re-armed
  :data:`RETRY` later (persisted, so a restart keeps it): the game never stalls without a next day-end timer.
* ``social_judgements`` (payload ``{"judgement": id}``), due just after a judgement's window: applies
  ``expire_judgements{at}`` when an open judgement's window has ended.

Every player action the adapter sends carries ``at = bot.clock.now()``; a day end carries its boundary.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.cogs.asesino_social.dead import after_action
from bot.tables import TableError
from games.asesino.social import SYSTEM_SEAT, next_boundary
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner
    from bot.tables import Table

log = logging.getLogger(__name__)

DAY_END = "social_day_end"
JUDGEMENTS = "social_judgements"
#: judgements expire strictly after their window (``expires_at < at``)
GRACE = timedelta(seconds=1)
#: how long after a failed day end it is tried again
RETRY = timedelta(minutes=1)
STALE_DAY = "asesino_social.stale_day"
OVER = frozenset({"table.not_active", "table.not_found", "core.game_over"})
#: the most days one catch-up ends (a game lasts at most 365 days)
MAX_CATCH_UP = 400


def is_social(table: Table) -> bool:
    return table.game == "asesino" and table.mode == "social"


async def schedule_day_end(bot: Coroner, game_id: int, day: int, due_at: datetime) -> None:
    await bot.timers.schedule(game_id, DAY_END, due_at, {"day": day})


async def schedule_expiry(bot: Coroner, game_id: int, judgement: int, expires_at: datetime) -> None:
    await bot.timers.schedule(game_id, JUDGEMENTS, expires_at + GRACE, {"judgement": judgement})


async def act_system(bot: Coroner, game_id: int, action: dict[str, Any]) -> Any:
    """Apply a system action; ``None`` when the engine or the table refuses it (stale day, game over)."""
    try:
        result = await bot.tables.act_as_seat(game_id, SYSTEM_SEAT, action)
    except (IllegalAction, TableError) as exc:
        log.info("system action %s on game %s refused: %s", action["type"], game_id, exc)
        return None
    await after_action(bot, result)
    return result


async def on_day_end(bot: Coroner, timer: Any) -> None:
    """The ``social_day_end`` handler (see the module docstring). Never raises: a failure re-arms the timer."""
    try:
        await end_day(bot, timer.game_id, timer.payload.get("day"))
    except Exception:
        log.exception("ending day %s of social game %s failed; trying again in %s", timer.payload.get("day"),
                      timer.game_id, RETRY)
        try:
            await bot.timers.schedule(timer.game_id, DAY_END, bot.clock.now() + RETRY, dict(timer.payload))
        except Exception:
            log.exception("could not re-arm the day end of social game %s", timer.game_id)


async def end_day(bot: Coroner, game_id: int, day: Any) -> None:
    """End ``day`` of the game, and every later overdue day, if its boundary has passed (:func:`catch_up`); then
    make sure the current day has a pending timer. Raises on any failure but a stale day or a finished game."""
    table = await bot.tables.load(game_id)
    if table.status != "active" or not is_social(table):
        return
    if day == table.state.day:
        await catch_up(bot, game_id)
        table = await bot.tables.load(game_id)
    await ensure_day_timer(bot, table)


async def catch_up(bot: Coroner, game_id: int) -> None:
    """End every overdue day of a social game in order, each stamped at its own boundary (ruling "Time": "after
    downtime the bot ends every overdue day, in order, before it applies anything else"). A day another writer
    ended first is skipped; a finished game stops it. Raises on any other failure."""
    for _ in range(MAX_CATCH_UP):
        table = await bot.tables.load(game_id)
        if table.status != "active" or not is_social(table):
            return
        due = next_boundary(table.state)
        if due is None or bot.clock.now() < due:
            return
        action = {"type": "end_day", "day": table.state.day, "at": due.isoformat()}
        try:
            result = await bot.tables.act_as_seat(game_id, SYSTEM_SEAT, action, expected_version=table.version)
        except IllegalAction as exc:
            if exc.code != STALE_DAY:
                raise
            continue
        except TableError as exc:
            if exc.code in OVER:
                return
            if exc.code != "table.stale":
                raise
            continue
        await after_action(bot, result)
    log.warning("social game %s: more than %d overdue days", game_id, MAX_CATCH_UP)


async def ensure_day_timer(bot: Coroner, table: Table) -> None:
    """Arm the current day's end unless a timer for it is pending (e.g. a retry found the day already ended by
    an attempt whose next timer was never armed)."""
    if table.status != "active" or table.state is None:
        return
    due = next_boundary(table.state)
    if due is None:
        return
    pending = await bot.tables.pending_timers(table.id)
    if not any(t.kind == DAY_END and t.payload.get("day") == table.state.day for t in pending):
        log.info("arming the missing day %s end of game %s", table.state.day, table.id)
        await schedule_day_end(bot, table.id, table.state.day, due)


async def on_judgements(bot: Coroner, timer: Any) -> None:
    """The ``social_judgements`` handler: close judgements whose window has ended (after ending any overdue
    day: an action stamped past the boundary would be refused)."""
    await catch_up(bot, timer.game_id)
    table = await bot.tables.load(timer.game_id)
    if table.status != "active" or not is_social(table):
        return
    now = bot.clock.now()
    if any(j.status == "open" and j.expires_at < now for j in table.state.judgements):
        await act_system(bot, table.id, {"type": "expire_judgements", "at": now.isoformat()})


async def after_player_action(bot: Coroner, result: Any) -> None:
    """Arm the expiry timer of a judgement the action opened (``result``: an ActResult)."""
    for event in result.events:
        if event.key == "asesino_social.judgement.opened":
            state = result.table.state
            judgement = state.judgements[event.params["judgement"] - 1]
            await schedule_expiry(bot, result.table.id, judgement.id, judgement.expires_at)


def install(bot: Coroner) -> None:
    async def day_end(timer: Any) -> None:
        await on_day_end(bot, timer)

    async def judgements(timer: Any) -> None:
        await on_judgements(bot, timer)

    bot.timers.on(DAY_END, day_end)
    bot.timers.on(JUDGEMENTS, judgements)
