"""Computer players at the table: every committed step that waits on an AI seat arms a persisted ``ai_move`` timer
(a human-like delay of 2-6 s, drawn from the game's seed and the table version), whose handler plays the seat's
policy (:func:`games.core.ai.choose_action`, from the seat's own view and legal actions) through the same path as a
person's click (:meth:`bot.ui.GameUI.play`: the table service's legality, version check, timers and persistence).

A move that lost a race (``table.stale``) is dropped: the step that won armed its own ``ai_move``; so is one into a
game cancelled meanwhile (``table.not_active``). A move the rules refuse is re-planned with a fresh draw, up to
:data:`MAX_TRIES` times; after that the turn's own time limit moves for the seat, as for a silent person. Timers survive
a restart (a missed one fires once at start; one whose process died
in the middle of its move is taken over), and a move whose timer was spent without a move (its handler failed) is
planned again at start (:func:`resume_ai_moves`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.db.repos import games
from bot.tables import Table, TableError
from bot.tables.model import TimerPlan
from bot.ui import ui_for
from games.core import SYSTEM_SEAT, IllegalAction, rng_for
from games.core.ai import choose_action, plays_at_table

if TYPE_CHECKING:
    from bot.app import Coroner

log = logging.getLogger(__name__)
AI_TIMER = "ai_move"
#: the computer player's "thinking time" in seconds, drawn uniformly in this range
DELAY_SECONDS = (2.0, 6.0)
#: how many refused moves in a row a computer player tries before it leaves the move to the turn's time limit
MAX_TRIES = 3


def ai_delay(seed: int, version: int, attempt: int = 0) -> timedelta:
    """The delay before a computer player's move at table ``version`` (2-6 s, the same for the same seed)."""
    return timedelta(seconds=rng_for(seed, "ai_delay", version, attempt).uniform(*DELAY_SECONDS))


def ai_movers(table: Table) -> list[int]:
    """The AI seats the game waits on now that have a legal action, in the engine's order (empty unless active and
    not paused)."""
    ai = set(table.ai_seats())
    if not ai or table.status != "active" or table.state is None or table.paused:
        return []
    waiting = table.engine.waiting(table.state)
    if waiting is None:
        return []
    return [seat for seat in waiting.seats if seat in ai and table.engine.legal_actions(table.state, seat)]


def ai_timers(table: Table, now: datetime, attempt: int = 0) -> list[TimerPlan]:
    """The ``ai_move`` timer the step that produced ``table`` arms (none when it waits on no computer player);
    its payload carries the version it was armed at and the try number."""
    if table.seed is None or not ai_movers(table):
        return []
    return [TimerPlan(AI_TIMER, now + ai_delay(table.seed, table.version, attempt),
                      {"version": table.version, "attempt": attempt})]


async def on_ai_move(bot: Coroner, timer: Any) -> None:
    """Play the first waiting computer player that has a move (one move per timer: the step it commits arms the
    next). Does nothing once the game moved on from the timer's version."""
    table = await bot.tables.load(timer.game_id)
    if table.status != "active" or table.version != timer.payload.get("version") or table.seed is None:
        return
    attempt = int(timer.payload.get("attempt", 0))
    ui = ui_for(table.game, table.mode)
    for seat in ai_movers(table):
        rng = rng_for(table.seed, "ai", seat, table.version, *((attempt,) if attempt else ()))
        action = choose_action(table.engine, table.state, seat, rng)
        if action is None or not plays_at_table(table.game, table.mode, action):  # the seat passes
            continue
        try:
            await ui.play(bot, table, None, table.engine.dump_action(action), version=table.version, seat=seat)
        except (TableError, IllegalAction) as exc:
            if isinstance(exc, TableError) and exc.code in ("table.stale", "table.not_active"):
                return  # another move won (its step armed the next ai_move), or the game was closed meanwhile
            log.warning("game %s: the computer player in seat %s was refused (%s)", table.id, seat, exc.code)
            if attempt + 1 < MAX_TRIES:
                for plan in ai_timers(table, bot.clock.now(), attempt + 1):
                    await bot.timers.schedule(table.id, plan.kind, plan.due_at, plan.payload)
        return


async def resume_ai_moves(bot: Coroner) -> None:
    """At start: a running game that waits on a computer player with no ``ai_move`` pending for its current
    version (its timer was spent without a move: the handler failed) gets one, so a computer player is never left
    waiting."""
    for table in await bot.tables.running_with_ai():
        pending = await bot.tables.pending_timers(table.id)
        if any(t.kind == AI_TIMER and t.version_at_schedule == table.version for t in pending):
            continue
        for plan in ai_timers(table, bot.clock.now()):
            await bot.timers.schedule(table.id, plan.kind, plan.due_at, plan.payload)


async def after_timeout(bot: Coroner, table: Table, seat: int) -> None:
    """``seat``'s time ran out again (``table`` is the game after the bot's move for it): once that is the server's
    ``timeouts_to_computer`` in a row, the computer plays the seat for the rest of the game (``seat_away``, an
    action of the game, :mod:`games.core.seats`) until its player presses "I'm back". Nothing for the game's own
    clock, a seat the computer plays already, or a game that is over."""
    if seat < 0 or table.status != "active" or seat in table.ai_seats():
        return
    needed = (await bot.config(table.guild_id)).timeouts_to_computer
    async with bot.sessions() as session:
        if await games.timeouts_in_a_row(session, table.id, seat, needed) < needed:
            return
    await hand_to_computer(bot, table, seat)


async def hand_to_computer(bot: Coroner, table: Table, seat: int) -> Table:
    """The computer plays ``seat`` from now on (``seat_away``, sent as the game's own clock); the table after it
    (as it was, when the seat was taken back, handed over or the game closed meanwhile)."""
    try:
        result = await ui_for(table.game, table.mode).play(bot, table, None, {"type": "seat_away", "seat": seat},
                                                           seat=SYSTEM_SEAT)
    except TableError as exc:  # taken back, handed over or closed meanwhile
        if exc.code not in ("seat.error.computer", "table.not_active"):
            raise
        return table
    return result.table


def install_ai_seats(bot: Coroner) -> None:
    """Register the ``ai_move`` handler (a lapsed offer of a seat is the seats cog's, :mod:`bot.cogs.seats`)."""

    async def handler(timer: Any) -> None:
        await on_ai_move(bot, timer)

    bot.timers.on(AI_TIMER, handler)
