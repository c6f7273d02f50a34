"""The persisted timers that run a social game's own clock (:meth:`games.asesino.social.engine.SocialEngine.due`:
the engine decides what is due when; this module only wakes up at the right moments and applies it).

* ``social_day_end`` (payload ``{"day": n}``), due at ``next_boundary(state)``: applies what the game's clock has
  due (:func:`catch_up`, also run before any player's action: every overdue day's end, in order, each stamped at its
  boundary, and the judgements past their window), as the system seat through the one door every move takes
  (:meth:`bot.ui.GameUI.play`). The step that starts a day (the deal, a day's end) arms that day's timer in its own
  transaction (:func:`clock_timers`, the step's plan), as a step that opens a judgement arms its expiry. A timer
  that no longer matches the game (another day, or fired before the boundary because the game was re-started with
  another clock) applies nothing, but makes sure the current day has a pending timer; a stale day refused by the
  engine is swallowed the same way.
  A boundary missed while the bot was down fires once at start (the timer runner fires missed timers once), and
  that one timer ends every overdue day in order.
* Any other failure (the database, an unexpected refusal, a bug) is logged and the same timer is re-armed
  :data:`RETRY` later (persisted, so a restart keeps it): the game never stalls without a next day-end timer.
* ``social_judgements`` (payload ``{"judgement": id}``), due just after a judgement's window (:data:`GRACE`):
  applies what the clock has due then (the judgement's expiry, after any overdue day).

Every player action the adapter sends carries ``at = bot.clock.now()``; the clock's own actions carry their stamp.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.ai_seats import hand_to_computer
from bot.tables import Table, TableError, TimerPlan
from bot.ui import ui_for
from games.asesino.social import SYSTEM_SEAT, next_boundary
from games.core import Event, IllegalAction

if TYPE_CHECKING:
    from bot.app import Coroner

log = logging.getLogger(__name__)

DAY_END = "social_day_end"
JUDGEMENTS = "social_judgements"
#: judgements expire strictly after their window (``expires_at < at``)
GRACE = timedelta(seconds=1)
#: how long after a failed day end it is tried again
RETRY = timedelta(minutes=1)
STALE_DAY = "asesino_social.stale_day"
OVER = frozenset({"table.not_active", "table.not_found", "core.game_over"})
#: the most clock actions one catch-up applies (a game lasts at most 365 days)
MAX_CATCH_UP = 400
#: the private reminder a day's end gives a living player who has not acted for ``days`` days
IDLE_REMINDER = "asesino_social.reminder.idle"
#: while the clock's step is applied and shown, the days of silence after which that day's end hands a person's
#: seat to the computer (the server's ``timeouts_to_computer``; None outside it): see :func:`handed_over`
HANDING_OVER: ContextVar[int | None] = ContextVar("coroner_social_handing_over", default=None)


def handed_over(event: Event) -> bool:
    """Whether ``event`` is an idle reminder (:data:`IDLE_REMINDER`) whose seat the day's end being shown hands to
    the computer right after (:func:`after_idle_days`): its DM would be followed at once by the "the computer plays
    your seat" notice with its I'm back button, which says it, so it is not sent (ruling 34 in
    ``games/asesino/README.md``; issue 20: one DM, not two). A step shown by another task is not known as such:
    its reminder is sent, as before."""
    needed = HANDING_OVER.get()
    return event.key == IDLE_REMINDER and needed is not None and int(event.params.get("days", 0)) >= needed


def is_social(table: Table) -> bool:
    return table.game == "asesino" and table.mode == "social"


async def schedule_day_end(bot: Coroner, game_id: int, day: int, due_at: datetime) -> None:
    await bot.timers.schedule(game_id, DAY_END, due_at, {"day": day})


def clock_timers(table: Table) -> list[TimerPlan]:
    """The clock's timers the step that produced ``table`` arms, in its own transaction (the step's plan,
    :meth:`bot.ui.GameUI.clock_timers`): ``social_day_end`` of the day the step started (the deal, whose timeline is
    empty, or a day's end: its action is the timeline's last), due at its boundary, and ``social_judgements`` of the
    judgement the step opened (the timeline's last action, naming it), :data:`GRACE` after its window. A running
    game's other steps arm none (their day's timer is pending), nor does a step that is no action of the game's (a
    seat handed over, a pause or its resume: the timeline's last action is an earlier step's; the table counts
    them, ``seat_steps`` and the controls' ``steps``, until the game's next action)."""
    state = table.state
    controls = table.engine.controls(state)
    if (table.status != "active" or state.result is not None or table.seat_steps
            or (controls is not None and controls.steps)):
        return []
    last = state.timeline[-1] if state.timeline else None
    if last is None or last.kind == "end_day":
        due = next_boundary(state)
        return [] if due is None else [TimerPlan(DAY_END, due, {"day": state.day})]
    if last.kind == "open_judgement" and last.ref is not None:
        judgement = state.judgements[last.ref - 1]
        return [TimerPlan(JUDGEMENTS, judgement.expires_at + GRACE, {"judgement": judgement.id})]
    return []


async def on_day_end(bot: Coroner, timer: Any) -> None:
    """The ``social_day_end`` handler (see the module docstring). Never raises: a failure re-arms the timer."""
    try:
        table = await bot.tables.since(timer.game_id, timer.version_at_schedule)
        await end_day(bot, timer.game_id, timer.payload.get("day"), table)
    except Exception:
        log.exception("ending day %s of social game %s failed; trying again in %s", timer.payload.get("day"),
                      timer.game_id, RETRY)
        try:
            await bot.timers.schedule(timer.game_id, DAY_END, bot.clock.now() + RETRY, dict(timer.payload))
        except Exception:
            log.exception("could not re-arm the day end of social game %s", timer.game_id)


async def end_day(bot: Coroner, game_id: int, day: Any, loaded: Table | None = None) -> None:
    """End ``day`` of the game, and every later overdue day, if its boundary has passed (:func:`catch_up`: the
    last day's end arms the next day's timer with it, :func:`clock_timers`); when it ended none, make sure the
    current day has a pending timer. Raises on any failure but a stale day or a finished game. The game is read
    once (not at all when handed as ``loaded``: :meth:`bot.tables.TableService.since`); each step's committed table
    is handed on rather than read again."""
    loaded = loaded or await bot.tables.load(game_id)
    if loaded.status != "active" or not is_social(loaded):
        return
    table, ended = await _catch_up(bot, game_id, loaded) if day == loaded.state.day else (loaded, 0)
    if table is not None and not ended:
        await ensure_day_timer(bot, table)


async def catch_up(bot: Coroner, game_id: int, table: Table | None = None) -> Table | None:
    """Apply, in order, everything the game's own clock has due now (:meth:`games.core.Engine.due`: ruling "Time":
    "after downtime the bot ends every overdue day, in order, before it applies anything else"), each as
    ``SYSTEM_SEAT`` through :meth:`bot.ui.GameUI.play`. A day another writer ended first is skipped; a finished
    game stops it. ``table``: the game as the caller read it (:meth:`bot.tables.TableService.load`; read here when
    not given). Returns the game after what was applied (``table`` itself when nothing was due, so a move made on
    it is not read again; None when it could not be read). Raises on any other failure."""
    return (await _catch_up(bot, game_id, table))[0]


async def _catch_up(bot: Coroner, game_id: int, table: Table | None) -> tuple[Table | None, int]:
    """:func:`catch_up`, with how many days it ended."""
    ended = 0
    for _ in range(MAX_CATCH_UP):
        if table is None:
            table = await bot.tables.load(game_id)
        if table.status != "active" or not table.engine.features.clock:
            return table, ended
        due = table.engine.due(table.state, bot.clock.now())
        if not due:
            return table, ended
        action = table.engine.dump_action(due[0])
        handing = HANDING_OVER.set((await bot.config(table.guild_id)).timeouts_to_computer)
        try:
            result = await ui_for(table.game, table.mode).play(bot, table, None, action, seat=SYSTEM_SEAT,
                                                               version=table.version)
        except IllegalAction as exc:
            if exc.code != STALE_DAY:
                raise
            table = None
            continue
        except TableError as exc:
            if exc.code in OVER:
                return table, ended
            if exc.code != "table.stale":
                raise
            table = None
            continue
        finally:
            HANDING_OVER.reset(handing)
        ended += action.get("type") == "end_day"
        # the silent for too long: the computer plays
        table = await after_idle_days(bot, result.table, result.events)
    log.warning("social game %s: more than %d overdue clock actions", game_id, MAX_CATCH_UP)
    return table, ended


async def after_idle_days(bot: Coroner, table: Table, events: list[Event]) -> Table:
    """A day ended (``table`` after it, ``events`` the step's): a person whose idle reminder
    (:data:`IDLE_REMINDER`, with the ``days`` they have not acted) says they stayed silent for the server's
    ``timeouts_to_computer`` days or more has let that many decisions time out, so the computer plays their seat
    from now on (ruling "Absent players" in ``games/asesino/README.md``). Returns the game after the changes."""
    needed = (await bot.config(table.guild_id)).timeouts_to_computer
    for event in events:
        if event.key == IDLE_REMINDER and int(event.params.get("days", 0)) >= needed:  # (as handed_over says)
            for seat in event.audience.seats:
                if table.status == "active" and seat not in table.ai_seats():
                    table = await hand_to_computer(bot, table, seat)
    return table


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
    """The ``social_judgements`` handler: apply what the clock has due (judgements whose window has ended, after
    any overdue day: an action stamped past the boundary would be refused)."""
    await catch_up(bot, timer.game_id, await bot.tables.since(timer.game_id, timer.version_at_schedule))


def install(bot: Coroner) -> None:
    async def day_end(timer: Any) -> None:
        await on_day_end(bot, timer)

    async def judgements(timer: Any) -> None:
        await on_judgements(bot, timer)

    bot.timers.on(DAY_END, day_end)
    bot.timers.on(JUDGEMENTS, judgements)
