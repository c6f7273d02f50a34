"""``/history``: the server's finished games, and one game's timeline with every secret revealed, exportable."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.history.cog import History

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(History(bot))
