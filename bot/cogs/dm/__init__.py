"""Direct messages to the bot: routed to the game that waits on them (the Killer's route, Farewell Letters...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.dm.cog import DirectMessages

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    cog = DirectMessages(bot)
    await bot.add_cog(cog)
    bot.add_listener(cog.missed.on_ready, "on_ready")  # (bot.cogs.dm.missed)
