"""Everyday commands: ``/status``, ``/hand``, ``/rules``, ``/games``, ``/leaderboard``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cogs.core.cog import Core

if TYPE_CHECKING:
    from bot.app import Coroner


async def setup(bot: Coroner) -> None:
    await bot.add_cog(Core(bot))
