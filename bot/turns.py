"""Turn time limits: the turn ping after a short grace period, a warning at half time (both in the table's one ping
slot: the channel holds at most one), then the move the seat's computer player would make from its view
(:func:`games.core.ai.timeout_move`, drawn from the seed and the table version), announced in the table's "last
moves" by an event committed with the move; after the server's number of timeouts in a row the computer plays the
seat (:func:`bot.ai_seats.after_timeout`). The timers carry the table version they were armed at
and do nothing once the game has moved on to another decision (a step that leaves the same decision open, such as
an answer in a Let's Kill! response window, keeps them: :attr:`bot.tables.Table.decision_opened`, from the engine's
``Waiting.open_for``). The default move enters by the one door every move takes (:meth:`bot.ui.GameUI.play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.ai_seats import after_timeout
from bot.live_table import PING_TIMER
from bot.tables import TableError
from bot.ui import ui_for
from games.core import rng_for
from games.core.ai import timeout_move

if TYPE_CHECKING:
    from bot.app import Coroner


#: the turn timers: each does nothing once the decision it was armed for is over (``Table.decision_opened``
#: moved past its version), so a step disarms the older ones (``TableService(superseded=...)``)
SUPERSEDED = frozenset({PING_TIMER, "turn_warning", "turn_timeout"})


async def current(bot: Coroner, timer: Any) -> Any:
    """The running table ``timer`` was armed for, while the decision it was armed at still stands and the game is
    not paused (else None: a pause that landed while the timer ran holds it, and the resume runs it again)."""
    table = await bot.tables.load(timer.game_id)
    if table.status != "active" or table.paused or table.decision_opened != timer.payload.get("version"):
        return None
    return table


async def on_turn_timeout(bot: Coroner, timer: Any) -> None:
    """The awaited seat's time ran out: the bot makes its computer player's move for it (announced, committed with
    the move; a player's own move that won the race makes this one stale and nothing is said), then
    :func:`bot.ai_seats.after_timeout` hands the seat to the computer once that is too many in a row."""
    table = await current(bot, timer)
    if table is None:
        return
    assert table.seed is not None  # a running game has its seed
    move = timeout_move(table.engine, table.state, rng_for(table.seed, "timeout", table.version))
    if move is None:
        return
    seat, action = move
    try:
        result = await ui_for(table.game, table.mode).play(
            bot, table, None, table.engine.dump_action(action), seat=seat, version=table.version, timed_out=True)
    except TableError as exc:
        if exc.code != "table.stale":
            raise
        return
    await after_timeout(bot, result.table, seat)


def install_turn_timers(bot: Coroner) -> None:
    async def warn(timer: Any) -> None:
        table = await current(bot, timer)
        if table is None:
            return
        await bot.delivery.live.ping(table, "turn.warning")

    async def expire(timer: Any) -> None:
        await on_turn_timeout(bot, timer)

    bot.timers.on(PING_TIMER, bot.delivery.live.on_ping_timer)
    bot.timers.on("turn_warning", warn)
    bot.timers.on("turn_timeout", expire)
