"""Everyday commands: ``/status``, ``/hand``, ``/rules``, ``/games``, ``/leaderboard``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.core.cog import Core

if TYPE_CHECKING:
    from bot.bot import CoronerBot


async def setup(bot: CoronerBot) -> None:
    await bot.add_cog(Core(bot))
