"""Turn time limits: the turn ping after a short grace period, a warning at half time (both in the table's one ping
slot: the channel holds at most one), then the engine's default move (``engine.timeout_action``), announced in the
table's "last moves" by an event committed with the move. The timers carry the table version they were armed at
and do nothing once the game has moved on to another decision (a step that leaves the same decision open, such as
an answer in a Let's Kill! response window, keeps them: :attr:`bot.tables.Table.decision_opened`, from the engine's
``Waiting.open_for``). The default move enters by the one door every move takes (:meth:`bot.ui.GameUI.play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.live_table import PING_TIMER
from bot.tables import TableError
from bot.ui import ui_for

if TYPE_CHECKING:
    from bot.app import Coroner


#: the turn timers: each does nothing once the decision it was armed for is over (``Table.decision_opened``
#: moved past its version), so a step disarms the older ones (``TableService(superseded=...)``)
SUPERSEDED = frozenset({PING_TIMER, "turn_warning", "turn_timeout"})


def install_turn_timers(bot: Coroner) -> None:
    async def current(timer: Any) -> Any:
        table = await bot.tables.load(timer.game_id)
        if table.status != "active":
            return None
        if table.decision_opened != timer.payload.get("version"):
            return None
        return table

    async def warn(timer: Any) -> None:
        table = await current(timer)
        if table is None:
            return
        await bot.delivery.live.ping(table, "turn.warning")

    async def expire(timer: Any) -> None:
        table = await current(timer)
        if table is None:
            return
        move = table.engine.timeout_action(table.state)
        if move is None:
            return
        seat, action = move
        # the announcement is committed with the move: if a player's own move won the race, the version check
        # refuses this one (table.stale) and nothing is said
        try:
            await ui_for(table.game, table.mode).play(bot, table, None, table.engine.dump_action(action), seat=seat,
                                                      version=table.version, timed_out=True)
        except TableError as exc:
            if exc.code != "table.stale":
                raise

    bot.timers.on(PING_TIMER, bot.delivery.live.on_ping_timer)
    bot.timers.on("turn_warning", warn)
    bot.timers.on("turn_timeout", expire)
