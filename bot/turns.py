"""Turn time limits: a warning at half time, then the engine's default move (``engine.timeout_action``),
announced publicly in the same step. Both timers carry the table version they were armed at and do nothing once
the game has moved on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.tables import TableError
from bot.ui import Outgoing, RenderContext
from games.core import Event

if TYPE_CHECKING:
    from bot.bot import CoronerBot


def install_turn_timers(bot: CoronerBot) -> None:
    async def current(timer: Any) -> Any:
        table = await bot.tables.load(timer.game_id)
        if table.status != "active" or table.version != timer.payload.get("version"):
            return None
        return table

    async def warn(timer: Any) -> None:
        table = await current(timer)
        if table is None:
            return
        ctx = RenderContext(table, table.language)
        seats = table.engine.to_act(table.state)
        text = ctx.t("turn.warning", seats=", ".join(ctx.mention(s) for s in seats))
        await (await bot.delivery.channel(table.channel_id)).send(**Outgoing(content=text, mentions=True).kwargs())

    async def expire(timer: Any) -> None:
        table = await current(timer)
        if table is None:
            return
        move = table.engine.timeout_action(table.state)
        if move is None:
            return
        seat, action = move
        # the announcement is committed with the move: if the player's own move won the race, the version check
        # refuses this one (table.stale) and nothing is said
        try:
            await bot.tables.act_as_seat(table.id, seat, table.engine.dump_action(action),
                                         expected_version=table.version,
                                         announce=[Event(key="turn.auto", params={"seat": seat})])
        except TableError as exc:
            if exc.code != "table.stale":
                raise

    bot.timers.on("turn_warning", warn)
    bot.timers.on("turn_timeout", expire)
