"""Direct messages to the bot: routed to the game that waits on them (the Killer's route, Farewell Letters...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.dm.cog import DirectMessages

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(DirectMessages(bot))
