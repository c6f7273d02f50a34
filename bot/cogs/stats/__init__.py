"""``/stats``: statistics counted from the server's finished games (computer seats and cancelled games never
count), with chart images (:mod:`bot.cogs.stats.chart`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.stats.cog import Stats

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    await bot.add_cog(Stats(bot))
